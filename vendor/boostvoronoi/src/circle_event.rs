// SPDX-License-Identifier:BSL-1.0

// Boost.Polygon library detail/voronoi_structures.hpp header file

//          Copyright Andrii Sydorchuk 2010-2012.
// Distributed under the Boost Software License, Version 1.0.
//    (See accompanying file LICENSE_1_0.txt or copy at
//          http://www.boost.org/LICENSE_1_0.txt)

// See http://www.boost.org for updates, documentation, and revision history of C++ code..

// Ported from C++ boost 1.76.0 to Rust in 2020/2021 by Eadf (github.com/eadf)

use crate::beach_line as vb;
use crate::extended_scalar::extended_exp_fpt as ef;
#[cfg(feature = "console_debug")]
use crate::tln;
use crate::{BvError, GrowingVob, VobU32};
use ordered_float::OrderedFloat;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

/// Corridor patch (session 25): a circle event's handle. `seq` is the push order (the
/// old list index: it breaks ties in the queue and keys the inactive marks, so the sweep
/// is unchanged); `slot` is where the event lives in the queue's storage, a place that is
/// reused once the event is popped. A handle whose event was popped is inactive, so a
/// stale handle (the beach line keeps some) never reaches the reused slot.
#[derive(Copy, Clone)]
pub struct CircleEventIndex {
    slot: u32,
    seq: u32,
}

impl fmt::Display for CircleEventIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.seq)
    }
}

impl fmt::Debug for CircleEventIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CircleEventIndex({}@{})", self.seq, self.slot)
    }
}

/// Circle event type.
/// Occurs when the sweepline sweeps over the rightmost point of the Voronoi
/// circle (with the center at the intersection point of the bisectors).
/// Circle event is made of the two consecutive nodes in the beach line data
/// structure. In case another node was inserted during algorithm execution
/// between the given two nodes circle event becomes inactive.
/// Variables:
///   center_x_ - center x-coordinate;
///   center_y_ - center y-coordinate;
///   lower_x_ - leftmost x-coordinate;
/// NOTE: lower_y coordinate is always equal to center_y.
///
#[derive(Clone)]
pub struct CircleEvent {
    index_: Option<CircleEventIndex>, // the handle inside CircleEventQueue
    center_x_: f64,
    center_y_: f64,
    lower_x_: f64,
    beach_line_index_: Option<vb::BeachLineIndex>, //beach_line_iterator in C++
    is_site_point_: bool,
    /// Corridor patch: met after the other events of the same circle (see `Builder::defer_tied`).
    deferred_: bool,
}

impl fmt::Debug for CircleEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CE(x:{:.12},y:{:.12},lx:{:.12})",
            self.center_x_, self.center_y_, self.lower_x_,
        )
    }
}

impl PartialEq for CircleEvent {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        //tln!("eq self.idx:{:?}, other.idx:{:?}", self.index_, other.index_);
        self.center_x_ == other.center_x_
            && self.center_y_ == other.center_y_
            && self.lower_x_ == other.lower_x_
        // todo! Should self.index_ and beach_line_index be in here too?
        // todo! ulp comparison, just like vertex_equality_predicate()?
        //&& self.index_  == other.index_
        //&& self.index_  == other.index_
    }
}

impl Eq for CircleEvent {}

impl PartialOrd for CircleEvent {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CircleEvent {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        match OrderedFloat(self.lower_x_).cmp(&OrderedFloat(other.lower_x_)) {
            Ordering::Less => Ordering::Less,
            Ordering::Greater => Ordering::Greater,
            _ => match OrderedFloat(self.center_y_).cmp(&OrderedFloat(other.center_y_)) {
                Ordering::Less => Ordering::Less,
                Ordering::Greater => Ordering::Greater,
                // Corridor patch: a deferred event comes after the others of its circle.
                Ordering::Equal if self.deferred_ != other.deferred_ => {
                    self.deferred_.cmp(&other.deferred_)
                }
                Ordering::Equal => {
                    // self_lower_x_ == other_lower_x_ and self_center_y_ == other_center_y_
                    // Sort by reverse order of circle event id (highest value==youngest first)
                    // This implementation differ from C++, because i can only keep one
                    // unique circle-event in the circle-event BTreeSet
                    if let (Some(self_index), Some(other_index)) = (self.index_, other.index_) {
                        #[cfg(feature = "console_debug")]
                        println!(
                            "ce_id: {}.cmp({}) {:?}",
                            self_index.seq,
                            other_index.seq,
                            self_index.seq.cmp(&other_index.seq).reverse()
                        );
                        self_index.seq.cmp(&other_index.seq).reverse()
                    } else {
                        //todo: this should never happen, but still..
                        debug_assert!(false);
                        Ordering::Greater
                    }
                }
            },
        }
    }
}

impl CircleEvent {
    pub(crate) fn new(bech_line_index: vb::BeachLineIndex) -> CircleEvent {
        Self {
            center_x_: 0_f64,
            center_y_: 0_f64,
            lower_x_: 0_f64,
            beach_line_index_: Some(bech_line_index),
            index_: None,
            is_site_point_: false,
            deferred_: false,
        }
    }

    #[inline]
    pub(crate) fn set_3_ext(
        &mut self,
        x: ef::ExtendedExponentFpt,
        y: ef::ExtendedExponentFpt,
        lower_x: ef::ExtendedExponentFpt,
    ) {
        self.set_3(x.d(), y.d(), lower_x.d());
    }

    /// Corridor patch: orders this event after the other events of the same circle.
    pub(crate) fn defer(&mut self) {
        self.deferred_ = true;
    }

    pub(crate) fn get_index(&self) -> Option<CircleEventIndex> {
        self.index_
    }

    pub(crate) fn set_index(&mut self, index: CircleEventIndex) {
        self.index_ = Some(index);
    }

    #[allow(dead_code)]
    pub(crate) fn x(&self) -> f64 {
        self.center_x_
    }

    pub(crate) fn x_as_xf(&self) -> ef::ExtendedExponentFpt {
        ef::ExtendedExponentFpt::from(self.center_x_)
    }

    pub(crate) fn set_x(&mut self, x: f64) -> &mut Self {
        self.center_x_ = x;
        self
    }

    pub(crate) fn y(&self) -> f64 {
        self.center_y_
    }

    /// convert self.y() to ExtendedExponentFpt
    #[allow(dead_code)]
    pub(crate) fn y_as_ext(&self) -> ef::ExtendedExponentFpt {
        ef::ExtendedExponentFpt::from(self.center_y_)
    }

    pub(crate) fn set_y(&mut self, y: f64) -> &mut Self {
        self.center_y_ = y;
        self
    }

    #[inline(always)]
    pub(crate) fn lower_x(&self) -> f64 {
        self.lower_x_
    }

    #[inline(always)]
    pub(crate) fn set_lower_x(&mut self, x: f64) -> &mut Self {
        self.lower_x_ = x;
        self
    }

    #[allow(dead_code)]
    #[inline(always)]
    pub(crate) fn lower_y(&self) -> f64 {
        self.center_y_
    }

    #[inline(always)]
    pub(crate) fn set_3(&mut self, x: f64, y: f64, lower_x: f64) {
        let _ = self.set_x(x);
        let _ = self.set_y(y);
        let _ = self.set_lower_x(lower_x);
    }

    #[inline(always)]
    pub(crate) fn is_site_point(&self) -> bool {
        self.is_site_point_
    }

    #[inline(always)]
    pub(crate) fn set_is_site_point(&mut self) {
        self.is_site_point_ = true
    }

    #[cfg(any(feature = "ce_corruption_check", feature = "console_debug"))]
    #[allow(dead_code)]
    pub fn dbg(&self) {
        println!("[{},{}]", self.x(), self.y());
    }

    #[inline]
    /// sets the x coordinates inside the Cell.
    pub(crate) fn set_x_xf(&mut self, x: ef::ExtendedExponentFpt) {
        let _ = self.set_x(x.d());
    }

    #[inline]
    /// sets the y coordinate inside the Cell.
    pub(crate) fn set_y_xf(&mut self, y: ef::ExtendedExponentFpt) {
        let _ = self.set_y(y.d());
    }

    #[inline]
    /// sets the y coordinate inside the Cell.
    pub(crate) fn set_lower_x_xf(&mut self, x: ef::ExtendedExponentFpt) {
        let _ = self.set_lower_x(x.d());
    }

    #[inline]
    /// Returns the beach line index
    pub(crate) fn beach_line_index(&self) -> Option<vb::BeachLineIndex> {
        self.beach_line_index_
    }
}

/// Corridor patch: the ordering fields of a queued circle event, compared exactly as
/// [`CircleEvent`]'s `Ord` (lower x, then y, then deferred, then the youngest id first)
/// but reversed, so that the max-heap [`BinaryHeap`] returns the smallest event first.
/// The order is total (ids are unique), so the heap pops the same sequence as the
/// `BTreeSet` it replaces.
///
/// Session 15: the fields are packed into two unsigned integers compared as they are
/// (`ordered_bits`), instead of two `OrderedFloat` comparisons, a `bool` and an id per
/// step of the heap: the same order, fewer instructions per push and pop.
#[derive(Copy, Clone)]
struct QueueKey {
    /// `ordered_bits(lower_x)` above `ordered_bits(y)`.
    position: u128,
    /// The `deferred` mark above `u32::MAX - seq` (the youngest event first).
    tie: u64,
    /// Where the event lives (not part of the order).
    slot: u32,
}

/// Corridor patch: `x` as an unsigned integer in `OrderedFloat`'s order: every NaN equal
/// and above everything, `-0.0` equal to `0.0`, and otherwise the order of the values (the
/// IEEE bits of a non-negative value with the sign bit set, the complement of the bits of
/// a negative one).
#[inline(always)]
fn ordered_bits(x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    // `-0.0 + 0.0` is `0.0`; every other value is unchanged.
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

impl QueueKey {
    #[inline(always)]
    fn of(c: &CircleEvent, id: CircleEventIndex) -> Self {
        QueueKey {
            position: (u128::from(ordered_bits(c.lower_x_)) << 64)
                | u128::from(ordered_bits(c.center_y_)),
            tie: (u64::from(c.deferred_) << 32) | u64::from(u32::MAX - id.seq),
            slot: id.slot,
        }
    }

    /// The push order of the event.
    #[inline(always)]
    fn seq(&self) -> u32 {
        u32::MAX - self.tie as u32
    }

    /// The order of [`CircleEvent::cmp`].
    #[inline(always)]
    fn event_order(&self, other: &Self) -> Ordering {
        (self.position, self.tie).cmp(&(other.position, other.tie))
    }
}

impl PartialEq for QueueKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for QueueKey {}

impl PartialOrd for QueueKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for QueueKey {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        self.event_order(other).reverse()
    }
}

/// Event queue data structure, holds circle events.
/// During algorithm run, some of the circle events disappear (become
/// inactive). Priority queue data structure doesn't support
/// iterators (there is no direct ability to modify its elements).
/// Instead, the list is used to store all the circle events and priority queue
/// of the iterators to the list elements is used to keep the correct circle
/// events ordering.
///
/// Corridor patch: as in C++, the events live in a list (a `Vec` indexed by slot) and a
/// priority queue (a binary heap of small keys) orders them; the published port kept each
/// event in an `Rc` shared by a `BTreeSet` and a hash map, which cost an allocation per
/// event and two searches per push and pop. The builder only looks up active events.
///
/// Corridor patch (session 25): a popped event's slot is reused by the next push (a free
/// list), so the list holds only the queued events (active, or deactivated but not yet
/// popped) instead of every event ever pushed, which was about half of a large build's
/// peak memory. The order and the inactive marks go by push order (`seq`), as the list
/// index did before, so the sweep and its diagram are the same.
pub(crate) struct CircleEventQueue {
    /// The queued events by slot; the slots in `free_` hold popped events.
    events_: Vec<CircleEvent>,
    /// Slots of popped events, reused last-freed first.
    free_: Vec<u32>,
    /// The `seq` of the next push.
    next_seq_: u32,
    /// The queued events, smallest first.
    order_: BinaryHeap<QueueKey>,
    inactive_circle_ids_: VobU32, // Circle events turned inactive, by seq
}

impl Default for CircleEventQueue {
    fn default() -> CircleEventQueue {
        Self {
            events_: Vec::new(),
            free_: Vec::new(),
            next_seq_: 0,
            order_: BinaryHeap::new(),
            inactive_circle_ids_: VobU32::fill(128),
        }
    }
}

impl CircleEventQueue {
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.order_.is_empty()
    }

    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<&CircleEvent> {
        self.order_.peek().map(|k| &self.events_[k.slot as usize])
    }

    #[cfg(feature = "ce_corruption_check")]
    pub(crate) fn ce_corruption_check(&self) {}

    #[inline]
    pub(crate) fn pop_inactive_at_top(&mut self) -> Result<(), BvError> {
        while let Some(top) = self.order_.peek() {
            if !self.inactive_circle_ids_.get_f(top.seq() as usize) {
                break;
            }
            self.pop_and_destroy()?;
        }
        Ok(())
    }

    /// Was named pop in C++, but it was never used to actually get the item, only to destroy it
    #[inline]
    pub(crate) fn pop_and_destroy(&mut self) -> Result<(), BvError> {
        if let Some(top) = self.order_.pop() {
            self.inactive_circle_ids_.set_grow(top.seq() as usize, true);
            self.free_.push(top.slot);
        }
        Ok(())
    }

    /// Corridor patch (session 18): room for `events` circle events in the inactive marks
    /// (one bit per push), and a start for the queue, which holds far fewer at a time.
    pub(crate) fn reserve(&mut self, events: usize) {
        let queued = (events / 2).min(4096);
        self.events_.reserve(queued);
        self.order_.reserve(queued);
        if self.inactive_circle_ids_.len() < events {
            self.inactive_circle_ids_.resize(events, false);
        }
    }

    /// Corridor patch: empties the queue, keeping its buffers for the next build.
    #[allow(dead_code)]
    pub(crate) fn clear(&mut self) {
        self.events_.clear();
        self.free_.clear();
        self.next_seq_ = 0;
        self.order_.clear();
        self.inactive_circle_ids_.truncate(0);
    }

    /// Take ownership of the circle event,
    /// Update index
    /// return the `CircleEventIndex` of the inserted element
    #[inline]
    pub(crate) fn associate_and_push(&mut self, mut ce: CircleEvent) -> CircleEventIndex {
        let seq = self.next_seq_;
        self.next_seq_ += 1;
        let slot = self.free_.pop().unwrap_or(self.events_.len() as u32);
        let circle_event_id = CircleEventIndex { slot, seq };
        // set the correct index on the circle event
        ce.set_index(circle_event_id);
        self.order_.push(QueueKey::of(&ce, circle_event_id));
        if let Some(place) = self.events_.get_mut(slot as usize) {
            *place = ce;
        } else {
            self.events_.push(ce);
        }
        circle_event_id
    }

    #[inline(always)]
    pub(crate) fn is_active(&self, circle_event_id: CircleEventIndex) -> bool {
        !self
            .inactive_circle_ids_
            .get_f(circle_event_id.seq as usize)
    }

    #[inline]
    pub(crate) fn deactivate(&mut self, circle_event_id: Option<CircleEventIndex>) {
        if let Some(circle_event_id) = circle_event_id {
            self.inactive_circle_ids_
                .set_grow(circle_event_id.seq as usize, true);
        }
    }

    #[inline]
    pub(crate) fn top(&self) -> Result<Option<&CircleEvent>, BvError> {
        let c = self.peek();
        if let Some(cc) = c {
            let id = cc.index_.unwrap();
            if !self.is_active(id) {
                return Err(BvError::InternalError(format!(
                    "Tried to use an inactive circle event {}, {}:{}",
                    id.seq,
                    file!(),
                    line!()
                )));
            }
        }
        Ok(c)
    }

    /// Corridor patch: the event with this handle while it is queued (the builder asks
    /// only for active ones); `None` once its slot holds another event.
    #[inline]
    pub(crate) fn get(&self, cei: CircleEventIndex) -> Option<&CircleEvent> {
        self.events_
            .get(cei.slot as usize)
            .filter(|ce| ce.index_.is_some_and(|own| own.seq == cei.seq))
    }

    #[cfg(feature = "console_debug")]
    pub(crate) fn dbg_ce(&self, cei: CircleEventIndex) {
        if let Some(ce) = self.get(cei) {
            print!("{:?}", ce);
        } else {
            print!("{}: not found", cei);
        }
    }

    /// Returns the number of queued circle events (both active and inactive)
    /// Only used by test code.
    #[allow(dead_code)]
    #[cfg(any(test, feature = "console_debug"))]
    pub(crate) fn len(&self) -> usize {
        self.order_.len()
    }
}
