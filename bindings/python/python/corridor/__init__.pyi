from ._corridor import (
    Environment as Environment,
    FormatError as FormatError,
    GeometryError as GeometryError,
    Map as Map,
    NoPathError as NoPathError,
    Path as Path,
    QueryError as QueryError,
    ReadOnlyMapError as ReadOnlyMapError,
    UnknownObstacleError as UnknownObstacleError,
    VisibilityPolygon as VisibilityPolygon,
    __version__ as __version__,
)
