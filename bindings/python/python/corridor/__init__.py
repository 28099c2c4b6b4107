"""Corridor: exact navigation on Explicit Corridor Maps, from Python.

Paths for disk-shaped characters of any radius, clearance and nearest obstacle at points,
visibility (what a point sees, line of sight), obstacles that are inserted, moved or removed while the map stays up to date,
and crowds (Simulation: characters on ECM routes avoiding each other, stepped with the GIL released).
Coordinates go in as array-likes and come out as float64 NumPy arrays of shape (n, 2).

>>> import corridor
>>> env = corridor.Environment.rectangle((0, 0), (20, 10))
>>> wall = env.add_polygon([(8, 0), (12, 0), (12, 7), (8, 7)])
>>> m = corridor.Map(env)
>>> p = m.path((2, 2), (18, 2), radius=0.5)
>>> p.points.shape[1], round(p.length, 3) > 19
(2, True)
>>> float(m.clearance((10, 8)))
1.0
>>> m.line_of_sight((2, 2), (18, 2)), m.visibility_polygon((2, 2)).area < 200
(False, True)
>>> sim = corridor.Simulation(m, threads=1)
>>> ids = sim.add([(2, 2), (2, 9)], [(18, 2), (18, 9)], radii=0.4)
>>> sim.step(200)
>>> bool((sim.phases == corridor.Simulation.ARRIVED).all()), sim.positions.shape
(True, (2, 2))

Errors are exceptions of this module, each a subclass of a built-in one:
GeometryError and QueryError and FormatError (ValueError), NoPathError (LookupError),
UnknownObstacleError (KeyError), ReadOnlyMapError (RuntimeError), CrowdError (ValueError),
UnknownCharacterError (KeyError).
"""

from ._corridor import (
    CrowdError,
    Environment,
    FormatError,
    GeometryError,
    Map,
    NoPathError,
    Path,
    QueryError,
    ReadOnlyMapError,
    Simulation,
    UnknownCharacterError,
    UnknownObstacleError,
    VisibilityPolygon,
    __version__,
)

__all__ = [
    "Environment",
    "Map",
    "Path",
    "VisibilityPolygon",
    "Simulation",
    "GeometryError",
    "QueryError",
    "NoPathError",
    "UnknownObstacleError",
    "FormatError",
    "ReadOnlyMapError",
    "CrowdError",
    "UnknownCharacterError",
    "__version__",
]
