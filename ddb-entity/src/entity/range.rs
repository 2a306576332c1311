//! Sort-key ranges: what each sort-key condition of a query selects, as
//! the one inclusive range DynamoDB is sent.

use std::fmt;
use std::marker::PhantomData;

use super::SortKey;
use super::keys::KeySpace;
use crate::error::Result;
use crate::key::prefix_upper_bound;

/// The sort keys a query's sort-key condition selects: one inclusive range
/// of index `I`'s sort key, built from typed [`SortKey`]s and sent as one
/// key condition (`=`, `begins_with`, `BETWEEN`, `<=` or `>=`), or no
/// condition, or — for a range that holds nothing — no request at all.
///
/// # What each condition means
///
/// A [`SortKey`] *denotes* sort keys: a whole key denotes itself, a prefix
/// (a cut of the template from the left) every key under it. Each key also
/// knows its template's *key space*: the keys the template can produce,
/// that is every key starting with the template's leading literals
/// (`ORDER#` for `ORDER#{placed}#{id}`). Then:
///
/// | condition | selects |
/// | --- | --- |
/// | [`begins_with(k)`](Self::begins_with) (and `sk_eq(k)`) | the keys `k` denotes: a whole key alone (never a longer value of its last component), a prefix everything under it |
/// | [`between(a, b)`](Self::between) | from the first key `a` denotes through the last key `b` denotes |
/// | [`lt(k)`](Self::lt) / [`le(k)`](Self::le) | the key space up to `k`, without / with what `k` denotes |
/// | [`gt(k)`](Self::gt) / [`ge(k)`](Self::ge) | the key space from `k` on, without / with what `k` denotes |
///
/// An open range (`lt`, `le`, `gt`, `ge`) therefore never leaves the
/// entity's key space: `sk_gt(Order::sk().placed(d))` reads orders only,
/// never the `PROFILE` that sorts after them, so a query's `limit` counts
/// orders only. A template that starts with a hole (`sk = "{name}"`) has
/// no leading literal: its key space, and so an open range, is every sort
/// key of the partition. A leading `#` is part of the literal (`#ORDER#`
/// for `#ORDER#{id}`), and a first segment holding a hole bounds the space
/// by its text up to the hole (`REACT` for `REACT{kind}#{user}`).
///
/// **Collections.** The range is the same whatever the query decodes into.
/// On a partition holding several entity types, a range built from one
/// entity's key selects that entity's items only — `sk_lt(Order::sk()…)`
/// reads no `ADDR#` or `PROFILE` item. To read across entity types in one
/// range, span them: [`span(Customer::sk(), Order::sk())`](Self::span)
/// (or bound it on both sides, `between(Address::sk(), Order::sk())`).
/// An open range built from the key of a template without holes holds
/// that one key or nothing: `sk_le(Customer::sk())` in reverse, the
/// classic "profile and newest orders" that once reached the orders, is
/// the profile alone. Read into a collection with a member it can never
/// return, such a range is refused before any request
/// ([`ErrorKind::InvalidExpression`](crate::error::ErrorKind::InvalidExpression)),
/// naming the member and `sk_span`. Templates nested inside another's
/// (`ORDER#{placed}#{id}#LINE#{n}` under `ORDER#{placed}#{id}`) share its
/// key space, and lie inside a prefix range of it.
///
/// **The empty cut.** A template that starts with a hole, cut before it
/// (`Named::sk()`), is the empty prefix: it denotes every sort key. DynamoDB
/// refuses an empty string in a key condition, so none is ever sent:
/// `eq`/`begins_with`/`ge` of it are no condition, `le(k)` and
/// `between(empty, k)` a one-sided `<=`, `lt` and `gt` of it an empty result
/// with no request.
///
/// # Example
///
/// ```
/// # use ddb_entity::{Entity, Primary, SortRange};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64, placed: u32 }
///
/// let after: SortRange<Primary<App>> = SortRange::gt(Order::sk().placed(150u32))?;
/// let order = |placed: u32| Order { customer_id: 1, order_id: 7, placed }.primary_key();
/// assert!(after.contains(order(151)?.sort()));
/// assert!(!after.contains(order(150)?.sort()));
/// assert!(!after.contains("PROFILE"), "outside the orders' key space");
///
/// // Every constructor, and the range's ends.
/// type Range = SortRange<Primary<App>>;
/// let day = || Order::sk().placed(150u32);
/// let on_day = Range::begins_with(day())?;
/// assert!(on_day.contains(order(150)?.sort()) && !on_day.contains(order(151)?.sort()));
/// let span = Range::between(Order::sk().placed(150u32), Order::sk().placed(152u32))?;
/// assert!(span.contains(order(152)?.sort()) && !span.contains(order(153)?.sort()));
/// assert!(span.low().unwrap() < span.high().unwrap());
/// assert!(Range::lt(day())?.contains(order(149)?.sort()) && !Range::lt(day())?.contains(order(150)?.sort()));
/// assert!(Range::le(day())?.contains(order(150)?.sort()));
/// assert!(Range::ge(day())?.contains(order(150)?.sort()));
/// assert!(!on_day.is_empty());
/// assert!(Range::between(Order::sk().placed(152u32), Order::sk().placed(150u32))?.is_empty());
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub struct SortRange<I> {
    /// `None`: the range holds nothing.
    bounds: Option<Bounds>,
    /// An open range (`lt`, `le`, `gt`, `ge`): the key space it was
    /// bounded to, for the error of a collection read it cannot serve.
    space: Option<KeySpace>,
    index: PhantomData<fn() -> I>,
}

/// Inclusive bounds, `None` for unbounded; never an empty string.
#[derive(Clone, PartialEq, Eq)]
struct Bounds {
    low: Option<String>,
    high: Option<String>,
}

/// How a range is sent as the sort-key part of a key condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RangeCondition<'a> {
    /// No sort-key condition: the whole partition.
    All,
    /// Nothing: no request is sent.
    Nothing,
    /// `sk = :v`
    Equal(&'a str),
    /// `begins_with(sk, :v)`
    BeginsWith(&'a str),
    /// `sk BETWEEN :low AND :high`
    Between(&'a str, &'a str),
    /// `sk >= :v`
    AtLeast(&'a str),
    /// `sk <= :v`
    AtMost(&'a str),
}

impl<I> SortRange<I> {
    fn new(low: Option<String>, high: Option<String>) -> Self {
        // "" is the least string: as a lower bound it bounds nothing. As an
        // upper bound it holds nothing, since no sort key is empty.
        let low = low.filter(|low| !low.is_empty());
        let bounds = match (low, high) {
            (_, Some(high)) if high.is_empty() => None,
            (Some(low), Some(high)) if low > high => None,
            (low, high) => Some(Bounds { low, high }),
        };
        SortRange {
            bounds,
            space: None,
            index: PhantomData,
        }
    }

    /// The same range, an open one bounded to `space`.
    fn within(mut self, space: &KeySpace) -> Self {
        if space.low().is_some() {
            self.space = Some(space.clone());
        }
        self
    }

    /// The range from `low` through `high`, for tests below the typed
    /// builders.
    #[cfg(all(test, feature = "sealed-cursors"))]
    pub(crate) fn from_bounds(low: Option<&str>, high: Option<&str>) -> Self {
        Self::new(low.map(str::to_owned), high.map(str::to_owned))
    }

    fn nothing() -> Self {
        SortRange {
            bounds: None,
            space: None,
            index: PhantomData,
        }
    }

    /// The keys `sk` denotes: everything under a prefix; a whole key only
    /// itself, never a longer value of its last component (`first("Ann")`
    /// is not "Anna"). What [`Query::sk_eq`](crate::read::Query::sk_eq) and
    /// [`Query::sk_begins_with`](crate::read::Query::sk_begins_with) send.
    ///
    /// See [the example](SortRange#example).
    pub fn begins_with(sk: impl Into<SortKey<I>>) -> Result<Self> {
        let sk = sk.into();
        Ok(Self::new(sk.first()?, sk.last()?))
    }

    /// From the first key `low` denotes through the last key `high`
    /// denotes, both included (`between(March, April)` includes April 30).
    ///
    /// See [the example](SortRange#example).
    pub fn between(low: impl Into<SortKey<I>>, high: impl Into<SortKey<I>>) -> Result<Self> {
        let (low, high) = (low.into(), high.into());
        Ok(Self::new(low.first()?, high.last()?))
    }

    /// Everything `a` and `b` denote and every sort key between them,
    /// whichever sorts first: one contiguous range across entity types,
    /// for a collection read of several members in one Query — the
    /// customer's `PROFILE` and the `ORDER#…` items before it,
    /// `span(Customer::sk(), Order::sk())`, is `ORDER#` through `PROFILE`
    /// (see [`Query::sk_span`](crate::read::Query::sk_span)).
    ///
    /// ```
    /// # use ddb_entity::{Entity, Primary, SortRange};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64 }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{n}")]
    /// struct Address { customer_id: u64, n: u32 }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{id}")]
    /// struct Order { customer_id: u64, placed: u32, id: u64 }
    ///
    /// let span: SortRange<Primary<App>> = SortRange::span(Customer::sk(), Order::sk())?;
    /// assert_eq!(span, SortRange::span(Order::sk(), Customer::sk())?, "either order");
    /// assert!(span.contains("PROFILE"));
    /// assert!(span.contains(Order { customer_id: 1, placed: 20260314, id: 9 }.primary_key()?.sort()));
    /// assert!(!span.contains(Address { customer_id: 1, n: 1 }.primary_key()?.sort()));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn span(a: impl Into<SortKey<I>>, b: impl Into<SortKey<I>>) -> Result<Self> {
        let (a, b) = (a.into(), b.into());
        // `None` is no bound: the least lower bound, the greatest upper.
        let low = match (a.first()?, b.first()?) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        };
        let high = match (a.last()?, b.last()?) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        Ok(Self::new(low, high))
    }

    /// The key space of `sk`'s template before `sk` and everything under it.
    ///
    /// See [the example](SortRange#example).
    pub fn lt(sk: impl Into<SortKey<I>>) -> Result<Self> {
        let sk = sk.into();
        Ok(match sk.before()? {
            Some(before) => Self::new(sk.space().low(), Some(before)).within(sk.space()),
            None => Self::nothing(),
        })
    }

    /// The key space of `sk`'s template up to and including everything
    /// under `sk`.
    ///
    /// See [the example](SortRange#example).
    pub fn le(sk: impl Into<SortKey<I>>) -> Result<Self> {
        let sk = sk.into();
        Ok(Self::new(sk.space().low(), sk.last()?).within(sk.space()))
    }

    /// The key space of `sk`'s template after `sk` and everything under it.
    ///
    /// See [the example](SortRange#example).
    pub fn gt(sk: impl Into<SortKey<I>>) -> Result<Self> {
        let sk = sk.into();
        Ok(match sk.after()? {
            Some(after) => Self::new(Some(after), sk.space().high()).within(sk.space()),
            None => Self::nothing(),
        })
    }

    /// The key space of `sk`'s template from `sk` (and everything under
    /// it) on.
    ///
    /// See [the example](SortRange#example).
    pub fn ge(sk: impl Into<SortKey<I>>) -> Result<Self> {
        let sk = sk.into();
        Ok(Self::new(sk.first()?, sk.space().high()).within(sk.space()))
    }

    /// Whether the range holds no sort key at all; a query of it returns
    /// nothing without sending a request.
    ///
    /// See [the example](SortRange#example).
    pub fn is_empty(&self) -> bool {
        self.bounds.is_none()
    }

    /// The inclusive lower bound sent, `None` when there is none.
    ///
    /// See [the example](SortRange#example).
    pub fn low(&self) -> Option<&str> {
        self.bounds.as_ref()?.low.as_deref()
    }

    /// The inclusive upper bound sent, `None` when there is none.
    ///
    /// See [the example](SortRange#example).
    pub fn high(&self) -> Option<&str> {
        self.bounds.as_ref()?.high.as_deref()
    }

    /// Whether the range holds the sort key `sort_key`, comparing bytes as
    /// DynamoDB does.
    ///
    /// See [the example](SortRange#example).
    pub fn contains(&self, sort_key: &str) -> bool {
        let Some(bounds) = &self.bounds else {
            return false;
        };
        let key = sort_key.as_bytes();
        bounds.low.as_ref().is_none_or(|low| low.as_bytes() <= key)
            && bounds
                .high
                .as_ref()
                .is_none_or(|high| key <= high.as_bytes())
    }

    /// The same range with its index forgotten, for code past the typed
    /// builders.
    pub(crate) fn erased(self) -> SortRange<()> {
        SortRange {
            bounds: self.bounds,
            space: self.space,
            index: PhantomData,
        }
    }

    /// For an open range built from the key of a template without holes
    /// (`PROFILE`), that one key: the range holds it or nothing.
    pub(crate) fn open_on_one_key(&self) -> Option<&str> {
        match self.space.as_ref()? {
            KeySpace::Exact(key) => Some(key),
            KeySpace::Prefix(_) => None,
        }
    }

    /// Whether the range holds any key of a template whose keys all start
    /// with `literal` (`exact`: whose one key is `literal`).
    pub(crate) fn reaches(&self, literal: &str, exact: bool) -> bool {
        let Some(bounds) = &self.bounds else {
            return false;
        };
        if exact {
            return self.contains(literal);
        }
        let top = prefix_upper_bound(literal);
        bounds
            .low
            .as_ref()
            .is_none_or(|low| low.as_bytes() <= top.as_bytes())
            && bounds
                .high
                .as_ref()
                .is_none_or(|high| literal.as_bytes() <= high.as_bytes())
    }

    /// The condition to send, in its plainest form.
    pub(crate) fn condition(&self) -> RangeCondition<'_> {
        let Some(bounds) = &self.bounds else {
            return RangeCondition::Nothing;
        };
        match (bounds.low.as_deref(), bounds.high.as_deref()) {
            (None, None) => RangeCondition::All,
            (Some(low), None) => RangeCondition::AtLeast(low),
            (None, Some(high)) => RangeCondition::AtMost(high),
            (Some(low), Some(high)) if low == high => RangeCondition::Equal(low),
            (Some(low), Some(high)) if high == prefix_upper_bound(low) => {
                RangeCondition::BeginsWith(low)
            }
            (Some(low), Some(high)) => RangeCondition::Between(low, high),
        }
    }
}

impl<I> Clone for SortRange<I> {
    fn clone(&self) -> Self {
        SortRange {
            bounds: self.bounds.clone(),
            space: self.space.clone(),
            index: PhantomData,
        }
    }
}

impl<I> PartialEq for SortRange<I> {
    fn eq(&self, other: &Self) -> bool {
        self.bounds == other.bounds
    }
}

impl<I> Eq for SortRange<I> {}

impl<I> fmt::Debug for SortRange<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Upper bounds of prefixes run to 1024 bytes of U+10FFFF: shown as
        // the prefix and an ellipsis.
        let show = |bound: Option<&str>| match bound {
            None => "unbounded".to_owned(),
            Some(bound) => match bound.trim_end_matches('\u{10FFFF}') {
                prefix if prefix.len() + 64 < bound.len() => format!("{prefix:?}+U+10FFFF…"),
                _ => format!("{bound:?}"),
            },
        };
        match &self.bounds {
            None => f.write_str("SortRange(empty)"),
            Some(bounds) => write!(
                f,
                "SortRange({} ..= {})",
                show(bounds.low.as_deref()),
                show(bounds.high.as_deref())
            ),
        }
    }
}
