//! Every reader rejects malformed input with the right error variant, on the right line,
//! with a message that names the problem.

use corridor_io::{
    read_geojson, read_json, read_map, read_maze, read_mesh, read_problems, read_scenarios,
};
use std::fmt::{Debug, Display};

/// One malformed input: the text, the error variant, the line (0 when the error has
/// none), and a word the message must contain.
struct Case {
    input: String,
    variant: &'static str,
    line: usize,
    says: &'static str,
}

fn case(input: impl Into<String>, variant: &'static str, line: usize, says: &'static str) -> Case {
    Case {
        input: input.into(),
        variant,
        line,
        says,
    }
}

fn variant_name(debug: &str) -> &str {
    let end = debug
        .find(|c: char| !c.is_alphanumeric() && c != '_')
        .unwrap_or(debug.len());
    &debug[..end]
}

/// The first `line: N` in the Debug form (0 when there is none).
fn line_of(debug: &str) -> usize {
    debug
        .find("line: ")
        .map(|i| {
            debug[i + 6..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        })
        .unwrap_or(0)
}

fn check<T: Debug, E: Debug + Display>(
    reader: &str,
    cases: &[Case],
    read: impl Fn(&str) -> Result<T, E>,
) {
    assert!(cases.len() >= 20, "{reader}: only {} cases", cases.len());
    for (k, c) in cases.iter().enumerate() {
        let err = match read(&c.input) {
            Ok(v) => panic!("{reader} case {k}: accepted {:?} as {v:?}", c.input),
            Err(e) => e,
        };
        let (debug, message) = (format!("{err:?}"), err.to_string());
        assert_eq!(
            variant_name(&debug),
            c.variant,
            "{reader} case {k}: {:?} gave {debug}",
            c.input
        );
        assert_eq!(
            line_of(&debug),
            c.line,
            "{reader} case {k}: {:?} gave {debug}",
            c.input
        );
        assert!(
            message.contains(c.says),
            "{reader} case {k}: message {message:?} does not say {:?}",
            c.says
        );
        if c.line > 0 {
            assert!(
                message.contains(&format!("line {}", c.line)),
                "{reader} case {k}: message {message:?} does not name line {}",
                c.line
            );
        }
    }
}

const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";

#[test]
fn map_reader_rejects_malformed_input() {
    read_map(MAP).unwrap();
    let row = |r: usize, s: &str| {
        let mut lines: Vec<&str> = MAP.lines().collect();
        lines[r + 4] = s;
        lines.join("\n") + "\n"
    };
    let header = |h: &str| format!("{h}....\n.@@.\n....\n");
    let cases = [
        case("", "Truncated", 1, "`map`"),
        case("type octile\n", "Truncated", 1, "ended"),
        case(&MAP[..MAP.len() - 5], "Truncated", 6, "row 2 of 3"),
        case(
            MAP.replace("octile", "octagonal"),
            "UnsupportedType",
            1,
            "octagonal",
        ),
        case(
            MAP.replace("type octile", "type"),
            "BadHeader",
            1,
            "map type",
        ),
        case(MAP.replace("height 3", "height x3"), "BadNumber", 2, "x3"),
        case(
            MAP.replace("height 3", "height -3"),
            "BadNumber",
            2,
            "height",
        ),
        case(MAP.replace("height 3", "height 3.5"), "BadNumber", 2, "3.5"),
        case(
            MAP.replace("width 4", "width 99999999999999999999999"),
            "TooLarge",
            3,
            "larger",
        ),
        case(
            MAP.replace("width 4", "width 60000"),
            "TooLarge",
            3,
            "60000",
        ),
        case(MAP.replace("height 3", "height 0"), "Empty", 3, "no cells"),
        case(
            row(1, ".@x."),
            "UnknownCell",
            6,
            "column 3: unknown cell `x`",
        ),
        case(row(0, "..."), "RowLength", 5, "3 cells"),
        case(row(2, "....."), "RowLength", 7, "5 cells"),
        case(row(1, ""), "RowLength", 6, "0 cells"),
        case(
            format!("{MAP}....\n"),
            "TrailingData",
            8,
            "after the last row",
        ),
        case(
            header("type octile\nheight 3\nwidth 4\n"),
            "BadHeader",
            4,
            "`type`, `height`, `width` or `map`",
        ),
        case(
            MAP.replace("width 4", "height 4"),
            "DuplicateHeader",
            3,
            "second time",
        ),
        case(
            header("height 3\nwidth 4\nmap\n"),
            "BadHeader",
            3,
            "type octile",
        ),
        case(
            header("type octile\nheight 3\nmap\n"),
            "BadHeader",
            3,
            "width",
        ),
        case(MAP.replace("map\n", "map now\n"), "BadHeader", 4, "now"),
        case(
            MAP.replace("height 3", "height 3 4"),
            "BadHeader",
            2,
            "end of the header line",
        ),
        case(MAP.replace("width 4", "depth 4"), "BadHeader", 3, "depth"),
        case(row(0, "..é."), "UnknownCell", 5, "`é`"),
        case(row(0, ".\t.."), "UnknownCell", 5, "column 2"),
        case(row(2, "..\0."), "UnknownCell", 7, "column 3"),
        case(row(1, ".@@,"), "UnknownCell", 6, "`,`"),
    ];
    check("map", &cases, read_map);
}

const SCEN: &str = "version 1\n0\tmaps/a.map\t4\t3\t0\t0\t3\t2\t3.5\n";

#[test]
fn scenario_reader_rejects_malformed_input() {
    assert_eq!(read_scenarios(SCEN).unwrap().len(), 1);
    let with = |field: usize, value: &str| {
        let mut f: Vec<&str> = SCEN.lines().nth(1).unwrap().split('\t').collect();
        f[field] = value;
        format!("version 1\n{}\n", f.join("\t"))
    };
    let cases = [
        case("", "MissingVersion", 1, "version 1"),
        case("versio 1\n", "MissingVersion", 1, "versio"),
        case("version 2\n", "UnsupportedVersion", 1, "`2`"),
        case("version x\n", "UnsupportedVersion", 1, "`x`"),
        case("version\n", "MissingVersion", 1, "version 1"),
        case("version 1 extra\n", "MissingVersion", 1, "extra"),
        case(SCEN.replace("\t3.5", ""), "FieldCount", 2, "found 8"),
        case(SCEN.replace("3.5", "3.5\t7"), "FieldCount", 2, "found 10"),
        case(with(0, "a"), "BadNumber", 2, "bucket"),
        case(with(2, "-4"), "BadNumber", 2, "width"),
        case(with(4, "1.5"), "BadNumber", 2, "start_x"),
        case(with(4, "4"), "OutsideMap", 2, "start_x = 4"),
        case(with(7, "3"), "OutsideMap", 2, "goal_y = 3"),
        case(with(8, "NaN"), "BadNumber", 2, "optimal_length"),
        case(with(8, "inf"), "BadNumber", 2, "finite"),
        case(with(8, "-1"), "BadNumber", 2, "non-negative"),
        case(with(8, "abc"), "BadNumber", 2, "abc"),
        case(with(1, "my map.map"), "FieldCount", 2, "found 10"),
        case(
            format!("{SCEN}0\tmaps/a.map\t4\n"),
            "FieldCount",
            3,
            "found 3",
        ),
        case(with(5, "99999999999"), "BadNumber", 2, "start_y"),
        case(
            "version 1\n\n\n0 m 4 3 0 0 9 0 1\n",
            "OutsideMap",
            4,
            "goal_x",
        ),
        case(with(2, "0"), "OutsideMap", 2, "start_x = 0"),
        case(with(6, "0x1"), "BadNumber", 2, "goal_x"),
    ];
    check("scen", &cases, read_scenarios);
}

const MAZE: &str = "4 3\n0 0 0 0\n0 1 1 0\n0 0 0 0\n";

#[test]
fn maze_reader_rejects_malformed_input() {
    read_maze(MAZE).unwrap();
    let row = |r: usize, s: &str| {
        let mut lines: Vec<&str> = MAZE.lines().collect();
        lines[r + 1] = s;
        lines.join("\n") + "\n"
    };
    let cases = [
        case("", "Truncated", 1, "`W H`"),
        case("4\n", "BadHeader", 1, "two numbers"),
        case("4 3 2\n", "BadHeader", 1, "`2`"),
        case(MAZE.replace("4 3", "a 3"), "BadNumber", 1, "width"),
        case(MAZE.replace("4 3", "4 -3"), "BadNumber", 1, "height"),
        case(MAZE.replace("4 3", "0 3"), "Empty", 1, "no cells"),
        case(MAZE.replace("4 3", "100000 3"), "TooLarge", 1, "100000"),
        case("4 3\n0 0 0 0\n0 1 1 0\n", "Truncated", 3, "row 2 of 3"),
        case("4 3\n", "Truncated", 1, "row 0 of 3"),
        case(
            row(1, "0 2 1 0"),
            "UnknownCell",
            3,
            "column 3: unknown cell `2`",
        ),
        case(row(0, "0 0 0"), "RowLength", 2, "3 cells"),
        case(row(2, "0 0 0 0 0"), "RowLength", 4, "5 cells"),
        case(row(1, "01 10"), "UnknownCell", 3, "`01`"),
        case(
            format!("{MAZE}0 0 0 0\n"),
            "TrailingData",
            5,
            "after the last row",
        ),
        case(row(2, "0 0 0 0.5"), "UnknownCell", 4, "`0.5`"),
        case(row(0, "-1 0 0 0"), "UnknownCell", 2, "`-1`"),
        case(row(0, "010"), "RowLength", 2, "3 cells"),
        case(MAZE.replace("4 3", "4,3"), "BadHeader", 1, "two numbers"),
        case(row(1, "0 NaN 1 0"), "UnknownCell", 3, "NaN"),
        case(row(1, ""), "RowLength", 3, "0 cells"),
        case(MAZE.replace("4 3", "4.0 3"), "BadNumber", 1, "4.0"),
        case(row(0, "0x00"), "UnknownCell", 2, "column 2"),
    ];
    check("maze", &cases, read_maze);
}

const PROBLEMS: &str = "start_x,start_y,goal_x,goal_y,length\n0,0,3,4,5\n";

#[test]
fn problem_reader_rejects_malformed_input() {
    assert_eq!(read_problems(PROBLEMS).unwrap().len(), 1);
    let cases = [
        case("sx,sy,gx,gy,len\n", "BadHeader", 1, "sx,sy"),
        case("start_x,start_y,goal_x,goal_y\n", "BadHeader", 1, "header"),
        case("0,0,3,4\n", "FieldCount", 1, "found 4"),
        case("0,0,3,4,5,6\n", "FieldCount", 1, "found 6"),
        case("0,0,3,x,5\n", "BadNumber", 1, "column 7: goal_y `x`"),
        case("0,0,3,4,NaN\n", "BadNumber", 1, "length"),
        case("inf,0,3,4,5\n", "BadNumber", 1, "start_x"),
        case("0,0,3,4,-5\n", "BadNumber", 1, "non-negative"),
        case("0;0;3;4;5\n", "BadHeader", 1, "0;0"),
        case(format!("{PROBLEMS}0,0,3,4\n"), "FieldCount", 3, "found 4"),
        case("0,0,,4,5\n", "BadNumber", 1, "goal_x"),
        case("0 0 3 4 5\n", "BadHeader", 1, "0 0 3"),
        case(
            "start_x,start_y,goal_x,goal_y,length\nstart_x,start_y,goal_x,goal_y,length\n",
            "BadNumber",
            2,
            "start_x",
        ),
        case("1e999,0,3,4,5\n", "BadNumber", 1, "finite"),
        case("0,0,3,4,5\n0,0,3,4,5,\n", "FieldCount", 2, "found 6"),
        case("0x10,0,3,4,5\n", "BadHeader", 1, "0x10"),
        case("0,0,3,4,5\n0,0,3", "FieldCount", 2, "found 3"),
        case("\0,0,3,4,5\n", "BadHeader", 1, "header"),
        case("0,0,3,4,1.2.3\n", "BadNumber", 1, "1.2.3"),
        case("0,0,3,4,-inf\n", "BadNumber", 1, "length"),
        case("\n\n0,0,3,4, nan \n", "BadNumber", 3, "nan"),
        case("0,0,3,4,5\n\n\n0,y,3,4,5\n", "BadNumber", 4, "start_y"),
    ];
    check("problems", &cases, read_problems);
}

const MESH: &str = "mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n\
                    3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

#[test]
fn mesh_reader_rejects_malformed_input() {
    read_mesh(MESH).unwrap();
    let line = |l: usize, s: &str| {
        let mut lines: Vec<&str> = MESH.lines().collect();
        lines[l - 1] = s;
        lines.join("\n") + "\n"
    };
    let cases = [
        case("", "Truncated", 1, "header"),
        case(MESH.replace("mesh", "mash"), "BadHeader", 1, "mash"),
        case("mesh\n1\n", "UnsupportedVersion", 2, "`1`"),
        case("mesh\n2\n", "Truncated", 2, "vertex count"),
        case("mesh\n2\n4\n", "Truncated", 3, "polygon count"),
        case(line(3, "-4 2"), "BadNumber", 3, "count"),
        case(line(4, "abc 0 2 0 -1"), "BadNumber", 4, "abc"),
        case(line(4, "nan 0 2 0 -1"), "BadNumber", 4, "finite coordinate"),
        case(line(4, "0 inf 2 0 -1"), "BadNumber", 4, "finite"),
        case(
            line(4, "0 0 2 0 5"),
            "IndexOutOfRange",
            4,
            "polygon index 5",
        ),
        case(line(4, "0 0 2 0 -2"), "IndexOutOfRange", 4, "-2"),
        case(
            line(8, "3 0 1 4 -1 -1 1"),
            "IndexOutOfRange",
            8,
            "vertex index 4",
        ),
        case(
            line(8, "3 0 1 -1 -1 -1 1"),
            "IndexOutOfRange",
            8,
            "vertex index -1",
        ),
        case(
            line(9, "3 1 2 3 0 -1 2"),
            "IndexOutOfRange",
            9,
            "polygon index 2",
        ),
        case(line(9, "2 1 2 -1 -1"), "TooFewVertices", 9, "2 vertices"),
        case(
            line(9, "3 1 3 2 -1 -1 0"),
            "NotCounterClockwise",
            9,
            "counter-clockwise",
        ),
        case(format!("{MESH}7\n"), "TrailingData", 10, "`7`"),
        case(&MESH[..MESH.len() - 8], "Truncated", 9, "polygon 1 of 2"),
        case(
            line(8, "3 0 0 3 -1 -1 1"),
            "DegenerateEdge",
            8,
            "zero-length",
        ),
        case(
            line(8, "3 0 1 3 -1 -1 -1"),
            "InconsistentNeighbour",
            8,
            "edge 1 → 3",
        ),
        case(
            MESH.replace("4 2\n", "4 3\n")
                .replace("2 3 0 -1 -1\n", "2 3 0 -1 -1\n3 1 2 3 0 -1 -1\n"),
            "DuplicateEdge",
            10,
            "repeats the edge",
        ),
        case(
            "mesh 2 4 1  0 0 1 0  2 0 1 0  1 0.5 1 0  1 2 1 0  4 0 1 2 3 -1 -1 -1 -1",
            "NotConvex",
            1,
            "not convex",
        ),
        case(
            MESH.replace("mesh\n2", "mesh\n2.0"),
            "UnsupportedVersion",
            2,
            "2.0",
        ),
        case(line(3, "4.0 2"), "BadNumber", 3, "4.0"),
        case(line(5, "1.5 0 3 0 1"), "BadNumber", 6, "1.5"),
        case(line(9, "3 1 2 3 0 -1 -1 x"), "TrailingData", 9, "`x`"),
    ];
    check("mesh", &cases, read_mesh);
    // A mesh without polygons reads, but has no boundary to become an environment.
    let empty = read_mesh("mesh 2 0 0").unwrap();
    let err = empty.to_environment().unwrap_err();
    assert!(matches!(err, corridor_io::MeshError::NoBoundary), "{err}");
}

const JSON: &str = r#"{
  "version": 1,
  "boundary": [[0, 0], [10, 0], [10, 10], [0, 10]],
  "obstacles": [
    {"id": 0, "polygon": [[2, 2], [4, 2], [4, 4]]},
    {"id": 1, "polyline": [[5, 5], [6, 6]]},
    {"id": 2, "point": [7, 7]}
  ]
}"#;

#[test]
fn json_reader_rejects_malformed_input() {
    read_json(JSON).unwrap();
    let line = |l: usize, s: &str| {
        let mut lines: Vec<&str> = JSON.lines().collect();
        lines[l - 1] = s;
        lines.join("\n")
    };
    let cases = [
        case("", "Truncated", 1, "ended"),
        case(&JSON[..100], "Truncated", 5, "ended"),
        case(
            JSON.replace("\"version\": 1,", "\"version\": 1"),
            "Syntax",
            3,
            "expected",
        ),
        case(
            JSON.replace("\"version\": 1", "\"version\": 2"),
            "UnsupportedVersion",
            2,
            "version 2",
        ),
        case(
            JSON.replace("\"version\": 1", "\"version\": \"1\""),
            "UnsupportedVersion",
            2,
            "\"1\"",
        ),
        case(
            JSON.replace("\"version\": 1,", ""),
            "Schema",
            9,
            "missing field `version`",
        ),
        case(
            JSON.replace("\"obstacles\"", "\"obstacle\""),
            "Schema",
            4,
            "unknown field `obstacle`",
        ),
        case(
            JSON.replace("[10, 0]", "[10, 0, 0]"),
            "Schema",
            3,
            "exactly 2 coordinates",
        ),
        case(
            JSON.replace("[10, 0]", "[10]"),
            "Schema",
            3,
            "exactly 2 coordinates",
        ),
        case(
            JSON.replace("[10, 0]", "[10, \"x\"]"),
            "Schema",
            3,
            "invalid type",
        ),
        case(
            JSON.replace("[10, 0]", "[1e999, 0]"),
            "Syntax",
            3,
            "out of range",
        ),
        case(
            JSON.replace("[10, 0]", "[NaN, 0]"),
            "Syntax",
            3,
            "expected value",
        ),
        case(
            line(
                5,
                "    {\"id\": 0, \"polygon\": [[2, 2], [4, 2], [4, 4]], \"point\": [1, 1]},",
            ),
            "BadObstacle",
            5,
            "more than one",
        ),
        case(
            line(5, "    {\"id\": 0},"),
            "BadObstacle",
            5,
            "needs one of",
        ),
        case(
            line(
                6,
                "    {\"id\": 1, \"polyline\": [[5, 5], [6, 6]], \"holes\": []},",
            ),
            "BadObstacle",
            6,
            "holes",
        ),
        case(
            JSON.replace("\"id\": 1", "\"id\": 0"),
            "DuplicateId",
            6,
            "first on line 5",
        ),
        case(
            JSON.replace("\"id\": 0", "\"id\": -1"),
            "Schema",
            5,
            "invalid value",
        ),
        case(
            JSON.replace("\"id\": 0", "\"id\": 4294967295"),
            "ReservedId",
            5,
            "reserved",
        ),
        case(
            JSON.replace("\"id\": 0", "\"id\": 1.5"),
            "Schema",
            5,
            "invalid type",
        ),
        case(
            JSON.replace("\"version\": 1,", "\"version\": 1, \"next_id\": 2,"),
            "NextIdTooSmall",
            2,
            "next_id 2",
        ),
        case(
            JSON.replace("\"version\": 1,", "\"version\": 1, \"snap_scale\": 0,"),
            "BadSnapScale",
            2,
            "snap_scale 0",
        ),
        case(
            JSON.replace("\"version\": 1,", "\"version\": 1,\n\"snap_scale\": -1,"),
            "BadSnapScale",
            3,
            "-1",
        ),
        case(
            JSON.replace(
                "[[2, 2], [4, 2], [4, 4]]",
                "[[2, 2], [4, 4], [4, 2], [2, 4]]",
            ),
            "Invalid",
            5,
            "intersects itself",
        ),
        case(
            JSON.replace("[[2, 2], [4, 2], [4, 4]]", "[[2, 2], [4, 2]]"),
            "Invalid",
            5,
            "distinct vertices",
        ),
        case(
            JSON.replace("[[5, 5], [6, 6]]", "[[5, 5]]"),
            "Invalid",
            6,
            "at least 2 points",
        ),
        case(
            JSON.replace("[7, 7]", "[70, 7]"),
            "Invalid",
            7,
            "outside the boundary",
        ),
        case(
            JSON.replace(
                "[[0, 0], [10, 0], [10, 10], [0, 10]]",
                "[[0, 0], [10, 10], [10, 0], [0, 10]]",
            ),
            "Invalid",
            3,
            "boundary",
        ),
        case(
            JSON.replace(
                "\"polygon\": [[2, 2], [4, 2], [4, 4]]",
                "\"polygon\": [[2, 2], [4, 2], [4, 4]], \"holes\": [[[5, 5], [6, 5], [6, 6]]]",
            ),
            "Invalid",
            5,
            "hole 1",
        ),
        case(
            JSON.replace("[7, 7]", "[7, 1e300]"),
            "Invalid",
            7,
            "snap range",
        ),
        case("[1, 2]", "Schema", 1, "invalid type"),
        case(format!("{JSON} x"), "Syntax", 9, "trailing characters"),
        case(JSON.replace("\"id\": 2, ", ""), "Invalid", 7, "outside")
            .input_with(|s| s.replace("[7, 7]", "[-7, 7]")),
    ];
    check("json", &cases, read_json);
}

impl Case {
    fn input_with(mut self, f: impl Fn(&str) -> String) -> Self {
        self.input = f(&self.input);
        self
    }
}

const GEOJSON: &str = r#"{"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"role": "boundary"},
   "geometry": {"type": "Polygon", "coordinates": [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}},
  {"type": "Feature", "properties": {"id": 5},
   "geometry": {"type": "Polygon", "coordinates": [[[2,2],[4,2],[4,4],[2,2]]]}},
  {"type": "Feature", "properties": {},
   "geometry": {"type": "LineString", "coordinates": [[5,5],[6,6]]}}
]}"#;

#[test]
fn geojson_reader_rejects_malformed_input() {
    read_geojson(GEOJSON).unwrap();
    let third = |geometry: &str| {
        GEOJSON.replace(
            r#"{"type": "LineString", "coordinates": [[5,5],[6,6]]}"#,
            geometry,
        )
    };
    let cases = [
        case("", "Truncated", 1, "ended"),
        case("{", "Truncated", 1, "ended"),
        case(
            GEOJSON.replacen("FeatureCollection", "Feature", 1),
            "NotFeatureCollection",
            0,
            "`Feature`",
        ),
        case(r#"{"type": "FeatureCollection"}"#, "Schema", 1, "features"),
        case(
            third(r#"{"type": "GeometryCollection", "geometries": []}"#),
            "UnsupportedGeometry",
            6,
            "feature 2: GeometryCollection",
        ),
        case(third("null"), "MissingGeometry", 6, "no geometry"),
        case(
            third(r#"{"type": "LineString", "coordinates": [[5,5,1],[6,6,1]]}"#),
            "BadPosition",
            6,
            "3 coordinates",
        ),
        case(
            GEOJSON.replace("\"id\": 5", "\"id\": \"abc\""),
            "BadId",
            4,
            "must be a number",
        ),
        case(
            GEOJSON.replace("\"id\": 5", "\"id\": -1"),
            "BadId",
            4,
            "whole number",
        ),
        case(
            GEOJSON.replace("\"id\": 5", "\"id\": 1.5"),
            "BadId",
            4,
            "whole number",
        ),
        case(
            GEOJSON.replace("\"id\": 5", "\"id\": 4294967295"),
            "BadId",
            4,
            "4294967295",
        ),
        case(
            GEOJSON.replace("\"properties\": {},", "\"properties\": {\"id\": 5},"),
            "DuplicateId",
            6,
            "feature 1",
        ),
        case(
            GEOJSON.replace(
                "\"properties\": {},",
                "\"properties\": {\"role\": \"wall\"},",
            ),
            "UnknownRole",
            6,
            "wall",
        ),
        case(
            GEOJSON.replace(
                "\"properties\": {\"id\": 5}",
                "\"properties\": {\"role\": \"boundary\"}",
            ),
            "DuplicateBoundary",
            4,
            "second boundary",
        ),
        case(
            third(r#"{"type": "LineString", "coordinates": [[5,5],[6,6]]}"#).replace(
                "\"properties\": {},",
                "\"properties\": {\"role\": \"boundary\"},",
            ),
            "DuplicateBoundary",
            6,
            "feature 0",
        ),
        case(
            GEOJSON.replacen(
                r#"{"type": "Polygon", "coordinates": [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}"#,
                r#"{"type": "LineString", "coordinates": [[0,0],[10,0]]}"#,
                1,
            ),
            "UnsupportedGeometry",
            2,
            "as the boundary",
        ),
        case(
            third(r#"{"type": "MultiPoint", "coordinates": []}"#),
            "EmptyGeometry",
            6,
            "empty",
        ),
        case(
            GEOJSON.replace(
                r#"{"type": "Polygon", "coordinates": [[[2,2],[4,2],[4,4],[2,2]]]}"#,
                r#"{"type": "MultiPoint", "coordinates": [[1,1],[2,2]]}"#,
            ),
            "BadId",
            4,
            "several obstacles",
        ),
        case(
            GEOJSON.replace(
                "[[2,2],[4,2],[4,4],[2,2]]",
                "[[2,2],[4,4],[4,2],[2,4],[2,2]]",
            ),
            "Invalid",
            4,
            "feature 1: obstacle #5: ring 0 intersects itself",
        ),
        case(
            third(r#"{"type": "LineString", "coordinates": [[5,5]]}"#),
            "Invalid",
            6,
            "at least 2 points",
        ),
        case(
            third(r#"{"type": "Polygon", "coordinates": []}"#),
            "EmptyGeometry",
            6,
            "Polygon",
        ),
        case(
            third(r#"{"type": "Point", "coordinates": [50, 50]}"#),
            "Invalid",
            6,
            "outside the boundary",
        ),
        case(
            r#"{"type": "FeatureCollection", "features": []}"#,
            "Empty",
            0,
            "no boundary",
        ),
        case(
            GEOJSON.replacen("\"type\": \"Feature\",", "\"type\": \"Geometry\",", 1),
            "Schema",
            2,
            "Feature",
        ),
        case(
            GEOJSON.replace("[5,5],[6,6]", "[5,5],[6,6]]"),
            "Syntax",
            7,
            "expected",
        ),
        case(
            third(r#"{"type": "Point", "coordinates": ["5", 5]}"#),
            "Schema",
            7,
            "invalid type",
        ),
        case(
            GEOJSON.replace(
                "{\"role\": \"boundary\"}",
                "{\"role\": \"boundary\", \"id\": 3}",
            ),
            "BadId",
            2,
            "boundary",
        ),
    ];
    check("geojson", &cases, read_geojson);
}
