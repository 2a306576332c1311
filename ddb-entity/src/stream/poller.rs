//! A `Stream` of typed records over every shard of a table's stream, read
//! through the DynamoDB Streams API (ListStreams, DescribeStream,
//! GetShardIterator, GetRecords). With the `streams` feature.

use std::collections::VecDeque;
use std::fmt;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use aws_sdk_dynamodbstreams::Client;
use aws_sdk_dynamodbstreams::config::AsyncSleep;
use aws_sdk_dynamodbstreams::operation::get_records::GetRecordsError;
use aws_sdk_dynamodbstreams::types::{ShardIteratorType, StreamStatus};
use futures_util::stream::{self, Stream};
use tracing::Instrument;

use super::api::from_sdk_record;
use super::checkpoint::Checkpoint;
use super::record::Record;
use crate::collection::CollectionItem;
use crate::error::{Error, Repr, Result};

/// How often the shards are listed again to find new ones (DynamoDB
/// closes each shard after about four hours and opens its children).
const REDISCOVER_EVERY: Duration = Duration::from_secs(60);

/// Where a shard with no checkpoint is read from.
///
/// ```
/// assert_eq!(ddb_entity::stream::StartAt::default(), ddb_entity::stream::StartAt::TrimHorizon);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum StartAt {
    /// Its oldest record still kept (DynamoDB keeps 24 hours).
    #[default]
    TrimHorizon,
    /// Only records written after the poller reaches the shard.
    Latest,
}

/// Reads a table's stream: every shard, parents before their children (so
/// the changes of one item arrive in the order they were made), as a
/// `Stream` of typed [`Record`]s, with sequence numbers to checkpoint.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};
/// use ddb_entity::stream::{Change, Checkpoint, Poller};
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use futures_util::TryStreamExt;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # if !dynamo.is_embedded() { return Ok(()); } // the doctest needs the embedded server
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// db.create_table_if_missing().await?;
/// let stream = StreamSpecification::builder()
///     .stream_enabled(true)
///     .stream_view_type(StreamViewType::NewAndOldImages)
///     .build()?;
/// db.client().update_table().table_name(db.table_name()).stream_specification(stream).send().await?;
/// db.put(&Customer { id: 1, name: "Ada".into() }).await?;
///
/// // The Streams API's client, built like any AWS SDK client (here: for
/// // the local server).
/// let streams = aws_sdk_dynamodbstreams::Client::from_conf(dynamo.streams_config_builder().build());
/// let poller = Poller::<Customer>::for_table(streams, db.table_name()).await?.follow(false);
/// let records: Vec<_> = poller.records().try_collect().await?;
///
/// let mut checkpoint = Checkpoint::default();
/// for record in &records {
///     assert!(matches!(&record.change, Ok(Change::Insert { new: Some(c) }) if c.name == "Ada"));
///     checkpoint.advance(record);
/// }
/// assert_eq!(checkpoint.shards().count(), 1);
/// # Ok(())
/// # }
/// ```
#[must_use = "a poller reads nothing until its `records()` stream is polled"]
pub struct Poller<T> {
    client: Client,
    stream_arn: String,
    table_name: Option<String>,
    start: StartAt,
    checkpoint: Checkpoint,
    poll_interval: Duration,
    follow: bool,
    batch_size: Option<i32>,
    item: PhantomData<fn() -> T>,
}

impl<T: CollectionItem> Poller<T> {
    /// A poller of the stream `stream_arn` (a table's `LatestStreamArn`),
    /// configured before it reads anything:
    ///
    /// ```
    /// use std::time::Duration;
    /// use ddb_entity::stream::{Checkpoint, Poller, StartAt, sdk};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    ///
    /// # let config = sdk::Config::builder().behavior_version(sdk::config::BehaviorVersion::latest()).build();
    /// let client = sdk::Client::from_conf(config); // built with aws-config
    /// let arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/app/stream/2026-03-14T09:31:00.000";
    /// let mut stored = Checkpoint::default(); // read back from where you keep it
    /// stored.set("shardId-00000001", "000000000000000000042");
    /// let poller = Poller::<Customer>::new(client, arn)
    ///     .resume(stored)                     // shards it names: after their record
    ///     .start_at(StartAt::Latest)          // other shards of a fresh start: from now
    ///     .poll_interval(Duration::from_millis(500))
    ///     .batch_size(100)
    ///     .follow(true);
    /// assert_eq!(poller.stream_arn(), arn);
    /// ```
    pub fn new(client: Client, stream_arn: impl Into<String>) -> Self {
        let stream_arn = stream_arn.into();
        Poller {
            table_name: super::parse::table_of_arn(&stream_arn).map(str::to_owned),
            client,
            stream_arn,
            start: StartAt::default(),
            checkpoint: Checkpoint::default(),
            poll_interval: Duration::from_secs(1),
            follow: true,
            batch_size: None,
            item: PhantomData,
        }
    }

    /// A poller of the enabled stream of table `table_name`, found with
    /// ListStreams (and DescribeStream when the table has had several).
    /// [`ErrorKind::NoStream`](crate::error::ErrorKind::NoStream) when it has none
    /// enabled.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub async fn for_table(client: Client, table_name: &str) -> Result<Self> {
        let span = tracing::info_span!("ddb.stream.list_streams", table = table_name);
        let arn = async {
            let listed = client
                .list_streams()
                .table_name(table_name)
                .send()
                .await
                .map_err(|err| Error::stream_service("ListStreams", table_name, err))?;
            let arns: Vec<String> = listed
                .streams
                .unwrap_or_default()
                .into_iter()
                .filter(|stream| stream.table_name.as_deref() == Some(table_name))
                .filter_map(|stream| stream.stream_arn)
                .collect();
            if let [only] = arns.as_slice() {
                return Ok(only.clone());
            }
            // A table whose stream was disabled and enabled again lists
            // each: the enabled one is the one written to.
            for arn in &arns {
                let described = client
                    .describe_stream()
                    .stream_arn(arn)
                    .limit(1)
                    .send()
                    .await
                    .map_err(|err| Error::stream_service("DescribeStream", arn, err))?;
                let status = described.stream_description.and_then(|d| d.stream_status);
                if matches!(status, Some(StreamStatus::Enabled | StreamStatus::Enabling)) {
                    return Ok(arn.clone());
                }
            }
            Err(Error::from(Repr::NoStream {
                table: table_name.to_owned(),
                listed: arns.len(),
            }))
        }
        .instrument(span)
        .await?;
        Ok(Poller::new(client, arn))
    }

    /// Where shards without a checkpoint are read from (default: the
    /// oldest record kept). Shards that appear after a resumed poller
    /// started are always read from their start.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn start_at(mut self, start: StartAt) -> Self {
        self.start = start;
        self
    }

    /// Resume after `checkpoint`: each shard it names is read from the
    /// record after its sequence number, the others from their start. A
    /// checkpoint older than the stream keeps (24 hours) fails with
    /// `TrimmedDataAccessException`: records were lost; start again from
    /// [`StartAt::TrimHorizon`] with an empty checkpoint if that is
    /// acceptable.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn resume(mut self, checkpoint: Checkpoint) -> Self {
        self.checkpoint = checkpoint;
        self
    }

    /// How long to wait when no shard had new records (default 1 s; AWS
    /// allows 5 GetRecords a second per shard, shared by every reader).
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// Keep waiting for new records when `follow` is true (the default: a
    /// stream of changes never ends by itself); end once a round over every
    /// readable shard returns no record when false — catching up, for
    /// batch jobs and tests. DynamoDB may answer a GetRecords with no record
    /// now and then while a shard has later ones; a caught-up poller may
    /// therefore stop early: resume from its checkpoint to go on.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn follow(mut self, follow: bool) -> Self {
        self.follow = follow;
        self
    }

    /// At most `size` records per GetRecords request (1 to 1000; default:
    /// DynamoDB's, 1000).
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn batch_size(mut self, size: usize) -> Self {
        self.batch_size = Some(size.clamp(1, 1000) as i32);
        self
    }

    /// The stream read.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn stream_arn(&self) -> &str {
        &self.stream_arn
    }

    /// The records, in order within each shard, parents' before their
    /// children's. A failed request ends the stream with its error (the
    /// SDK has already retried what it retries): resume from your
    /// checkpoint. An expired shard iterator is renewed without one.
    ///
    /// See [`Poller`'s example](Poller#example) and [`new`](Poller::new)'s.
    pub fn records(self) -> impl Stream<Item = Result<Record<T>>> + Send + 'static
    where
        T: 'static,
    {
        let resumed = !self.checkpoint.is_empty();
        let reader = Reader {
            poller: self,
            resumed,
            shards: Vec::new(),
            queue: VecDeque::new(),
            described: None,
            rediscover: true,
            done: false,
        };
        stream::unfold(reader, |mut reader| async move {
            let next = reader.next().await?;
            Some((next, reader))
        })
    }
}

impl<T> fmt::Debug for Poller<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Poller")
            .field("stream_arn", &self.stream_arn)
            .field("start", &self.start)
            .field("checkpoint", &self.checkpoint)
            .field("follow", &self.follow)
            .finish_non_exhaustive()
    }
}

/// A running poller.
struct Reader<T> {
    poller: Poller<T>,
    /// Started from a checkpoint: new shards are read from their start.
    resumed: bool,
    shards: Vec<Shard>,
    /// Records read and not yet handed out.
    queue: VecDeque<Record<T>>,
    described: Option<Instant>,
    rediscover: bool,
    done: bool,
}

/// One shard, as far as it has been read.
#[derive(Debug)]
struct Shard {
    id: String,
    parent: Option<String>,
    iterator: Option<String>,
    /// The last sequence number read (from the checkpoint at first).
    last: Option<String>,
    /// Read to its end: DynamoDB closed it and returned no next iterator.
    finished: bool,
}

impl<T: CollectionItem> Reader<T> {
    async fn next(&mut self) -> Option<Result<Record<T>>> {
        loop {
            if let Some(record) = self.queue.pop_front() {
                return Some(Ok(record));
            }
            if self.done {
                return None;
            }
            if let Err(err) = self.round().await {
                self.done = true;
                return Some(Err(err));
            }
        }
    }

    /// One GetRecords on every shard that may be read now.
    async fn round(&mut self) -> Result<()> {
        let stale = self
            .described
            .is_none_or(|at| at.elapsed() >= REDISCOVER_EVERY);
        if self.rediscover || stale {
            self.describe().await?;
        }
        let readable: Vec<usize> = (0..self.shards.len())
            .filter(|&i| self.readable(i))
            .collect();
        let mut progressed = false;
        for i in readable {
            progressed |= self.read(i).await?;
        }
        if !progressed {
            if self.poller.follow {
                pause(&self.poller.client, self.poller.poll_interval).await;
                // A stream whose every shard is closed gets children (or
                // was disabled): look again.
                self.rediscover |= self.shards.iter().all(|shard| shard.finished);
            } else {
                self.done = true;
            }
        }
        Ok(())
    }

    /// Not finished, and its parent (if still listed) is: a child's
    /// records come after its parent's.
    fn readable(&self, i: usize) -> bool {
        let shard = &self.shards[i];
        let parent_done = match &shard.parent {
            None => true,
            Some(parent) => self
                .shards
                .iter()
                .find(|other| &other.id == parent)
                .is_none_or(|other| other.finished),
        };
        !shard.finished && parent_done
    }

    /// Lists the stream's shards (DescribeStream, every page) and adds the
    /// new ones.
    async fn describe(&mut self) -> Result<()> {
        let arn = self.poller.stream_arn.clone();
        let span = tracing::info_span!("ddb.stream.describe", stream = %arn, shards = tracing::field::Empty);
        async {
            let mut start = None;
            loop {
                let output = self
                    .poller
                    .client
                    .describe_stream()
                    .stream_arn(&arn)
                    .set_exclusive_start_shard_id(start.take())
                    .send()
                    .await
                    .map_err(|err| Error::stream_service("DescribeStream", &arn, err))?;
                let Some(description) = output.stream_description else {
                    break;
                };
                if self.poller.table_name.is_none() {
                    self.poller.table_name = description.table_name.clone();
                }
                for shard in description.shards.unwrap_or_default() {
                    let Some(id) = shard.shard_id else { continue };
                    if self.shards.iter().any(|known| known.id == id) {
                        continue;
                    }
                    let last = self
                        .poller
                        .checkpoint
                        .sequence_number(&id)
                        .map(str::to_owned);
                    self.shards.push(Shard {
                        id,
                        parent: shard.parent_shard_id,
                        iterator: None,
                        last,
                        finished: false,
                    });
                }
                match description.last_evaluated_shard_id {
                    Some(last) => start = Some(last),
                    None => break,
                }
            }
            tracing::Span::current().record("shards", self.shards.len());
            Ok::<_, Error>(())
        }
        .instrument(span)
        .await?;
        self.described = Some(Instant::now());
        self.rediscover = false;
        Ok(())
    }

    /// One GetRecords on shard `i`; whether it moved on (records read, the
    /// shard ended, or its iterator had to be renewed).
    async fn read(&mut self, i: usize) -> Result<bool> {
        let iterator = match self.shards[i].iterator.take() {
            Some(iterator) => iterator,
            None => self.iterator(i).await?,
        };
        let arn = self.poller.stream_arn.clone();
        let shard_id = self.shards[i].id.clone();
        let span = tracing::info_span!(
            "ddb.stream.get_records",
            stream = %arn,
            shard = %shard_id,
            records = tracing::field::Empty,
        );
        let answer = self
            .poller
            .client
            .get_records()
            .shard_iterator(iterator)
            .set_limit(self.poller.batch_size)
            .send()
            .instrument(span.clone())
            .await;
        let output = match answer {
            Ok(output) => output,
            Err(err) => {
                // Iterators last 15 minutes: take a new one after the last
                // record read.
                if matches!(
                    err.as_service_error(),
                    Some(GetRecordsError::ExpiredIteratorException(_))
                ) {
                    tracing::debug!(parent: &span, "shard iterator expired; renewing it");
                    return Ok(true);
                }
                return Err(Error::stream_service("GetRecords", &arn, err));
            }
        };
        let records = output.records.unwrap_or_default();
        span.record("records", records.len());
        let read_any = !records.is_empty();
        let table = self.poller.table_name.as_deref();
        for record in records {
            let record = from_sdk_record::<T>(record, Some(&shard_id), table);
            if let Some(sequence_number) = &record.sequence_number {
                self.shards[i].last = Some(sequence_number.clone());
            }
            self.queue.push_back(record);
        }
        let shard = &mut self.shards[i];
        match output.next_shard_iterator {
            Some(next) => shard.iterator = Some(next),
            None => {
                shard.finished = true;
                self.rediscover = true;
            }
        }
        Ok(read_any || self.shards[i].finished)
    }

    /// A new iterator for shard `i`: after its last record read, else where
    /// the poller starts.
    async fn iterator(&mut self, i: usize) -> Result<String> {
        let shard = &self.shards[i];
        let (kind, after) = match &shard.last {
            Some(last) => (ShardIteratorType::AfterSequenceNumber, Some(last.clone())),
            None if self.resumed => (ShardIteratorType::TrimHorizon, None),
            None => match self.poller.start {
                StartAt::TrimHorizon => (ShardIteratorType::TrimHorizon, None),
                StartAt::Latest => (ShardIteratorType::Latest, None),
            },
        };
        let arn = &self.poller.stream_arn;
        let span = tracing::info_span!("ddb.stream.get_shard_iterator", stream = %arn, shard = %shard.id, kind = kind.as_str());
        let output = self
            .poller
            .client
            .get_shard_iterator()
            .stream_arn(arn)
            .shard_id(&shard.id)
            .shard_iterator_type(kind)
            .set_sequence_number(after)
            .send()
            .instrument(span)
            .await
            .map_err(|err| Error::stream_service("GetShardIterator", arn, err))?;
        match output.shard_iterator {
            Some(iterator) => Ok(iterator),
            None => Err(Repr::MalformedStream {
                stream: arn.clone(),
                detail: format!(
                    "GetShardIterator returned no iterator for shard {}",
                    shard.id
                ),
            }
            .into()),
        }
    }
}

/// Sleeps with the client's own async sleep (see `db::pause`).
async fn pause(client: &Client, duration: Duration) {
    match client.config().sleep_impl() {
        Some(sleep) => sleep.sleep(duration).await,
        None => std::future::ready(()).await,
    }
}
