"""Bad input from Python raises the right exception with the library's message and
never crashes the interpreter."""

import math

import numpy as np
import pytest

import corridor

NAN = math.nan


@pytest.mark.parametrize("start", [(NAN, 1.0), (1.0, math.inf), np.array([NAN, NAN])])
def test_non_finite_ends(room_map, start):
    with pytest.raises(corridor.QueryError, match="not finite") as e:
        room_map.path(start, (9, 1))
    assert isinstance(e.value, ValueError)
    with pytest.raises(corridor.QueryError, match="not finite"):
        room_map.path((1, 1), start)
    with pytest.raises(corridor.QueryError, match=r"starts\[1\]"):
        room_map.paths([(1, 1), start], [(9, 1), (9, 1)])
    with pytest.raises(corridor.QueryError):
        room_map.clearance([start])


def test_ends_outside_the_free_space(room_map):
    with pytest.raises(corridor.QueryError, match="start"):
        room_map.path((5, 2), (9, 1))
    with pytest.raises(corridor.QueryError, match="goal"):
        room_map.path((1, 1), (50, 50))
    with pytest.raises(corridor.QueryError, match="closer than the radius"):
        room_map.path((0.2, 1), (9, 1), radius=0.5)


@pytest.mark.parametrize("radius", [-1.0, NAN, math.inf])
def test_bad_radius(room_map, radius):
    with pytest.raises(corridor.QueryError, match="finite and non-negative"):
        room_map.path((1, 1), (9, 1), radius=radius)
    with pytest.raises(corridor.QueryError):
        room_map.paths([(1, 1)], [(9, 1)], radius=radius)


@pytest.mark.parametrize(
    "bad",
    [(1, 2, 3), [[1, 2]], np.zeros((2, 2)), 5.0, [[1, 2], [3]]],
)
def test_wrong_shapes_for_a_point(room_map, bad):
    with pytest.raises(ValueError):
        room_map.path(bad, (9, 1))


@pytest.mark.parametrize("bad", [np.zeros((3, 3)), np.zeros((2, 2, 2)), np.zeros(5)])
def test_wrong_shapes_for_points(room_map, bad):
    with pytest.raises(ValueError, match="shape"):
        room_map.clearance(bad)
    with pytest.raises(ValueError, match="shape"):
        room_map.paths(bad, bad)
    with pytest.raises(ValueError, match="shape"):
        room_map.insert(bad)


def test_mismatched_batches(room_map):
    with pytest.raises(ValueError, match="same length"):
        room_map.paths(np.ones((3, 2)), np.ones((2, 2)))


@pytest.mark.parametrize(
    "bad, error",
    [
        (np.array([[1 + 1j, 2]]), TypeError),
        (np.array([["a", "b"]]), TypeError),
        (np.array([[True, False]]), TypeError),
        (np.array([[object(), 1]], dtype=object), TypeError),
        ([["a", "b"]], ValueError),
        ([[None, 1]], corridor.QueryError),  # None becomes NaN in a float array
        ("xy", ValueError),
        (None, TypeError),
    ],
)
def test_wrong_dtypes(room_map, bad, error):
    with pytest.raises(error):
        room_map.clearance(bad)


def test_self_intersecting_polygons(room, room_map):
    bowtie = [(1, 1), (3, 3), (3, 1), (1, 3)]
    with pytest.raises(corridor.GeometryError, match="intersects itself") as e:
        room.add_polygon(bowtie)
    assert isinstance(e.value, ValueError)
    with pytest.raises(corridor.GeometryError, match="intersects itself"):
        room_map.insert(bowtie)
    with pytest.raises(corridor.GeometryError, match="intersects itself"):
        room_map.move(room_map.obstacle_ids()[0], bowtie)
    with pytest.raises(corridor.GeometryError, match="intersects itself"):
        corridor.Environment.from_polygons([(0, 0), (10, 0), (0, 10), (10, 10)])
    # Nothing changed: the map still answers.
    assert room_map.path((1, 1), (9, 1)).length > 0


def test_degenerate_and_non_finite_obstacles(room):
    with pytest.raises(corridor.GeometryError, match="at least 3"):
        room.add_polygon([(1, 1), (2, 2)])
    with pytest.raises(corridor.GeometryError, match="not finite"):
        room.add_polygon([(1, 1), (2, NAN), (1, 2)])
    with pytest.raises(corridor.GeometryError, match="at least 2"):
        room.add_polyline([(1, 1)])
    with pytest.raises(ValueError):
        corridor.Environment.rectangle((0, 0), (0, 5))


def test_unknown_ids(room, room_map):
    for call in (
        lambda: room_map.remove(999),
        lambda: room_map.move(999, [(1, 1), (2, 1), (2, 2)]),
        lambda: room_map.translate(999, (1, 1)),
        lambda: room.remove(999),
        lambda: room.obstacle(999),
    ):
        with pytest.raises(corridor.UnknownObstacleError, match="999") as e:
            call()
        assert isinstance(e.value, KeyError)
    with pytest.raises(OverflowError):
        room_map.remove(-1)
    with pytest.raises(TypeError):
        room_map.remove("wall")


def test_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.json"):
        corridor.Map.load(tmp_path / "nowhere.json")
    with pytest.raises(FileNotFoundError):
        corridor.Map.load_ecm(tmp_path / "nowhere.ecm")
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "boundary": [[0, 0], [1, 0]')
    with pytest.raises(corridor.FormatError, match="line 1"):
        corridor.Environment.load(bad)
    with pytest.raises(corridor.FormatError):
        corridor.Environment.from_json("[]")
    junk = tmp_path / "junk.ecm"
    junk.write_bytes(b"\x00\x01not an ecm")
    with pytest.raises(corridor.FormatError):
        corridor.Map.load_ecm(junk)
    with pytest.raises(corridor.FormatError, match="unknown format"):
        corridor.Map.load(tmp_path / "x.unknown")
    with pytest.raises(ValueError, match="dungeon"):
        corridor.Environment.scene("castle")
