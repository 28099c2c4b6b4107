"""Dynamic updates, saving and loading, built-in scenes and files of the repository."""

import numpy as np
import pytest

import corridor
from conftest import DATA, wall_room
from test_queries import OVER_THE_WALL


def test_insert_move_remove(room_map):
    before = room_map.path((1, 1), (9, 1)).length
    assert room_map.version == 0
    # A block that closes the gap above the wall.
    block = room_map.insert([(4, 4), (6, 4), (6, 6), (4, 6)])
    assert isinstance(block, int) and block in room_map.obstacle_ids()
    with pytest.raises(corridor.NoPathError):
        room_map.path((1, 1), (9, 1))
    # Moved off to the right, it leaves the gap open again; the id stays.
    room_map.move(block, [(8, 3), (9, 3), (9, 4), (8, 4)])
    assert room_map.path((1, 1), (9, 1)).length == pytest.approx(before)
    room_map.translate(block, (0, 1))
    assert room_map.environment.obstacle(block).min(axis=0).tolist() == [8, 4]
    room_map.remove(block)
    assert block not in room_map.obstacle_ids()
    # Ids are never reused.
    assert room_map.insert_point((2, 5)) > block
    assert room_map.version == 5


def test_removing_the_wall_gives_a_straight_path(room_map):
    (wall,) = room_map.obstacle_ids()
    room_map.remove(wall)
    assert room_map.path((1, 1), (9, 1)).length == pytest.approx(8.0)
    assert room_map.free_area == pytest.approx(60.0)


def test_a_map_loaded_with_its_environment_takes_updates(tmp_path, room_map):
    fence = room_map.insert_polyline([(1, 5), (2, 5.5)])
    room_map.save_ecm(tmp_path / "room.ecm")
    loaded = corridor.Map.load_ecm(tmp_path / "room.ecm")
    assert not loaded.read_only
    assert loaded.environment.to_json() == room_map.environment.to_json()
    # Saving again gives the same bytes.
    loaded.save_ecm(tmp_path / "again.ecm")
    assert (tmp_path / "again.ecm").read_bytes() == (tmp_path / "room.ecm").read_bytes()
    # Updates on the loaded map: the block closes the gap, the fence moves, ids go on.
    block = loaded.insert([(4, 4), (6, 4), (6, 6), (4, 6)])
    assert block > fence
    with pytest.raises(corridor.NoPathError):
        loaded.path((1, 1), (9, 1))
    loaded.move(block, [(8, 3), (9, 3), (9, 4), (8, 4)])
    loaded.remove(fence)
    # The oracle: a map built from scratch from the updated environment.
    rebuilt = corridor.Map(loaded.environment)
    assert loaded.free_area == pytest.approx(rebuilt.free_area, rel=1e-12)
    assert loaded.size == rebuilt.size and loaded.component_count == rebuilt.component_count
    pts = np.random.default_rng(31).uniform((0, 0), (10, 6), (200, 2))
    assert np.allclose(loaded.clearance(pts), rebuilt.clearance(pts), equal_nan=True, atol=1e-9)
    for r in (0.0, 0.4):
        assert loaded.path((1, 1), (9, 1), radius=r).length == pytest.approx(rebuilt.path((1, 1), (9, 1), radius=r).length, abs=1e-9)


def test_save_and_load(tmp_path, room_map):
    room_map.insert_polyline([(1, 5), (2, 5.5)])
    room_map.save(tmp_path / "room.json")
    again = corridor.Map.load(tmp_path / "room.json")
    assert again.environment.to_json() == room_map.environment.to_json()
    # Without its environment (the older format), the loaded map is read-only.
    room_map.save_ecm(str(tmp_path / "room.ecm"), environment=False)
    assert (tmp_path / "room.ecm").read_bytes()[:8] == b"CRDECM07"
    loaded = corridor.Map.load_ecm(tmp_path / "room.ecm")
    assert loaded.read_only and not room_map.read_only
    assert loaded.size == room_map.size
    for m in (again, loaded):
        assert m.path((1, 1), (9, 1)).length == pytest.approx(OVER_THE_WALL)
    with pytest.raises(corridor.ReadOnlyMapError, match="holds no environment"):
        loaded.insert_point((2, 2))
    with pytest.raises(RuntimeError):
        loaded.save(tmp_path / "x.json")


def test_environment_round_trips_and_builders(tmp_path):
    env = wall_room()
    env.add_polygon([(1, 1), (3, 1), (3, 3), (1, 3)], holes=[[(1.5, 1.5), (2.5, 1.5), (2.5, 2.5), (1.5, 2.5)]])
    env.save(tmp_path / "e.json")
    assert corridor.Environment.load(tmp_path / "e.json").to_json() == env.to_json()
    assert corridor.Environment.from_json(env.to_json()).obstacle_ids() == env.obstacle_ids()
    assert len(env) == 2
    assert env.bounds == ((0, 0), (10, 6))
    assert env.boundary.shape == (4, 2)
    # NumPy arrays of any real dtype and lists are both accepted.
    e2 = corridor.Environment.from_polygons(np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.int32), [np.array([[4, 4], [6, 4], [5, 6]], dtype=np.float32)])
    assert e2.obstacle_ids() == [0]
    m = corridor.Map(e2)
    # The pocket inside the hole is a second component of the free space.
    assert corridor.Map(env).component_count == 2
    assert m.component_count == 1
    assert "Map(" in repr(m) and "Environment(" in repr(env)


@pytest.mark.parametrize("name", ["empty", "military", "dungeon"])
def test_builtin_scenes(name):
    m = corridor.Map(corridor.Environment.scene(name))
    assert m.free_area > 0 and m.size[1] > 0


def test_moving_ai_map_from_the_repository():
    path = sorted((DATA / "movingai").glob("*.map"))[0]
    m = corridor.Map.load(path)
    assert m.component_count >= 1


def test_help_reads_well():
    assert "Explicit Corridor Map" in corridor.Map.__doc__
    assert "radius" in corridor.Map.path.__doc__
    assert "GIL" in corridor.Map.paths.__doc__


def test_package_docstring_example_runs():
    import doctest

    result = doctest.testmod(corridor)
    assert result.attempted > 0 and result.failed == 0


def test_damaged_saved_maps_raise_format_error(tmp_path, room_map):
    room_map.save_ecm(tmp_path / "room.ecm")
    data = bytearray((tmp_path / "room.ecm").read_bytes())
    assert data[:8] == b"CRDECM08"
    data[-3] ^= 0x10
    (tmp_path / "bad.ecm").write_bytes(bytes(data))
    with pytest.raises(corridor.FormatError, match="checksum"):
        corridor.Map.load_ecm(tmp_path / "bad.ecm")
