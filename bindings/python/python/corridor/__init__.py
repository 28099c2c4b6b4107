"""Corridor: exact navigation on Explicit Corridor Maps, from Python.

Paths for disk-shaped characters of any radius, clearance and nearest obstacle at points,
visibility (what a point sees, line of sight), and obstacles that are inserted, moved or removed while the map stays up to date.
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

Errors are exceptions of this module, each a subclass of a built-in one:
GeometryError and QueryError and FormatError (ValueError), NoPathError (LookupError),
UnknownObstacleError (KeyError), ReadOnlyMapError (RuntimeError).
"""

from ._corridor import (
    Environment,
    FormatError,
    GeometryError,
    Map,
    NoPathError,
    Path,
    QueryError,
    ReadOnlyMapError,
    UnknownObstacleError,
    VisibilityPolygon,
    __version__,
)

__all__ = [
    "Environment",
    "Map",
    "Path",
    "VisibilityPolygon",
    "GeometryError",
    "QueryError",
    "NoPathError",
    "UnknownObstacleError",
    "FormatError",
    "ReadOnlyMapError",
    "__version__",
]
