"""Shared scenes for the tests: small worlds whose answers are known in closed form."""

import pathlib

import pytest

import corridor

DATA = pathlib.Path(__file__).resolve().parents[3] / "data"


def wall_room():
    """A 10 x 6 room with a wall from (4, 0) to (6, 4): the path from (1, 1) to (9, 1)
    goes over the wall's top corners, length 2 * sqrt(18) + 2; the gap above is 2 wide."""
    env = corridor.Environment.rectangle((0, 0), (10, 6))
    env.add_polygon([(4, 0), (6, 0), (6, 4), (4, 4)])
    return env


@pytest.fixture
def room():
    return wall_room()


@pytest.fixture
def room_map():
    return corridor.Map(wall_room())
