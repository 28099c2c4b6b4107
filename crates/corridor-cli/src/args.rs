//! Values on the command line: points, radii and clearances.

use corridor_geom::Point;

/// Parses `x,y`.
pub fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("'{text}' is not x,y"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{s}' in '{text}' is not a number"))
    };
    let p = Point::new(number(x)?, number(y)?);
    if p.is_finite() {
        Ok(p)
    } else {
        Err(format!("'{text}' is not finite"))
    }
}

/// Parses a radius or clearance: a finite number, zero or more.
pub fn parse_distance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(v) => Err(format!(
            "{v} is not a distance: it must be a finite number, zero or more"
        )),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}
