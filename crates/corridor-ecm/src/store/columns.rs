//! How the compact format (`CRDECM09`) writes numbers: three columns (tag bytes, LEB128
//! varints, raw little-endian `f64`s), and a coordinate coded against two reference
//! values it often equals bit for bit, or as a whole number of grid steps, or raw.
//! Every code is checked when written (the decoder's arithmetic is run on it and must
//! give the same bits), so the coding is lossless whatever the build computed.

use super::error::StoreError;

/// Tag of a coordinate equal to its first reference.
pub(super) const FIRST: u8 = 0;
/// Tag of a coordinate equal to its second reference.
pub(super) const SECOND: u8 = 1;
/// Tag of a coordinate that is a whole number of grid steps (a varint: the difference
/// from the first reference's nearest step).
pub(super) const STEPS: u8 = 2;
/// Tag of a raw `f64`.
pub(super) const RAW: u8 = 3;

/// The largest whole number of steps written as one (every integer up to it is an `f64`).
const MAX_STEPS: f64 = 9_007_199_254_740_992.0;

/// The whole number nearest `t` (ties away from zero as far as the subtraction is exact;
/// saturating, NaN gives 0): any rounding will do, since the encoder checks what the
/// decoder computes, and this one needs no call to `libm`'s `round` (measured: a tenth of
/// the coordinate decoding).
fn nearest(t: f64) -> i64 {
    let i = t as i64;
    let f = t - i as f64;
    if f >= 0.5 {
        i.wrapping_add(1)
    } else if f <= -0.5 {
        i.wrapping_sub(1)
    } else {
        i
    }
}

/// The nearest grid step of `r` (saturating; NaN gives 0: the decoder computes the same).
fn base(r: f64, scale: f64) -> i64 {
    nearest(r * scale)
}

/// The value `delta` steps from `r`'s nearest step.
fn stepped(r: f64, delta: i64, scale: f64) -> f64 {
    base(r, scale).wrapping_add(delta) as f64 / scale
}

/// The columns being written.
#[derive(Default)]
pub(super) struct Columns {
    pub(super) tags: Vec<u8>,
    pub(super) ints: Vec<u8>,
    pub(super) floats: Vec<u8>,
}

impl Columns {
    pub(super) fn tag(&mut self, t: u8) {
        self.tags.push(t);
    }

    pub(super) fn int(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.ints.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.ints.push(v as u8);
    }

    /// A signed integer, zigzag coded (small magnitudes take one byte).
    pub(super) fn signed(&mut self, v: i64) {
        self.int(((v << 1) ^ (v >> 63)) as u64);
    }

    pub(super) fn float(&mut self, v: f64) {
        self.floats.extend_from_slice(&v.to_bits().to_le_bytes());
    }

    /// Writes `v` against references `r0` and `r1` on a grid of `scale` steps per unit,
    /// returning its 2-bit tag.
    pub(super) fn coordinate(&mut self, v: f64, r0: f64, r1: f64, scale: f64) -> u8 {
        if v.to_bits() == r0.to_bits() {
            return FIRST;
        }
        if v.to_bits() == r1.to_bits() {
            return SECOND;
        }
        let t = v * scale;
        if t.abs() <= MAX_STEPS {
            let delta = nearest(t).wrapping_sub(base(r0, scale));
            if stepped(r0, delta, scale).to_bits() == v.to_bits() {
                self.signed(delta);
                return STEPS;
            }
        }
        self.float(v);
        RAW
    }
}

/// A column ran out: the payload was cut or forged.
#[cold]
fn ended() -> StoreError {
    StoreError::Decode(postcard::Error::DeserializeUnexpectedEnd)
}

/// The columns being read.
pub(super) struct Reader<'a> {
    tags: &'a [u8],
    ints: &'a [u8],
    floats: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(tags: &'a [u8], ints: &'a [u8], floats: &'a [u8]) -> Self {
        Reader { tags, ints, floats }
    }

    /// Bytes left in the three columns.
    pub(super) fn left(&self) -> usize {
        self.tags.len() + self.ints.len() + self.floats.len()
    }

    #[inline]
    pub(super) fn tag(&mut self) -> Result<u8, StoreError> {
        let (&t, rest) = self.tags.split_first().ok_or_else(ended)?;
        self.tags = rest;
        Ok(t)
    }

    /// A varint. Those of one to three bytes (nearly all: grid steps, counts, indices)
    /// are read without a loop (measured: the loop was a tenth of a load).
    #[inline]
    pub(super) fn int(&mut self) -> Result<u64, StoreError> {
        if let [b0, b1, b2, ..] = *self.ints {
            let (v0, v1, v2) = (u64::from(b0 & 0x7f), u64::from(b1 & 0x7f), u64::from(b2));
            let (v, used) = if b0 < 0x80 {
                (v0, 1)
            } else if b1 < 0x80 {
                (v0 | v1 << 7, 2)
            } else if b2 < 0x80 {
                (v0 | v1 << 7 | v2 << 14, 3)
            } else {
                return self.long_int();
            };
            self.ints = &self.ints[used..];
            return Ok(v);
        }
        self.long_int()
    }

    /// [`Reader::int`] byte by byte: a long varint, or one near the end of the column.
    #[inline(never)]
    fn long_int(&mut self) -> Result<u64, StoreError> {
        let mut v = 0u64;
        for (i, &b) in self.ints.iter().enumerate().take(10) {
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.ints = &self.ints[i + 1..];
                return Ok(v);
            }
        }
        Err(ended())
    }

    /// An integer that must fit a `usize` (a count or an index).
    #[inline]
    pub(super) fn index(&mut self) -> Result<usize, StoreError> {
        usize::try_from(self.int()?).map_err(|_| ended())
    }

    #[inline]
    pub(super) fn signed(&mut self) -> Result<i64, StoreError> {
        let v = self.int()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    #[inline]
    pub(super) fn float(&mut self) -> Result<f64, StoreError> {
        let (bytes, rest) = self.floats.split_first_chunk::<8>().ok_or_else(ended)?;
        self.floats = rest;
        Ok(f64::from_bits(u64::from_le_bytes(*bytes)))
    }

    /// Two tag bytes as a little-endian `u16` (a bending point's tag).
    #[inline]
    pub(super) fn tag_pair(&mut self) -> Result<u16, StoreError> {
        let (t, rest) = self.tags.split_first_chunk::<2>().ok_or_else(ended)?;
        self.tags = rest;
        Ok(u16::from_le_bytes(*t))
    }

    /// The coordinate [`Columns::coordinate`] wrote with tag `tag` (its low two bits).
    /// Inlined: six per bending point, most of them a copy of a reference (measured: the
    /// call was a sixth of a load).
    #[inline(always)]
    pub(super) fn coordinate(
        &mut self,
        tag: u8,
        r0: f64,
        r1: f64,
        scale: f64,
    ) -> Result<f64, StoreError> {
        Ok(match tag & 3 {
            FIRST => r0,
            SECOND => r1,
            STEPS => stepped(r0, self.signed()?, scale),
            _ => self.float()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value comes back with its bits, whichever code it took.
    #[test]
    fn coordinates_round_trip_bit_for_bit() {
        let values = [
            0.0,
            -0.0,
            1.5,
            0.1,
            1e300,
            -7.25,
            f64::NAN,
            f64::INFINITY,
            123_456.789_1,
        ];
        for scale in [1.0, 10_000.0, 3.0] {
            let mut out = Columns::default();
            let mut tags = Vec::new();
            for &v in &values {
                for &r in &values {
                    tags.push(out.coordinate(v, r, 0.5, scale));
                }
            }
            out.signed(-5);
            out.int(u64::MAX);
            let mut read = Reader::new(&out.tags, &out.ints, &out.floats);
            let mut t = tags.iter();
            for &v in &values {
                for &r in &values {
                    let back = read.coordinate(*t.next().unwrap(), r, 0.5, scale).unwrap();
                    assert_eq!(back.to_bits(), v.to_bits(), "{v} against {r}");
                }
            }
            assert_eq!(read.signed().unwrap(), -5);
            assert_eq!(read.int().unwrap(), u64::MAX);
            assert_eq!(read.left(), 0);
            assert!(read.int().is_err() && read.float().is_err() && read.tag().is_err());
        }
        assert!(tags_use_steps());
    }

    fn tags_use_steps() -> bool {
        let mut out = Columns::default();
        out.coordinate(2.5, 2.0, 2.0, 10_000.0) == STEPS && out.ints.len() == 2
    }
}
