// SPDX-License-Identifier:BSL-1.0

// Boost.Polygon library detail/voronoi_structures.hpp header file

//          Copyright Andrii Sydorchuk 2010-2012.
// Distributed under the Boost Software License, Version 1.0.
//    (See accompanying file LICENSE_1_0.txt or copy at
//          http://www.boost.org/LICENSE_1_0.txt)

// See http://www.boost.org for updates, documentation, and revision history of C++ code..

// Ported from C++ boost 1.76.0 to Rust in 2020/2021 by Eadf (github.com/eadf)

//! Utilities for big integers. Supports next set of arithmetic operations: +, -, *.

use crate::cast;
use num_traits::PrimInt as InputType;
use num_traits::{One, Zero};
use std::cmp;
use std::fmt;
use std::ops;

#[cfg(test)]
mod extendedint_tests;

/// Corridor patch: the most 32-bit chunks a value can have, as C++ Boost's
/// `extended_int<64>` (`voronoi_ctype_traits<int32>`). Boost sizes it for inputs that fit
/// in 32 bits, and the port's lazy predicates (64-bit integer cross products of coordinate
/// differences) are only exact in that range too; Corridor's grid coordinates are `i32`.
/// As in C++, a product that would need more chunks keeps its lowest 64.
const CHUNKS: usize = 64;

/// Corridor patch: values of up to this many chunks live inline; the exact predicates on
/// coordinates of up to about 2^24 stay below it. Larger ones take a boxed full array.
const INLINE: usize = 24;

/// The chunks of a value, least significant first, in a buffer of fixed capacity.
#[derive(Clone)]
enum Chunks {
    Inline([u32; INLINE]),
    Heap(Box<[u32; CHUNKS]>),
}

impl Chunks {
    /// A zeroed buffer that holds at least `len` chunks (at most [`CHUNKS`]).
    #[inline(always)]
    fn zeroed(len: usize) -> Self {
        if len <= INLINE {
            Chunks::Inline([0; INLINE])
        } else {
            Chunks::Heap(Box::new([0; CHUNKS]))
        }
    }

    #[inline(always)]
    fn all(&self) -> &[u32] {
        match self {
            Chunks::Inline(a) => a,
            Chunks::Heap(b) => &b[..],
        }
    }

    #[inline(always)]
    fn all_mut(&mut self) -> &mut [u32] {
        match self {
            Chunks::Inline(a) => a,
            Chunks::Heap(b) => &mut b[..],
        }
    }
}

/// Stack allocated big integer class.
/// Supports next set of arithmetic operations: +, -, *.
/// Ported from voronoi_ctypes.hpp
///
/// Corridor patch: the chunks are a fixed buffer (see [`Chunks`]) instead of a `SmallVec`
/// that grew chunk by chunk and spilled to the heap beyond 8, and the arithmetic works on
/// slices of it with plain loops. Every operation keeps the published representation
/// exactly: the same number of chunks (`|count_|`, which a difference can leave with
/// leading zero chunks, as in C++), so `p()` and every value derived from it are
/// unchanged bit for bit.
#[derive(Clone)]
pub struct ExtendedInt {
    chunks_: Chunks,
    count_: i32,
}

impl<I: InputType> From<I> for ExtendedInt {
    #[inline]
    ///```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 41231332_f64;
    /// let a = ExtendedInt::from(aa as i32);
    /// approx::assert_ulps_eq!(a.d(), aa);
    /// ```
    fn from(that: I) -> Self {
        let that = cast::<I, i64>(that);
        let mut rv = Self::zero();
        let magnitude = that.unsigned_abs();
        if magnitude != 0 {
            let c = rv.chunks_.all_mut();
            c[0] = magnitude as u32;
            c[1] = (magnitude >> 32) as u32;
            let size = if magnitude >> 32 != 0 { 2 } else { 1 };
            rv.count_ = if that < 0 { -size } else { size };
        }
        rv
    }
}

impl One for ExtendedInt {
    #[inline]
    fn one() -> Self {
        Self::from(1_i32)
    }
}

impl Zero for ExtendedInt {
    #[inline]
    fn zero() -> Self {
        Self {
            chunks_: Chunks::Inline([0; INLINE]),
            count_: 0,
        }
    }
    #[inline]
    fn is_zero(&self) -> bool {
        // Corridor patch: the published crate left this trait method without a body
        // (a panic); the inherent method answers it.
        ExtendedInt::is_zero(self)
    }
}

impl ExtendedInt {
    /// Return the mantissa and exponent components of this integer.
    /// `value` ≈ `mantissa` * 2^`exponent`
    pub fn p(&self) -> (f64, i32) {
        let sep = 0x100000000_u64 as f64;
        let c = self.chunks();
        let mut rv = match c.len() {
            0 => return (0.0, 0),
            1 => (c[0] as f64, 0),
            2 => (c[1] as f64 * sep + c[0] as f64, 0),
            n => {
                let mut v = 0.0;
                for &chunk in c[n - 3..].iter().rev() {
                    v *= sep;
                    v += chunk as f64;
                }
                (v, ((n - 3) << 5) as i32)
            }
        };
        if self.count_ < 0 {
            rv.0 = -rv.0;
        }
        rv
    }

    #[inline(always)]
    pub fn is_pos(&self) -> bool {
        self.count_ > 0
    }

    #[inline(always)]
    pub fn is_neg(&self) -> bool {
        self.count_ < 0
    }

    #[inline(always)]
    pub fn is_zero(&self) -> bool {
        self.count_ == 0
    }

    #[inline(always)]
    /// converts to f64
    pub fn d(&self) -> f64 {
        let p = self.p();
        libm::ldexp(p.0, p.1)
    }

    #[inline(always)]
    /// return the number of words in 'self.count'
    pub fn size(&self) -> usize {
        self.count_.unsigned_abs() as usize
    }

    /// The chunks in use, least significant first.
    #[inline(always)]
    fn chunks(&self) -> &[u32] {
        &self.chunks_.all()[..self.size()]
    }

    /// `e1 + e2`.
    fn sum(e1: &Self, e2: &Self) -> Self {
        if e1.count_ == 0 {
            return e2.clone();
        }
        if e2.count_ == 0 {
            return e1.clone();
        }
        let mut rv = if (e1.count_ > 0) ^ (e2.count_ > 0) {
            Self::magnitude_difference(e1.chunks(), e2.chunks(), false)
        } else {
            Self::magnitude_sum(e1.chunks(), e2.chunks())
        };
        if e1.count_ < 0 {
            rv.count_ = -rv.count_;
        }
        rv
    }

    /// `e1 - e2`.
    fn difference(e1: &Self, e2: &Self) -> Self {
        if e1.count_ == 0 {
            let mut rv = e2.clone();
            rv.count_ = -rv.count_;
            return rv;
        }
        if e2.count_ == 0 {
            return e1.clone();
        }
        let mut rv = if (e1.count_ > 0) ^ (e2.count_ > 0) {
            Self::magnitude_sum(e1.chunks(), e2.chunks())
        } else {
            Self::magnitude_difference(e1.chunks(), e2.chunks(), false)
        };
        if e1.count_ < 0 {
            rv.count_ = -rv.count_;
        }
        rv
    }

    /// `|c1| + |c2|` with `max(len) (+ 1 on carry)` chunks, as `add_slice` in C++.
    fn magnitude_sum(c1: &[u32], c2: &[u32]) -> Self {
        let (c1, c2) = if c1.len() < c2.len() {
            (c2, c1)
        } else {
            (c1, c2)
        };
        let mut chunks = Chunks::zeroed(c1.len() + 1);
        let out = chunks.all_mut();
        let mut temp = 0_u64;
        for (i, &chunk) in c1.iter().enumerate() {
            temp += chunk as u64;
            if i < c2.len() {
                temp += c2[i] as u64;
            }
            out[i] = temp as u32;
            temp >>= 32;
        }
        let mut count = c1.len();
        if temp != 0 && count < out.len() {
            out[count] = temp as u32;
            count += 1;
        }
        ExtendedInt {
            chunks_: chunks,
            count_: count as i32,
        }
    }

    /// `|c1| - |c2|` (signed), as `dif` in C++: when the lengths differ the result keeps
    /// `len - 1` chunks plus one if its top chunk is not zero.
    fn magnitude_difference(c1: &[u32], c2: &[u32], rec: bool) -> Self {
        let (mut sz1, mut sz2) = (c1.len(), c2.len());
        if sz1 < sz2 {
            let mut rv = Self::magnitude_difference(c2, c1, true);
            rv.count_ = -rv.count_;
            return rv;
        } else if sz1 == sz2 && !rec {
            loop {
                sz1 -= 1;
                match c1[sz1].cmp(&c2[sz1]) {
                    cmp::Ordering::Less => {
                        sz1 += 1;
                        let mut rv = Self::magnitude_difference(&c2[..sz1], &c1[..sz1], true);
                        rv.count_ = -rv.count_;
                        return rv;
                    }
                    cmp::Ordering::Greater => {
                        sz1 += 1;
                        break;
                    }
                    cmp::Ordering::Equal => (),
                }
                if sz1 == 0 {
                    break;
                }
            }
            if sz1 == 0 {
                return Self::zero();
            }
            sz2 = sz1;
        }
        let mut chunks = Chunks::zeroed(sz1);
        let out = chunks.all_mut();
        let mut borrow = false;
        for i in 0..sz2 {
            let (d, b1) = c1[i].overflowing_sub(c2[i]);
            let (d, b2) = d.overflowing_sub(borrow as u32);
            out[i] = d;
            borrow = b1 || b2;
        }
        for i in sz2..sz1 {
            let (d, b) = c1[i].overflowing_sub(borrow as u32);
            out[i] = d;
            borrow = b;
        }
        let mut count = sz1 - 1;
        if out[count] != 0 {
            count += 1;
        }
        ExtendedInt {
            chunks_: chunks,
            count_: count as i32,
        }
    }

    /// `e1 * e2`, with `len1 + len2 - 1 (+ 1 on carry)` chunks as in C++.
    fn product(e1: &Self, e2: &Self) -> Self {
        if e1.count_ == 0 || e2.count_ == 0 {
            return Self::zero();
        }
        let (c1, c2) = (e1.chunks(), e2.chunks());
        let mut chunks = Chunks::zeroed(c1.len() + c2.len());
        let out = chunks.all_mut();
        for (i, &x) in c1.iter().enumerate() {
            let x = x as u64;
            let mut carry = 0_u64;
            let row = &mut out[i..];
            for (j, &y) in c2.iter().enumerate() {
                if j >= row.len() {
                    break;
                }
                let t = row[j] as u64 + x * y as u64 + carry;
                row[j] = t as u32;
                carry = t >> 32;
            }
            if c2.len() < row.len() {
                row[c2.len()] = carry as u32;
            }
        }
        let capacity = out.len();
        let mut count = (c1.len() + c2.len() - 1).min(capacity);
        if count < capacity && out[count] != 0 {
            count += 1;
        }
        let count = count as i32;
        ExtendedInt {
            chunks_: chunks,
            count_: if (e1.count_ > 0) ^ (e2.count_ > 0) {
                -count
            } else {
                count
            },
        }
    }
}

impl Default for ExtendedInt {
    fn default() -> Self {
        Self::from(0_i32)
    }
}

impl ops::Add for ExtendedInt {
    type Output = Self;
    /// Adds `self` to `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 472_f64;
    /// let bb = 147_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a+b;
    /// approx::assert_ulps_eq!(c.d(), aa+bb);
    ///```
    fn add(self, that: Self) -> Self {
        ExtendedInt::sum(&self, &that)
    }
}

impl<'b> ops::Add<&'b ExtendedInt> for &ExtendedInt {
    type Output = ExtendedInt;
    /// Adds `self` to `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 472_f64;
    /// let bb = 147_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = &a+&b;
    /// approx::assert_ulps_eq!(c.d(), aa+bb);
    ///```
    fn add(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::sum(self, that)
    }
}

impl<'b> ops::Add<&'b ExtendedInt> for ExtendedInt {
    type Output = ExtendedInt;
    /// Adds `self` to `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 472_f64;
    /// let bb = 147_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a+&b;
    /// approx::assert_ulps_eq!(c.d(), aa+bb);
    ///```
    fn add(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::sum(&self, that)
    }
}

impl ops::Sub for ExtendedInt {
    type Output = Self;
    /// Subtracts `that` from `self` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a-b;
    /// approx::assert_ulps_eq!(c.d(), aa-bb);
    ///```
    fn sub(self, that: Self) -> Self {
        ExtendedInt::difference(&self, &that)
    }
}

impl<'b> ops::Sub<&'b ExtendedInt> for &ExtendedInt {
    type Output = ExtendedInt;
    /// Subtracts `that` from `self` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = &a-&b;
    /// approx::assert_ulps_eq!(c.d(), aa-bb);
    ///```
    fn sub(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::difference(self, that)
    }
}

impl<'b> ops::Sub<&'b ExtendedInt> for ExtendedInt {
    type Output = ExtendedInt;
    /// Subtracts `that` from `self` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a-&b;
    /// approx::assert_ulps_eq!(c.d(), aa-bb);
    ///```
    fn sub(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::difference(&self, that)
    }
}

impl ops::Mul for ExtendedInt {
    type Output = Self;
    /// Multiplies `self` with `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a*b;
    /// approx::assert_ulps_eq!(c.d(), aa*bb);
    ///```
    fn mul(self, that: Self) -> Self {
        ExtendedInt::product(&self, &that)
    }
}

impl<'b> ops::Mul<&'b ExtendedInt> for &ExtendedInt {
    type Output = ExtendedInt;
    /// Multiplies `self` with `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = &a*&b;
    /// approx::assert_ulps_eq!(c.d(), aa*bb);
    ///```
    fn mul(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::product(self, that)
    }
}

impl<'b> ops::Mul<&'b ExtendedInt> for ExtendedInt {
    type Output = ExtendedInt;
    /// Multiplies `self` with `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935777381_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = ExtendedInt::from(bb as i64);
    /// let c = a*&b;
    /// approx::assert_ulps_eq!(c.d(), aa*bb);
    ///```
    fn mul(self, that: &'b ExtendedInt) -> ExtendedInt {
        ExtendedInt::product(&self, that)
    }
}

impl ops::Mul<i32> for ExtendedInt {
    type Output = ExtendedInt;
    /// Multiplies `self` with `that` returning a new object containing the result
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let bb = 759935_f64;
    /// let a = ExtendedInt::from(aa as i64);
    /// let b = bb as i32;
    /// let c = a*b;
    /// approx::assert_ulps_eq!(c.d(), aa*bb);
    ///```
    fn mul(self, that: i32) -> ExtendedInt {
        ExtendedInt::product(&self, &ExtendedInt::from(that))
    }
}

impl ops::Neg for ExtendedInt {
    type Output = Self;
    /// Negates the value of `self`
    /// ```
    /// # use corridor_voronoi::extended_scalar::extended_int::ExtendedInt;
    ///
    /// let aa = 4727377593577731_f64;
    /// let a = -ExtendedInt::from(aa as i64);
    /// approx::assert_ulps_eq!(a.d(), -aa);
    ///```
    fn neg(mut self) -> Self {
        self.count_ = -self.count_;
        self
    }
}

impl fmt::Debug for ExtendedInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.0}", self.d())
    }
}
