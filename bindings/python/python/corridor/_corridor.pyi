"""Type stubs of the native module corridor._corridor (re-exported by corridor)."""

from os import PathLike
from typing import Iterable, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
StrPath = Union[str, PathLike]
Points = npt.NDArray[np.float64]

__version__: str

class GeometryError(ValueError):
    """An environment or obstacle is unusable, or no ECM could be built from it."""

class QueryError(ValueError):
    """A query point is not finite, not free, too close to a wall; or a bad radius."""

class NoPathError(LookupError):
    """No path joins start and goal (different components, or no corridor wide enough)."""

class UnknownObstacleError(KeyError):
    """No obstacle has this id."""

class FormatError(ValueError):
    """A file or text is not in the expected format (the message names line and column)."""

class ReadOnlyMapError(RuntimeError):
    """The map was loaded from a saved ECM and takes no updates."""

class CrowdError(ValueError):
    """A character or simulation option is refused (bad radius, speeds, point, start in a wall)."""

class UnknownCharacterError(KeyError):
    """No character of the simulation has this id."""

class Environment:
    """A boundary ring and obstacles (polygons with optional holes, polylines, points)."""

    @staticmethod
    def rectangle(min: ArrayLike, max: ArrayLike) -> Environment:
        """An axis-aligned rectangular boundary from min to max, without obstacles."""
    @staticmethod
    def from_polygons(boundary: ArrayLike, polygons: Optional[Iterable[ArrayLike]] = None) -> Environment:
        """A boundary ring (n, 2) and polygon obstacles (each (k, 2)); ids 0, 1, ... in order."""
    @staticmethod
    def scene(name: str) -> Environment:
        """A built-in scene: "empty", "military", "dungeon" or "city"."""
    @staticmethod
    def load(path: StrPath) -> Environment:
        """Reads native JSON, GeoJSON, Moving AI .map, Polyanya .mesh or maze.txt."""
    @staticmethod
    def from_json(text: str) -> Environment:
        """Parses the native JSON format."""
    def to_json(self) -> str:
        """The native JSON text (exact)."""
    def save(self, path: StrPath) -> None:
        """Writes the native JSON format to a file."""
    def add_polygon(self, vertices: ArrayLike, holes: Optional[Iterable[ArrayLike]] = None) -> int:
        """Adds a checked polygon obstacle and returns its id."""
    def add_polyline(self, points: ArrayLike) -> int:
        """Adds a polyline obstacle (a thin wall) and returns its id."""
    def add_point(self, point: ArrayLike) -> int:
        """Adds a point obstacle and returns its id."""
    def remove(self, id: int) -> None:
        """Removes an obstacle (UnknownObstacleError if there is none with this id)."""
    def validate(self) -> None:
        """Raises GeometryError naming the first problem, if any."""
    def obstacle_ids(self) -> list[int]:
        """The obstacles' ids, ascending."""
    def obstacle(self, id: int) -> Points:
        """An obstacle's vertices (a polygon's exterior ring), shape (k, 2)."""
    @property
    def boundary(self) -> Points:
        """The boundary ring, shape (n, 2)."""
    @property
    def bounds(self) -> Tuple[Tuple[float, float], Tuple[float, float]]:
        """((min_x, min_y), (max_x, max_y))."""
    def __len__(self) -> int: ...

class Path:
    """A planned path: points, exact length, indicative route and corridor."""

    @property
    def points(self) -> Points:
        """The path's points, shape (n, 2), start to goal."""
    @property
    def length(self) -> float:
        """The exact length."""
    @property
    def indicative_route(self) -> Points:
        """The indicative route, shape (m, 2)."""
    @property
    def corridor(self) -> npt.NDArray[np.float64]:
        """Shape (k, 7): x, y, left x, left y, right x, right y, clearance per step."""
    def __len__(self) -> int: ...

class VisibilityPolygon:
    """The region seen from a point: a simple polygon, counter-clockwise, star-shaped
    around its origin; edge i runs from points[i] to points[(i + 1) % n]."""

    @property
    def points(self) -> Points:
        """The corners, shape (n, 2), counter-clockwise."""
    @property
    def edge_kinds(self) -> List[Literal["wall", "window", "arc", "cone"]]:
        """Per edge: "wall" (an obstacle's boundary) or "window" (a ray past a corner)."""
    @property
    def area(self) -> float:
        """The area seen."""
    @property
    def origin(self) -> Tuple[float, float]:
        """The viewpoint."""
    def __len__(self) -> int: ...

class Map:
    """An environment with its Explicit Corridor Map: queries and dynamic updates."""

    def __init__(self, environment: Environment) -> None:
        """Builds the ECM (GeometryError if the environment is unusable)."""
    @staticmethod
    def load(path: StrPath) -> Map:
        """Reads an environment file and builds its ECM."""
    @staticmethod
    def load_ecm(path: StrPath) -> Map:
        """Loads a saved map; it takes updates if it was saved with its environment, else it is read-only."""
    def save(self, path: StrPath) -> None:
        """Writes the environment as native JSON (Map.load reads it back)."""
    def save_ecm(self, path: StrPath, environment: bool = True) -> None:
        """Writes the ECM (and the environment, unless environment=False) in binary form (Map.load_ecm reads it back)."""
    def path(self, start: ArrayLike, goal: ArrayLike, radius: float = 0.0, preferred_clearance: float = 0.0) -> Path:
        """A path for a disk of radius; QueryError or NoPathError when there is none."""
    def paths(self, starts: ArrayLike, goals: ArrayLike, radius: float = 0.0, preferred_clearance: float = 0.0) -> list[Optional[Path]]:
        """Many paths in parallel with the GIL released; None where a query has no path."""
    @overload
    def clearance(self, points: Tuple[float, float]) -> float: ...
    @overload
    def clearance(self, points: ArrayLike) -> Union[float, npt.NDArray[np.float64]]:
        """Distance to the nearest obstacle; NaN where a point is not free."""
    def nearest_obstacle(self, points: ArrayLike) -> npt.NDArray[np.float64]:
        """Nearest obstacle point, (2,) or (n, 2); NaN rows where a point is not free."""
    def visibility_polygon(self, point: ArrayLike) -> VisibilityPolygon:
        """What the free point sees (QueryError if it is not finite, not free, or on a wall)."""
    def line_of_sight(self, p: ArrayLike, q: ArrayLike, radius: float = 0.0) -> bool:
        """Whether p sees q (radius 0), or a disk of radius moves straight from p to q."""
    def visible(self, point: ArrayLike, candidates: ArrayLike) -> npt.NDArray[np.bool_]:
        """Per candidate row (n, 2), whether point sees it: bool array (n,)."""
    def insert(self, vertices: ArrayLike, holes: Optional[Iterable[ArrayLike]] = None) -> int:
        """Inserts a polygon obstacle and returns its new id."""
    def insert_point(self, point: ArrayLike) -> int:
        """Inserts a point obstacle and returns its new id."""
    def insert_polyline(self, points: ArrayLike) -> int:
        """Inserts a polyline obstacle and returns its new id."""
    def move(self, id: int, vertices: ArrayLike, holes: Optional[Iterable[ArrayLike]] = None) -> None:
        """Gives an obstacle a new polygon, keeping its id."""
    def translate(self, id: int, offset: ArrayLike) -> None:
        """Moves an obstacle by offset."""
    def remove(self, id: int) -> None:
        """Removes an obstacle (UnknownObstacleError for an unknown id)."""
    @property
    def environment(self) -> Environment:
        """A copy of the current environment."""
    def obstacle_ids(self) -> list[int]:
        """The obstacles' ids, ascending."""
    @property
    def read_only(self) -> bool: ...
    @property
    def version(self) -> int: ...
    @property
    def free_area(self) -> float: ...
    @property
    def component_count(self) -> int: ...
    @property
    def size(self) -> Tuple[int, int]:
        """(medial-axis vertices, edges)."""

class Simulation:
    """A crowd on its own copy of a map: ECM routes, ORCA avoidance, never inside a wall.

    Array properties list the characters in index order (the order of ids) and are new
    arrays on each access.
    """

    WALKING: int
    ARRIVED: int
    BLOCKED: int

    def __init__(
        self,
        map: Map,
        *,
        time_step: float = 0.25,
        substeps: int = 1,
        threads: int = 0,
        route_following: bool = True,
        neighbour_distance: float = 15.0,
        max_neighbours: int = 10,
        time_horizon: float = 10.0,
        obstacle_horizon: float = 10.0,
        lookahead: float = 2.0,
        stray_distance: float = 3.0,
        arrival_distance: float = 0.0,
        remove_arrived: bool = False,
        share_plans: bool = False,
        seed: int = 0,
    ) -> None:
        """A simulation on a copy of an updatable map (CrowdError for a bad option)."""
    def add(
        self,
        positions: ArrayLike,
        goals: ArrayLike,
        radii: Union[float, ArrayLike],
        preferred_speed: Optional[Union[float, ArrayLike]] = None,
        max_speed: Optional[Union[float, ArrayLike]] = None,
        preferred_clearance: Optional[Union[float, ArrayLike]] = None,
    ) -> npt.NDArray[np.uint64]:
        """Adds characters, all or none (CrowdError names the first bad one); their ids."""
    def remove(self, ids: Union[int, ArrayLike]) -> None:
        """Removes characters, all or none (UnknownCharacterError for an unknown id)."""
    def index(self, ids: Union[int, ArrayLike]) -> npt.NDArray[np.uintp]:
        """The row of each id in the array properties."""
    def step(self, steps: int = 1) -> None:
        """Runs steps of time_step seconds with the GIL released; queued obstacle changes apply at the end of the first."""
    def insert_obstacle(self, vertices: ArrayLike, holes: Optional[Sequence[ArrayLike]] = None) -> int:
        """Queues a polygon obstacle for the end of the next step; the id it will have."""
    def insert_point_obstacle(self, point: ArrayLike) -> int:
        """Queues a point obstacle for the end of the next step; the id it will have."""
    def move_obstacle(self, id: int, vertices: ArrayLike, holes: Optional[Sequence[ArrayLike]] = None) -> None:
        """Queues a new polygon for obstacle id (UnknownObstacleError, GeometryError)."""
    def remove_obstacle(self, id: int) -> None:
        """Queues the removal of obstacle id (UnknownObstacleError)."""
    def obstacle_ids(self) -> list[int]:
        """The obstacles' ids as the queued changes will leave them."""
    @property
    def environment(self) -> Environment:
        """A copy of the environment the characters walk in now."""
    @property
    def ids(self) -> npt.NDArray[np.uint64]: ...
    @property
    def positions(self) -> Points:
        """Centres, shape (n, 2)."""
    @property
    def velocities(self) -> Points:
        """Velocities (m/s), shape (n, 2)."""
    @property
    def goals(self) -> Points: ...
    @property
    def radii(self) -> npt.NDArray[np.float64]: ...
    @property
    def phases(self) -> npt.NDArray[np.uint8]:
        """WALKING, ARRIVED or BLOCKED per character."""
    @property
    def time(self) -> float:
        """Simulated seconds."""
    @property
    def stats(self) -> dict[str, float]:
        """What the run measured (closest approaches, collisions, plans, arrivals, ...)."""
    def __len__(self) -> int: ...
