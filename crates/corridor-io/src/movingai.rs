//! Moving AI grid benchmarks: `.map` files and their `.scen` scenarios
//! (Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012).

use crate::grid::{check_size, check_trailing, parse_side, CellGrid, GridError, PinchRule};
use crate::text::{excerpt, fields, last_line, numbered_lines};
use corridor_geom::{Environment, Point};

/// Passable cells of a `.map`.
const PASSABLE: &[char] = &['.', 'G', 'S'];
/// Blocked cells of a `.map` (trees and water block).
const BLOCKED: &[char] = &['@', 'O', 'T', 'W'];
const CELLS: &str = "one of . G S @ O T W";

/// Reads a Moving AI `.map` into a [`CellGrid`].
///
/// The header is `type octile`, `height H`, `width W` (in any order, blank lines
/// allowed) and then `map`; then come exactly `H` rows of `W` characters. Passable: `.`
/// `G` `S`; blocked: `@` `O` `T` `W`; anything else is an error naming its line and
/// column. Row `y` of the file is `y` in the grid (not flipped: `y` grows downward).
///
/// ```
/// let text = "type octile\nheight 2\nwidth 3\nmap\n.@.\n..T\n";
/// let grid = corridor_io::read_map(text).unwrap();
/// assert_eq!((grid.width(), grid.height()), (3, 2));
/// assert!(grid.is_blocked(1, 0) && grid.is_blocked(2, 1));
/// let env = grid.to_environment();
/// env.validate().unwrap();
///
/// let err = corridor_io::read_map("type octile\nheight 1\nwidth 2\nmap\n.x\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 5, column 2: unknown cell `x` (expected one of . G S @ O T W)");
/// ```
pub fn read_map(text: &str) -> Result<CellGrid, GridError> {
    let mut lines = numbered_lines(text);
    let mut kind_seen = false;
    let mut height: Option<(u64, usize)> = None;
    let mut width: Option<(u64, usize)> = None;
    let map_line = loop {
        let Some((line, content)) = lines.next() else {
            return Err(GridError::Truncated {
                line: last_line(text),
                expected: "the `map` line that ends the header".into(),
            });
        };
        let f = fields(content);
        let Some(&(column, key)) = f.first() else {
            continue;
        };
        let value = f.get(1).copied();
        if f.len() > 2 {
            let (column, extra) = f[2];
            return Err(GridError::BadHeader {
                line,
                column,
                expected: "the end of the header line",
                found: excerpt(extra),
            });
        }
        let missing_value = |what: &'static str| GridError::BadHeader {
            line,
            column: column + key.len(),
            expected: what,
            found: String::new(),
        };
        match key {
            "map" => {
                if let Some((column, v)) = value {
                    return Err(GridError::BadHeader {
                        line,
                        column,
                        expected: "nothing after `map`",
                        found: excerpt(v),
                    });
                }
                break line;
            }
            "type" => {
                if kind_seen {
                    return Err(GridError::DuplicateHeader {
                        line,
                        key: key.into(),
                    });
                }
                kind_seen = true;
                let (column, v) = value.ok_or_else(|| missing_value("a map type"))?;
                if v != "octile" {
                    return Err(GridError::UnsupportedType {
                        line,
                        column,
                        found: excerpt(v),
                    });
                }
            }
            "height" | "width" => {
                let slot = if key == "height" {
                    &mut height
                } else {
                    &mut width
                };
                if slot.is_some() {
                    return Err(GridError::DuplicateHeader {
                        line,
                        key: key.into(),
                    });
                }
                let what = if key == "height" { "height" } else { "width" };
                let (column, v) = value.ok_or_else(|| missing_value("a number"))?;
                *slot = Some((parse_side(v, line, column, what)?, line));
            }
            other => {
                return Err(GridError::BadHeader {
                    line,
                    column,
                    expected: "`type`, `height`, `width` or `map`",
                    found: excerpt(other),
                })
            }
        }
    };
    let missing = |expected| GridError::BadHeader {
        line: map_line,
        column: 1,
        expected,
        found: "map".into(),
    };
    if !kind_seen {
        return Err(missing("a `type octile` line before `map`"));
    }
    let (h, h_line) = height.ok_or_else(|| missing("a `height` line before `map`"))?;
    let (w, w_line) = width.ok_or_else(|| missing("a `width` line before `map`"))?;
    let (width, height) = check_size(w, h, h_line.max(w_line))?;
    read_rows(text, &mut lines, width, height, |c| {
        if PASSABLE.contains(&c) {
            Some(false)
        } else if BLOCKED.contains(&c) {
            Some(true)
        } else {
            None
        }
    })
}

/// Reads `height` rows of `width` characters, one cell per character.
fn read_rows<'a>(
    text: &str,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    width: u32,
    height: u32,
    cell: impl Fn(char) -> Option<bool>,
) -> Result<CellGrid, GridError> {
    let mut cells = Vec::new();
    for row in 0..height {
        let Some((line, content)) = lines.next() else {
            return Err(GridError::Truncated {
                line: last_line(text),
                expected: format!("row {row} of {height}"),
            });
        };
        let mut found = 0usize;
        for (i, (byte, c)) in content.char_indices().enumerate() {
            match cell(c) {
                Some(b) if i < width as usize => cells.push(b),
                Some(_) => {}
                None => {
                    return Err(GridError::UnknownCell {
                        line,
                        column: byte + 1,
                        found: c.to_string(),
                        expected: CELLS,
                    })
                }
            }
            found += 1;
        }
        if found != width as usize {
            return Err(GridError::RowLength {
                line,
                row,
                expected: width,
                found,
            });
        }
    }
    check_trailing(lines)?;
    Ok(CellGrid::from_cells(width, height, cells).expect("one cell per column and row"))
}

/// Reads a `.map` straight into an [`Environment`] (see [`CellGrid::to_environment`]).
pub fn read_map_environment(text: &str) -> Result<Environment, GridError> {
    Ok(read_map(text)?.to_environment())
}

/// Reads a `.map` into an [`Environment`] under a [`PinchRule`] (Moving AI's own rule is
/// [`PinchRule::Closed`], the default; see [`CellGrid::to_environment_with`]).
///
/// ```
/// use corridor_io::{read_map_environment_with, PinchRule};
/// let text = "type octile\nheight 2\nwidth 2\nmap\n@.\n.@\n";
/// let open = read_map_environment_with(text, PinchRule::Open).unwrap();
/// assert!(open.obstacles().all(|(_, o)| o.points().count() == 5));
/// ```
pub fn read_map_environment_with(text: &str, rule: PinchRule) -> Result<Environment, GridError> {
    Ok(read_map(text)?.to_environment_with(rule))
}

/// One Moving AI scenario: a start and a goal cell on a map with the octile optimum.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Difficulty bucket.
    pub bucket: u32,
    /// The map's path as stored in the file (match maps by file name only).
    pub map: String,
    /// Map width the scenario was made for.
    pub map_width: u32,
    /// Map height the scenario was made for.
    pub map_height: u32,
    /// Start cell `(x, y)`.
    pub start: (u32, u32),
    /// Goal cell `(x, y)`.
    pub goal: (u32, u32),
    /// Octile optimal length (8 moves, diagonal √2, no corner cutting): an upper bound
    /// for any-angle paths between the same cell centres.
    pub optimal_length: f64,
}

impl Scenario {
    /// The centre of cell `(x, y)`: `(x + 0.5, y + 0.5)`.
    pub fn cell_centre((x, y): (u32, u32)) -> Point {
        Point::new(x as f64 + 0.5, y as f64 + 0.5)
    }

    /// The start in continuous space: the centre of the start cell.
    pub fn start_point(&self) -> Point {
        Self::cell_centre(self.start)
    }

    /// The goal in continuous space: the centre of the goal cell.
    pub fn goal_point(&self) -> Point {
        Self::cell_centre(self.goal)
    }
}

/// What is wrong with a `.scen` file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The first non-blank line is not `version …`.
    #[error("line {line}: expected `version 1`, found `{found}`")]
    MissingVersion {
        /// Line.
        line: usize,
        /// What was found.
        found: String,
    },
    /// A version other than 1.
    #[error(
        "line {line}, column {column}: unsupported scenario version `{found}`, only 1 is known"
    )]
    UnsupportedVersion {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The version found.
        found: String,
    },
    /// A row without exactly 9 fields.
    #[error("line {line}: expected 9 fields (bucket map width height start_x start_y goal_x goal_y optimal_length), found {found}")]
    FieldCount {
        /// Line.
        line: usize,
        /// Fields found.
        found: usize,
    },
    /// A field that is not a number of the right kind.
    #[error("line {line}, column {column}: {field} `{found}` is not {expected}")]
    BadNumber {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// Field name.
        field: &'static str,
        /// What was found.
        found: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A start or goal outside the map size the row states.
    #[error("line {line}, column {column}: {field} = {value} lies outside the map (size {limit})")]
    OutsideMap {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// Field name.
        field: &'static str,
        /// The coordinate.
        value: u32,
        /// The map width or height.
        limit: u32,
    },
}

const SCEN_FIELDS: [&str; 9] = [
    "bucket",
    "map",
    "width",
    "height",
    "start_x",
    "start_y",
    "goal_x",
    "goal_y",
    "optimal_length",
];

/// Reads a Moving AI `.scen` file: `version 1` (or `version 1.0`), then one scenario a
/// line, `bucket map width height start_x start_y goal_x goal_y optimal_length`,
/// separated by tabs or spaces (so map names cannot contain spaces). Blank lines are
/// skipped. Start and goal must lie within the stated width and height; the length
/// must be finite and non-negative.
///
/// ```
/// let text = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n";
/// let scenarios = corridor_io::read_scenarios(text).unwrap();
/// assert_eq!(scenarios[0].start, (1, 11));
/// assert_eq!(scenarios[0].start_point(), corridor_geom::Point::new(1.5, 11.5));
/// ```
pub fn read_scenarios(text: &str) -> Result<Vec<Scenario>, ScenarioError> {
    let mut lines = numbered_lines(text).filter(|(_, l)| !l.trim().is_empty());
    let Some((line, header)) = lines.next() else {
        return Err(ScenarioError::MissingVersion {
            line: last_line(text),
            found: String::new(),
        });
    };
    let f = fields(header);
    if f.len() != 2 || f[0].1 != "version" {
        return Err(ScenarioError::MissingVersion {
            line,
            found: excerpt(header.trim()),
        });
    }
    let (column, version) = f[1];
    if version.parse::<f64>() != Ok(1.0) {
        return Err(ScenarioError::UnsupportedVersion {
            line,
            column,
            found: excerpt(version),
        });
    }
    let mut out = Vec::new();
    for (line, content) in lines {
        let f = fields(content);
        if f.len() != 9 {
            return Err(ScenarioError::FieldCount {
                line,
                found: f.len(),
            });
        }
        let int = |k: usize| -> Result<u32, ScenarioError> {
            let (column, s) = f[k];
            s.parse::<u32>().map_err(|_| ScenarioError::BadNumber {
                line,
                column,
                field: SCEN_FIELDS[k],
                found: excerpt(s),
                expected: "a non-negative integer",
            })
        };
        let bucket = int(0)?;
        let (map_width, map_height) = (int(2)?, int(3)?);
        let start = (int(4)?, int(5)?);
        let goal = (int(6)?, int(7)?);
        for (k, value, limit) in [
            (4, start.0, map_width),
            (5, start.1, map_height),
            (6, goal.0, map_width),
            (7, goal.1, map_height),
        ] {
            if value >= limit {
                return Err(ScenarioError::OutsideMap {
                    line,
                    column: f[k].0,
                    field: SCEN_FIELDS[k],
                    value,
                    limit,
                });
            }
        }
        let (column, s) = f[8];
        let optimal_length = match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => v,
            _ => {
                return Err(ScenarioError::BadNumber {
                    line,
                    column,
                    field: "optimal_length",
                    found: excerpt(s),
                    expected: "a finite non-negative number",
                })
            }
        };
        out.push(Scenario {
            bucket,
            map: f[1].1.to_string(),
            map_width,
            map_height,
            start,
            goal,
            optimal_length,
        });
    }
    Ok(out)
}
