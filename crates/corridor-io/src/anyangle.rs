//! Any-angle pathfinding mazes (`maze.txt`, from Oh Shunhao's Any-Angle-Pathfinding
//! project) and the problem lists that go with them.

use crate::grid::{check_size, check_trailing, parse_side, CellGrid, GridError, PinchRule};
use crate::text::{excerpt, fields, last_line, numbered_lines};
use corridor_geom::{Environment, Point};

const CELLS: &str = "0 (free) or 1 (blocked)";

/// Reads an any-angle `maze.txt`: a first line `W H`, then `H` rows of `W` values, `1`
/// for a blocked cell and `0` for a free one. Values may be separated by spaces or tabs
/// (as in the published files) or written without separators (`0110`); each row is read
/// one way or the other. Blank lines after the last row are allowed.
///
/// The value in row `y`, column `x` is cell `(x, y)`, covering `[x, x + 1] × [y, y + 1]`.
/// This orientation is the one under which every start and goal of the published
/// `problems.csv` files (grid vertices) touches a free cell; the transposed reading
/// fails for 2 832 of their 8 204 endpoints.
///
/// ```
/// let grid = corridor_io::read_maze("3 2\n0 1 0\n0 0 1\n").unwrap();
/// assert!(grid.is_blocked(1, 0) && grid.is_blocked(2, 1));
/// assert_eq!(grid, corridor_io::read_maze("3 2\n010\n001\n").unwrap());
/// let err = corridor_io::read_maze("3 2\n0 1 0\n0 2 1\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 3, column 3: unknown cell `2` (expected 0 (free) or 1 (blocked))");
/// ```
pub fn read_maze(text: &str) -> Result<CellGrid, GridError> {
    let mut lines = numbered_lines(text);
    let Some((line, header)) = lines.next() else {
        return Err(GridError::Truncated {
            line: 1,
            expected: "the `W H` line".into(),
        });
    };
    let f = fields(header);
    if f.len() != 2 {
        let (column, found) = match f.get(2) {
            Some(&(c, s)) => (c, excerpt(s)),
            None => (header.len() + 1, String::new()),
        };
        return Err(GridError::BadHeader {
            line,
            column,
            expected: "two numbers `W H`",
            found,
        });
    }
    let w = parse_side(f[0].1, line, f[0].0, "width")?;
    let h = parse_side(f[1].1, line, f[1].0, "height")?;
    let (width, height) = check_size(w, h, line)?;
    let mut cells = Vec::new();
    for row in 0..height {
        let Some((line, content)) = lines.next() else {
            return Err(GridError::Truncated {
                line: last_line(text),
                expected: format!("row {row} of {height}"),
            });
        };
        let separated = content.trim().contains(|c: char| c.is_ascii_whitespace());
        let values: Vec<(usize, &str)> = if separated {
            fields(content)
        } else {
            content
                .char_indices()
                .map(|(i, c)| (i + 1, &content[i..i + c.len_utf8()]))
                .filter(|(_, s)| !s.trim().is_empty())
                .collect()
        };
        for &(column, v) in &values {
            let blocked = match v {
                "0" => false,
                "1" => true,
                _ => {
                    return Err(GridError::UnknownCell {
                        line,
                        column,
                        found: excerpt(v),
                        expected: CELLS,
                    })
                }
            };
            if cells.len() < (row as usize + 1) * width as usize {
                cells.push(blocked);
            }
        }
        if values.len() != width as usize {
            return Err(GridError::RowLength {
                line,
                row,
                expected: width,
                found: values.len(),
            });
        }
    }
    check_trailing(lines)?;
    Ok(CellGrid::from_cells(width, height, cells).expect("one cell per column and row"))
}

/// Reads a `maze.txt` straight into an [`Environment`] (see [`CellGrid::to_environment`]).
pub fn read_maze_environment(text: &str) -> Result<Environment, GridError> {
    Ok(read_maze(text)?.to_environment())
}

/// Reads a `maze.txt` into an [`Environment`] under a [`PinchRule`]: the suite's own
/// lengths count diagonal pinches as passable ([`PinchRule::Open`]); see
/// [`CellGrid::to_environment_with`].
pub fn read_maze_environment_with(text: &str, rule: PinchRule) -> Result<Environment, GridError> {
    Ok(read_maze(text)?.to_environment_with(rule))
}

/// A start, a goal and the length of the shortest path between them.
///
/// Used for any-angle `problems.csv` (start and goal are grid vertices, the length is
/// Euclidean) and Polyanya's `aurora-euclidean.csv` (mesh coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    /// Start.
    pub start: Point,
    /// Goal.
    pub goal: Point,
    /// Length of the shortest path.
    pub length: f64,
}

/// What is wrong with a problem list.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProblemError {
    /// A first line that is neither data nor the expected header.
    #[error("line {line}: expected the header `start_x,start_y,goal_x,goal_y,length` or a problem, found `{found}`")]
    BadHeader {
        /// Line.
        line: usize,
        /// What was found.
        found: String,
    },
    /// A row without exactly 5 comma-separated fields.
    #[error("line {line}: expected 5 comma-separated fields, found {found}")]
    FieldCount {
        /// Line.
        line: usize,
        /// Fields found.
        found: usize,
    },
    /// A field that is not a finite number (or a negative length).
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
}

const PROBLEM_FIELDS: [&str; 5] = ["start_x", "start_y", "goal_x", "goal_y", "length"];

/// Reads a problem list: an optional header `start_x,start_y,goal_x,goal_y,length`, then
/// one problem a line with those five comma-separated numbers (spaces around them are
/// allowed). Blank lines are skipped. Coordinates must be finite and the length finite
/// and non-negative.
///
/// ```
/// let text = "start_x,start_y,goal_x,goal_y,length\n0,0,3,4,5.0\n";
/// let problems = corridor_io::read_problems(text).unwrap();
/// assert_eq!(problems[0].goal, corridor_geom::Point::new(3.0, 4.0));
/// assert_eq!(problems[0].length, 5.0);
/// ```
pub fn read_problems(text: &str) -> Result<Vec<Problem>, ProblemError> {
    let mut out = Vec::new();
    let mut first = true;
    for (line, content) in numbered_lines(text) {
        if content.trim().is_empty() {
            continue;
        }
        let parts: Vec<(usize, &str)> = split_commas(content);
        if std::mem::take(&mut first) && parts[0].1.parse::<f64>().is_err() {
            let names: Vec<&str> = parts.iter().map(|p| p.1).collect();
            if names != PROBLEM_FIELDS {
                return Err(ProblemError::BadHeader {
                    line,
                    found: excerpt(content.trim()),
                });
            }
            continue;
        }
        if parts.len() != 5 {
            return Err(ProblemError::FieldCount {
                line,
                found: parts.len(),
            });
        }
        let mut v = [0.0; 5];
        for (k, &(column, s)) in parts.iter().enumerate() {
            v[k] = match s.parse::<f64>() {
                Ok(x) if x.is_finite() && (k < 4 || x >= 0.0) => x,
                _ => {
                    return Err(ProblemError::BadNumber {
                        line,
                        column,
                        field: PROBLEM_FIELDS[k],
                        found: excerpt(s),
                        expected: if k < 4 {
                            "a finite number"
                        } else {
                            "a finite non-negative number"
                        },
                    })
                }
            };
        }
        out.push(Problem {
            start: Point::new(v[0], v[1]),
            goal: Point::new(v[2], v[3]),
            length: v[4],
        });
    }
    Ok(out)
}

/// Comma-separated fields, trimmed, with the 1-based column where each starts.
fn split_commas(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in line.split(',') {
        let lead = part.len() - part.trim_start().len();
        out.push((start + lead + 1, part.trim()));
        start += part.len() + 1;
    }
    out
}
