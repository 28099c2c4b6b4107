"""The crowd simulation from Python: characters reach their goals without entering walls
(checked with the Map's own clearance query) or each other, no faster than the shortest
path allows, the same for any thread count; bad input raises and changes nothing."""

import threading

import numpy as np
import pytest

import corridor

from conftest import wall_room

DT = 0.25


def free_points(m, n, clearance, seed):
    """n random points of the map with at least `clearance` room."""
    (x0, y0), (x1, y1) = m.environment.bounds
    pts = np.random.default_rng(seed).uniform((x0, y0), (x1, y1), (20 * n, 2))
    pts = pts[m.clearance(pts) > clearance][:n]
    assert len(pts) == n
    return pts


def walk(sim, steps, check=None):
    for _ in range(steps):
        sim.step()
        if check:
            check(sim)
        if (sim.phases == corridor.Simulation.ARRIVED).all():
            return


def test_two_characters_pass_each_other_in_a_room():
    m = corridor.Map(corridor.Environment.rectangle((0, 0), (20, 10)))
    sim = corridor.Simulation(m, threads=1)
    ids = sim.add([(2, 5), (18, 5.2)], [(18, 5), (2, 5)], 0.5)
    assert ids.dtype == np.uint64 and list(sim.ids) == list(ids)
    assert len(sim) == 2 and sim.positions.shape == (2, 2)
    walk(sim, 400)
    assert (sim.phases == corridor.Simulation.ARRIVED).all()
    assert np.linalg.norm(sim.positions - sim.goals, axis=1).max() <= 0.5
    stats = sim.stats
    # The discs never overlapped (1e-9: the avoidance's rounding), nor touched a wall.
    assert stats["min_pairwise_gap"] >= -1e-9
    assert stats["min_wall_gap"] >= 0
    assert stats["arrived"] == 2 and stats["steps"] == round(sim.time / DT)


def test_around_a_wall_never_closer_than_the_radius_and_no_faster_than_the_shortest_path():
    m = corridor.Map(wall_room())
    radius, start, goal = 0.3, (1, 1), (9, 1)
    sim = corridor.Simulation(m, threads=1)
    sim.add(start, goal, radius, preferred_speed=1.0, max_speed=1.5)

    def clear_of_walls(s):
        # The Map's clearance query, not the crowd's wall cache, is the judge.
        assert m.clearance(s.positions)[0] >= radius - 1e-7

    walk(sim, 200, clear_of_walls)
    assert sim.phases[0] == corridor.Simulation.ARRIVED
    shortest = m.path(start, goal, radius=radius).length
    # Arrival counts within one radius of the goal; the speed never exceeds max_speed.
    assert sim.time * 1.5 >= shortest - radius
    assert sim.time <= 3 * shortest  # and it did not wander


def test_velocities_are_the_last_move_in_open_space():
    m = corridor.Map(corridor.Environment.rectangle((0, 0), (40, 40)))
    sim = corridor.Simulation(m, threads=1, time_step=DT)
    sim.add([(5, 5), (5, 35)], [(35, 5), (35, 35)], 0.5)
    sim.step(2)
    before = sim.positions
    sim.step()
    assert np.allclose(sim.positions - before, sim.velocities * DT, atol=1e-12)
    assert np.allclose(np.linalg.norm(sim.velocities, axis=1), 1.0)  # preferred speed


def test_the_same_trajectories_for_any_thread_count():
    m = corridor.Map(corridor.Environment.scene("military"))
    starts, goals = free_points(m, 40, 0.6, 7), free_points(m, 40, 0.6, 8)
    runs = []
    for threads in (1, 2):
        sim = corridor.Simulation(m, threads=threads, seed=3)
        sim.add(starts, goals, 0.4)
        sim.step(40)
        runs.append((sim.positions, sim.velocities))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])


def test_add_remove_and_index():
    m = corridor.Map(corridor.Environment.rectangle((0, 0), (20, 10)))
    sim = corridor.Simulation(m)
    a = sim.add((2, 2), (18, 2), 0.4)
    b = sim.add(
        np.array([[2, 5], [2, 8]]),
        np.array([[18, 5], [18, 8]]),
        np.array([0.3, 0.6]),
        preferred_speed=[1.2, 0.8],
        max_speed=2.5,
        preferred_clearance=1.0,
    )
    assert len(a) == 1 and len(b) == 2 and len(set([*a, *b])) == 3
    assert list(sim.radii) == [0.4, 0.3, 0.6]
    sim.remove(a[0])
    assert len(sim) == 2 and set(sim.ids) == set(b)
    rows = sim.index(b)
    assert np.array_equal(sim.positions[rows], [[2, 5], [2, 8]])
    sim.remove(b)
    assert len(sim) == 0 and sim.positions.shape == (0, 2)
    c = sim.add((3, 3), (4, 4), 0.2)
    assert c[0] not in set([*a, *b])  # ids are never reused
    assert "characters=1" in repr(sim)


def test_bad_characters_add_nothing():
    m = corridor.Map(wall_room())
    sim = corridor.Simulation(m)
    sim.add((1, 1), (9, 1), 0.3)
    ok = [1, 5]
    for kwargs, match in [
        (dict(positions=[ok, (np.nan, 5)], goals=[ok, ok], radii=0.3), "character 1: point"),
        (dict(positions=[ok, ok], goals=[ok, (np.inf, 1)], radii=0.3), "not finite"),
        (dict(positions=[ok, ok], goals=[ok, ok], radii=[0.3, 0]), "character 1: character radius 0"),
        (dict(positions=ok, goals=ok, radii=-1), "radius -1"),
        (dict(positions=ok, goals=ok, radii=np.nan), "radius NaN"),
        (dict(positions=ok, goals=ok, radii=0.3, preferred_speed=3, max_speed=2), "speeds"),
        (dict(positions=ok, goals=ok, radii=0.3, preferred_speed=-1), "speeds"),
        (dict(positions=[ok, (5, 2)], goals=[ok, ok], radii=0.3), "character 1: .*closer than its radius"),
        (dict(positions=[ok, (1, 0.1)], goals=[ok, ok], radii=0.3), "closer than its radius"),
        (dict(positions=[ok, (30, 30)], goals=[ok, ok], radii=0.3), "closer than its radius"),
    ]:
        with pytest.raises(corridor.CrowdError, match=match) as e:
            sim.add(**kwargs)
        assert isinstance(e.value, ValueError)
        assert len(sim) == 1, kwargs


@pytest.mark.parametrize(
    "positions, goals, radii, error, match",
    [
        (np.zeros((3, 3)), np.zeros((3, 3)), 0.3, ValueError, r"shape \(2,\) or \(n, 2\)"),
        ([(1, 5), (2, 5)], [(9, 5)], 0.3, ValueError, "same length"),
        ([(1, 5), (2, 5)], [(9, 5), (9, 4)], [0.3, 0.3, 0.3], ValueError, "2 values"),
        ([(1, 5)], [(9, 5)], "wide", ValueError, "a number or a sequence"),
        (np.array([["a", "b"]]), [(9, 5)], 0.3, TypeError, "real numbers"),
        (None, [(9, 5)], 0.3, TypeError, "None"),
    ],
)
def test_wrong_shapes_and_dtypes(positions, goals, radii, error, match):
    sim = corridor.Simulation(corridor.Map(wall_room()))
    with pytest.raises(error, match=match):
        sim.add(positions, goals, radii)
    assert len(sim) == 0


def test_unknown_ids_remove_nothing():
    sim = corridor.Simulation(corridor.Map(wall_room()))
    ids = sim.add([(1, 5), (2, 5)], [(9, 5), (9, 5)], 0.3)
    with pytest.raises(corridor.UnknownCharacterError, match="999") as e:
        sim.remove([ids[0], 999])
    assert isinstance(e.value, KeyError)
    assert len(sim) == 2
    with pytest.raises(corridor.UnknownCharacterError):
        sim.index(999)
    with pytest.raises(ValueError, match="non-negative integer"):
        sim.remove(-1)
    with pytest.raises(ValueError):
        sim.remove("first")


def test_bad_options_and_maps(tmp_path):
    m = corridor.Map(wall_room())
    for kwargs in (dict(time_step=0), dict(time_step=np.nan), dict(substeps=0), dict(neighbour_distance=-1)):
        with pytest.raises(corridor.CrowdError, match="option"):
            corridor.Simulation(m, **kwargs)
    with pytest.raises(OverflowError):
        corridor.Simulation(m, threads=-1)
    with pytest.raises(TypeError):
        corridor.Simulation(m, 0.25)  # options are keywords only
    m.save_ecm(tmp_path / "room.ecm", environment=False)
    with pytest.raises(corridor.ReadOnlyMapError):
        corridor.Simulation(corridor.Map.load_ecm(tmp_path / "room.ecm"))


def test_the_simulation_has_its_own_copy_of_the_map():
    m = corridor.Map(wall_room())
    sim = corridor.Simulation(m, threads=1)
    sim.add((1, 5), (9, 5), 0.3)
    # A wall across the whole room on the Map does not reach the simulation.
    m.insert([(7, 0), (7.5, 0), (7.5, 6), (7, 6)])
    walk(sim, 200)
    assert sim.phases[0] == corridor.Simulation.ARRIVED


def test_steps_release_the_gil():
    m = corridor.Map(corridor.Environment.scene("military"))
    sim = corridor.Simulation(m, threads=1)
    pts = free_points(m, 200, 0.5, 1)
    sim.add(pts, pts[::-1], 0.3)
    count = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = count[0]
        sim.step(20)  # the first step plans 200 routes
        during = count[0] - before
    finally:
        stop.set()
        t.join()
    # With the GIL held through the step, the other thread could not have counted.
    assert during > 1000


def clear_of_walls_in(sim, radius):
    """The judge: a map built from scratch from the simulation's current environment."""
    oracle = corridor.Map(sim.environment)
    assert (oracle.clearance(sim.positions) >= radius - 1e-7).all()


def test_obstacles_change_while_the_crowd_walks():
    m = corridor.Map(wall_room())
    radius = 0.3
    sim = corridor.Simulation(m, threads=1)
    sim.add((1, 1), (9, 1), radius)
    sim.step(2)
    # A block closing the gap above the wall: queued, applied at the end of the next step.
    block = sim.insert_obstacle([(4, 4), (6, 4), (6, 6), (4, 6)])
    assert block in sim.obstacle_ids() and block not in sim.environment.obstacle_ids()
    sim.step()
    assert block in sim.environment.obstacle_ids() and sim.stats["changes"] == 1
    for _ in range(40):
        sim.step()
        clear_of_walls_in(sim, radius)
    # No corridor leads over the wall any more.
    assert sim.phases[0] == corridor.Simulation.BLOCKED
    assert sim.positions[0][0] < 6
    # Moved off to the side, the block leaves the gap open: the character goes on.
    sim.move_obstacle(block, [(8, 4.5), (9, 4.5), (9, 5.5), (8, 5.5)])
    for _ in range(200):
        sim.step()
        clear_of_walls_in(sim, radius)
        if sim.phases[0] == corridor.Simulation.ARRIVED:
            break
    assert sim.phases[0] == corridor.Simulation.ARRIVED
    sim.remove_obstacle(block)
    sim.step()
    assert block not in sim.environment.obstacle_ids() and sim.stats["changes"] == 3
    # The map the simulation copied is untouched.
    assert m.obstacle_ids() == [0]


def test_a_new_obstacle_pushes_a_character_out():
    m = corridor.Map(corridor.Environment.rectangle((0, 0), (20, 10)))
    radius = 0.5
    sim = corridor.Simulation(m, threads=1)
    sim.add((5, 5), (15, 5), radius)
    sim.insert_obstacle([(4, 4), (6.2, 4), (6.2, 6), (4, 6)])
    sim.step()
    assert sim.stats["pushed_out"] >= 1
    clear_of_walls_in(sim, radius)
    for _ in range(100):
        sim.step()
        clear_of_walls_in(sim, radius)
    assert sim.phases[0] == corridor.Simulation.ARRIVED


def test_obstacle_changes_are_checked_when_queued():
    sim = corridor.Simulation(corridor.Map(wall_room()), threads=1)
    with pytest.raises(corridor.UnknownObstacleError):
        sim.remove_obstacle(99)
    with pytest.raises(KeyError):
        sim.move_obstacle(99, [(1, 1), (2, 1), (2, 2)])
    with pytest.raises(corridor.GeometryError):
        sim.insert_obstacle([(1, 1), (3, 3), (3, 1), (1, 3)])  # a bowtie
    with pytest.raises(corridor.GeometryError, match="not finite"):
        sim.insert_point_obstacle((float("nan"), 1))
    assert sim.obstacle_ids() == [0]
    # An obstacle queued in this step can be moved and removed before it exists.
    pillar = sim.insert_point_obstacle((2, 5))
    sim.move_obstacle(pillar, [(1, 5), (2, 5), (2, 5.5)])
    sim.remove_obstacle(pillar)
    with pytest.raises(corridor.UnknownObstacleError):
        sim.remove_obstacle(pillar)
    sim.step()
    assert sim.environment.obstacle_ids() == [0] and sim.stats["changes"] == 1


def test_a_crowd_on_a_map_loaded_from_a_saved_ecm(tmp_path):
    corridor.Map(wall_room()).save_ecm(tmp_path / "room.ecm")
    sim = corridor.Simulation(corridor.Map.load_ecm(tmp_path / "room.ecm"), threads=1)
    sim.add((1, 1), (9, 1), 0.3)
    sim.insert_obstacle([(1, 4), (2, 4), (2, 5), (1, 5)])
    walk(sim, 200)
    assert sim.phases[0] == corridor.Simulation.ARRIVED
    assert len(sim.environment.obstacle_ids()) == 2
