//! The finishing methods of every read, written once over a [`Source`]
//! and its [`Run`]: `collect` (and `all`), `page`, `pages`, `first`,
//! `one` and `count`, and the stream of each lane's pages as they arrive
//! (`lane_pages`: a scan's per-segment pages). A source (`Query` of a
//! partition or of a sharded one, `MultiQuery`, `Scan` of all segments or
//! one) only checks and renders its requests and says how to make its
//! cursors; what is handed out, how a limit counts, when to read whole
//! pages and when a read is done is decided here for all of them, and
//! every item goes through one step, [`hand`].

use futures_util::stream::{self, Stream};
use tracing::Instrument;

use super::found::Found;
use super::run::Run;
use crate::collection::{Collection, CollectionItem, UnknownItems, demultiplex};
use crate::cursor::Cursor;
use crate::error::{Error, ErrorKind, Result};
use crate::read::filter::Reading;
use crate::table::Table;

/// One page of a read: its items, and where to resume (`page()` of a
/// query, a multi-attribute index query or a scan, and each item of their
/// `pages()` streams).
///
/// See [`Query`'s example](crate::read::Query#example).
#[derive(Debug)]
#[non_exhaustive]
pub struct Page<C> {
    /// The items, demultiplexed.
    pub items: C,
    /// `Some` while the read has more items (DynamoDB stopped at its 1 MB
    /// page, at the page size, or at the limit); sealed when the handle
    /// seals its cursors. It resumes right after the last item handed out.
    pub cursor: Option<Cursor>,
    /// How many items DynamoDB read for this page (`ScannedCount`): with a
    /// filter, the items it then dropped too — they cost read capacity.
    pub scanned_count: usize,
}

/// A read builder the finishing methods run: it checks and renders its
/// requests ([`start`](Source::start)) and makes its cursors.
pub(crate) trait Source<'db>: Send + Sync + Sized + 'db {
    /// The table the read is of.
    type Table: Table;

    /// What to do with an item no member of the collection holds.
    fn unknown(&self) -> UnknownItems;

    /// At most this many items per page.
    fn page_size(&self) -> Option<usize>;

    /// The read's `tracing` span, for a collection named `collection`.
    fn span(&self, collection: &'static str) -> tracing::Span;

    /// Checks everything that can be checked before sending, renders every
    /// lane's request and resumes from the source's cursor, for a
    /// collection of `read` (`None`: a count, `Select=COUNT`).
    fn start(&mut self, read: Option<Reading>) -> Result<Run<'db>>;

    /// Where `run` resumes after what it handed out (sealed when the
    /// handle seals its cursors); `None` once it is complete.
    fn cursor(&self, run: &Run<'db>) -> Result<Option<Cursor>>;

    /// Where lane `lane` of `run` resumes after what it handed out; `None`
    /// once that lane is done. A source of one lane has one cursor.
    fn lane_cursor(&self, run: &Run<'db>, lane: usize) -> Result<Option<Cursor>> {
        let _ = lane;
        self.cursor(run)
    }

    /// The error of [`one`] finding a second `entity`.
    fn not_unique(&self, entity: &'static str) -> Error;

    /// What to do with `err`, the error of an item that does not decode
    /// ([`undecodable`]): by default the read fails with it; a source
    /// whose caller asked to skip such items reports it and goes on.
    fn undecodable(&self, err: Error) -> Result<()> {
        Err(err)
    }
}

/// Whether `err` says an item does not decode as the member it is routed
/// to (a field missing or of another type, keys that are not the value's,
/// keys two members parse).
pub(crate) fn undecodable(err: &Error) -> bool {
    matches!(
        err.kind(),
        ErrorKind::Decode | ErrorKind::KeyMismatch | ErrorKind::AmbiguousKey
    )
}

/// Where a finishing method puts the items it hands out: a collection,
/// demultiplexed (every [`Collection`] is one), or the items as they are
/// (the survey's raw scan).
pub(crate) trait Sink: Default + Send {
    /// What the read asks for, for its requests.
    fn reading() -> Reading;

    /// Keeps `item` (`Ok(false)`: not of a member type, left out by
    /// `policy`).
    fn keep(&mut self, item: Found, policy: UnknownItems) -> Result<bool>;
}

impl<C: Collection> Sink for C {
    fn reading() -> Reading {
        Reading::of::<C>()
    }

    fn keep(&mut self, item: Found, policy: UnknownItems) -> Result<bool> {
        match item {
            Found::Item(item) => demultiplex(self, item, policy),
            // The item's one parse: routing, verification and the decode
            // read this tree.
            Found::Bytes(found) => demultiplex(self, found.parse()?, policy),
        }
    }
}

/// What became of an item handed out.
enum Handed {
    /// Kept: of a member type, it counts towards the limit.
    Kept,
    /// Left out: another type, an unknown item, or one that does not
    /// decode and was reported.
    Passed,
}

/// The one step every item handed out goes through: demultiplexed into
/// `into` (an item that does not decode goes to the source's policy), and
/// counted towards the limit when kept; items left out make every lane
/// read whole pages from then on.
fn hand<'db, S: Source<'db>, K: Sink>(
    source: &S,
    run: &mut Run<'db>,
    into: &mut K,
    item: Found,
) -> Result<Handed> {
    let handed = match into.keep(item, source.unknown()) {
        Ok(true) => Handed::Kept,
        Ok(false) => Handed::Passed,
        Err(err) if undecodable(&err) => {
            source.undecodable(err)?;
            Handed::Passed
        }
        Err(err) => return Err(err),
    };
    match handed {
        Handed::Kept => {
            if let Some(left) = &mut run.left {
                *left -= 1;
            }
        }
        Handed::Passed => run.whole_pages(),
    }
    Ok(handed)
}

/// Hands items of `run` into `into` until it kept `most` (and what the
/// limit allows), the run ends, or — with `rounds` — that many rounds of
/// requests are used up. Each request asks for what is still missing until
/// an item is handed out and not kept (another type, an unknown item) or a
/// response leaves items out: whole pages from then on.
async fn fill<'db, S: Source<'db>, C: Collection>(
    source: &S,
    run: &mut Run<'db>,
    into: &mut C,
    most: Option<usize>,
    mut rounds: Option<usize>,
) -> Result<()> {
    let most = [most, run.left].into_iter().flatten().min();
    let mut kept = 0;
    while most.is_none_or(|most| kept < most) {
        let wanted = most.map(|most| most - kept);
        let Some(item) = run.next(wanted, &mut rounds).await? else {
            break;
        };
        if let Handed::Kept = hand(source, run, into, item)? {
            kept += 1;
        }
    }
    Ok(())
}

/// Every item up to the limit, into one collection.
pub(crate) async fn collect<'db, S, C>(mut source: S) -> Result<C>
where
    S: Source<'db>,
    C: Collection<Table = S::Table>,
{
    let span = source.span(C::NAME);
    async move {
        let mut run = source.start(Some(Reading::of::<C>()))?;
        let mut collection = C::default();
        let result = fill(&source, &mut run, &mut collection, None, None).await;
        run.totals().record();
        result.map(|()| collection)
    }
    .instrument(span)
    .await
}

/// The next page of `run`, `None` once it is finished: up to the page
/// size (reading on while items are left out), or without one the items
/// of one round of requests (one per lane).
async fn next_page<'db, S, C>(source: &S, run: &mut Run<'db>) -> Result<Option<Page<C>>>
where
    S: Source<'db>,
    C: Collection<Table = S::Table>,
{
    if run.finished() {
        return Ok(None);
    }
    let scanned_before = run.totals().scanned;
    let page_size = source.page_size();
    let rounds = page_size.is_none().then_some(1);
    let mut items = C::default();
    fill(source, run, &mut items, page_size, rounds).await?;
    Ok(Some(Page {
        items,
        cursor: source.cursor(run)?,
        scanned_count: run.totals().scanned - scanned_before,
    }))
}

/// One page and the cursor to resume from.
pub(crate) async fn page<'db, S, C>(mut source: S) -> Result<Page<C>>
where
    S: Source<'db>,
    C: Collection<Table = S::Table>,
{
    let span = source.span(C::NAME);
    async move {
        let mut run = source.start(Some(Reading::of::<C>()))?;
        let page = next_page(&source, &mut run).await;
        run.totals().record();
        Ok(page?.unwrap_or(Page {
            items: C::default(),
            cursor: None,
            scanned_count: 0,
        }))
    }
    .instrument(span)
    .await
}

enum Pages<'db, S> {
    Start(S),
    Running(S, Box<Run<'db>>),
    Done,
}

/// The pages as a `Stream`, up to the limit; the last page's cursor is
/// `None` once the read is complete.
pub(crate) fn pages<'db, S, C>(source: S) -> impl Stream<Item = Result<Page<C>>> + Send + 'db
where
    S: Source<'db>,
    C: Collection<Table = S::Table>,
{
    let span = source.span(C::NAME);
    stream::try_unfold(Pages::Start(source), move |state| {
        let span = span.clone();
        async move {
            let (source, mut run) = match state {
                Pages::Start(mut source) => {
                    let run = Box::new(source.start(Some(Reading::of::<C>()))?);
                    (source, run)
                }
                Pages::Running(source, run) => (source, run),
                Pages::Done => return Ok(None),
            };
            let page = next_page(&source, &mut run).await;
            run.totals().record();
            let Some(page) = page? else {
                return Ok(None);
            };
            let next = if run.finished() {
                Pages::Done
            } else {
                Pages::Running(source, run)
            };
            Ok(Some((page, next)))
        }
        .instrument(span)
    })
}

/// One answered request of one lane: its items, where the lane resumes
/// and what DynamoDB read for it.
pub(crate) struct LanePage<C> {
    pub(crate) lane: usize,
    pub(crate) items: C,
    /// `None` once the lane is done (or the limit reached).
    pub(crate) cursor: Option<Cursor>,
    pub(crate) scanned: usize,
}

/// Every lane's pages as they arrive, one page per answered request (at
/// most `concurrency` lanes in flight, each lane's pages in its order), up
/// to the limit: the last page is cut at it, its cursor right after its
/// last item. The stream ends when every lane is done, or after the first
/// error.
pub(crate) fn lane_pages<'db, S, K>(
    source: S,
) -> impl Stream<Item = Result<LanePage<K>>> + Send + 'db
where
    S: Source<'db>,
    K: Sink,
{
    let span = source.span(K::reading().collection);
    stream::try_unfold(Pages::Start(source), move |state| {
        let span = span.clone();
        async move {
            let (source, mut run) = match state {
                Pages::Start(mut source) => {
                    let run = Box::new(source.start(Some(K::reading()))?);
                    (source, run)
                }
                Pages::Running(source, run) => (source, run),
                Pages::Done => return Ok(None),
            };
            if run.finished() {
                return Ok(None);
            }
            let answer = run.next_answer().await;
            run.totals().record();
            let Some((lane, scanned)) = answer? else {
                return Ok(None);
            };
            let mut items = K::default();
            while run.left != Some(0) {
                let Some(item) = run.take_from(lane) else {
                    break;
                };
                hand(&source, &mut run, &mut items, item)?;
            }
            let page = LanePage {
                lane,
                items,
                cursor: source.lane_cursor(&run, lane)?,
                scanned,
            };
            Ok(Some((page, Pages::Running(source, run))))
        }
        .instrument(span)
    })
}

/// How many items the read selects, up to the limit (`Select=COUNT`).
pub(crate) async fn count<'db, S: Source<'db>>(mut source: S) -> Result<usize> {
    let span = source.span("(count)");
    async move {
        let mut run = source.start(None)?;
        let limit = run.left;
        let counted = run.count(limit).await;
        run.totals().record();
        counted
    }
    .instrument(span)
    .await
}

/// The first `most` items of `T` the read selects (fewer at its end).
async fn leading<'db, S, T>(source: &mut S, most: usize) -> Result<Vec<T>>
where
    S: Source<'db>,
    T: CollectionItem<Table = S::Table>,
{
    let mut run = source.start(Some(Reading::of_item::<T>()))?;
    let mut found = Vec::<T>::new();
    let result = fill(&*source, &mut run, &mut found, Some(most), None).await;
    run.totals().record();
    result.map(|()| found)
}

/// The first item, or `None`.
pub(crate) async fn first<'db, S, T>(mut source: S) -> Result<Option<T>>
where
    S: Source<'db>,
    T: CollectionItem<Table = S::Table>,
{
    let span = source.span(T::NAME);
    async move { Ok(leading::<S, T>(&mut source, 1).await?.pop()) }
        .instrument(span)
        .await
}

/// The one item, `None` if there is none, an error if there are more.
pub(crate) async fn one<'db, S, T>(mut source: S) -> Result<Option<T>>
where
    S: Source<'db>,
    T: CollectionItem<Table = S::Table>,
{
    let span = source.span(T::NAME);
    async move {
        let mut found = leading::<S, T>(&mut source, 2).await?;
        if found.len() > 1 {
            return Err(source.not_unique(T::NAME));
        }
        Ok(found.pop())
    }
    .instrument(span)
    .await
}
