//! Many workers, one job: worker processes sharing a backfill through
//! segment leases, one killed mid-way; a paused worker that resumes after
//! its lease was taken; clocks hours apart; lost answers of a claim and a
//! heartbeat; workers that disagree about the job.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::result::ConnectorError;
use ddb_entity::evolve::{LeaseTable, SegmentPosition, SharedJob};
use ddb_entity::local::LocalDynamo;
use ddb_entity::stream::sdk;
use ddb_entity::{Db, Entity, ErrorKind};
use futures_util::StreamExt;

use super::backfill::{After, ByCity, User, deployed, raw_items};
use crate::support::{Around, client_around, logged_client, read_body};

/// The table `db` with a stream of new and old images from now on.
async fn with_stream(db: &Db<After>) {
    let stream = StreamSpecification::builder()
        .stream_enabled(true)
        .stream_view_type(StreamViewType::NewAndOldImages)
        .build()
        .unwrap();
    db.client()
        .update_table()
        .table_name(db.table_name())
        .stream_specification(stream)
        .send()
        .await
        .expect("the stream is enabled");
}

/// Every stream record of `table` so far: its event name, by item key.
async fn records_by_key(
    dynamo: &LocalDynamo,
    table: &str,
) -> HashMap<(String, String), Vec<String>> {
    let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    let listed = streams
        .list_streams()
        .table_name(table)
        .send()
        .await
        .unwrap();
    let arn = listed.streams()[0].stream_arn().unwrap().to_owned();
    let described = streams
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .unwrap();
    let shards = described.stream_description().unwrap().shards().to_vec();
    let mut events: HashMap<(String, String), Vec<String>> = HashMap::new();
    for shard in shards {
        let mut iterator = streams
            .get_shard_iterator()
            .stream_arn(&arn)
            .shard_id(shard.shard_id().unwrap())
            .shard_iterator_type(sdk::types::ShardIteratorType::TrimHorizon)
            .send()
            .await
            .unwrap()
            .shard_iterator;
        while let Some(at) = iterator {
            let page = streams
                .get_records()
                .shard_iterator(at)
                .send()
                .await
                .unwrap();
            if page.records().is_empty() {
                break;
            }
            for record in page.records() {
                let keys = record.dynamodb().unwrap().keys().unwrap();
                let text = |name: &str| keys[name].as_s().unwrap().clone();
                let event = record.event_name().unwrap().as_str().to_owned();
                events
                    .entry((text("PK"), text("SK")))
                    .or_default()
                    .push(event);
            }
            iterator = page.next_shard_iterator;
        }
    }
    events
}

/// Every user is indexed by its city, and was modified exactly once since
/// the stream began: the backfill's one effect on it.
async fn every_user_rewritten_once(dynamo: &LocalDynamo, db: &Db<After>, users: u32) {
    let items = raw_items(db.client(), db.table_name()).await;
    let events = records_by_key(dynamo, db.table_name()).await;
    for id in 0..users {
        let key = User::key(id).unwrap();
        let key = (key.partition().to_owned(), key.sort().to_owned());
        let item = &items[&key];
        let user = User::from_item(item.clone()).unwrap();
        assert_eq!(
            item["GSI1PK"].as_s().unwrap(),
            &format!("CITY#{}", user.city),
            "user {id} is indexed"
        );
        assert_eq!(
            events.get(&key).map(Vec::as_slice),
            Some(&["MODIFY".to_owned()][..]),
            "user {id}: one effect"
        );
    }
    assert_eq!(events.len(), users as usize, "no other item was written");
}

/// A lease table, and the job `name` in it with `lease` as its duration.
async fn job(dynamo: &LocalDynamo, name: &str, lease: Duration) -> SharedJob {
    let leases = LeaseTable::new(dynamo.client(), dynamo.unique_table_name("leases"));
    leases.create_if_missing().await.unwrap();
    leases.job(name).lease_duration(lease)
}

/// A generator good enough to pick a victim and a moment (xorshift).
struct Draw(u64);

impl Draw {
    fn seeded() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Draw((nanos as u64) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A worker process: this test binary running [`worker_process`], its
/// `SHARED …` lines collected as they come.
struct WorkerProcess {
    name: String,
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl WorkerProcess {
    fn spawn(name: &str, endpoint: &str, table: &str, leases: &str, job: &str) -> Self {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "evolve::shared::worker_process",
                "--ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("DDB_ENDPOINT", endpoint)
            .env("SHARED_TABLE", table)
            .env("SHARED_LEASES", leases)
            .env("SHARED_JOB", job)
            .env("SHARED_WORKER", name)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("a worker process starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let stdout = child.stdout.take().unwrap();
        let collected = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(line) = line.strip_prefix("SHARED ") {
                    collected.lock().unwrap().push(line.to_owned());
                }
            }
        });
        WorkerProcess {
            name: name.to_owned(),
            child,
            lines,
        }
    }

    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    fn pages(&self) -> usize {
        self.lines()
            .iter()
            .filter(|l| l.starts_with("PAGE"))
            .count()
    }

    /// The segments this worker reported finishing.
    fn finished(&self) -> Vec<u32> {
        self.lines()
            .iter()
            .filter_map(|l| l.strip_prefix("FINISHED ")?.parse().ok())
            .collect()
    }
}

const SEGMENTS: u32 = 12;
const LEASE: Duration = Duration::from_secs(2);

/// One worker of a shared backfill, run in a process of its own by
/// [`a_backfill_shared_by_three_worker_processes_survives_one_killed_midway`]
/// (ignored otherwise): it prints a line per page and per finished
/// segment, and its totals at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a worker process of the shared-job test, run by it"]
async fn worker_process() {
    let Ok(table) = std::env::var("SHARED_TABLE") else {
        return;
    };
    let var = |name: &str| std::env::var(name).unwrap();
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<After>::new(dynamo.client(), table);
    let job = LeaseTable::new(dynamo.client(), var("SHARED_LEASES"))
        .job(var("SHARED_JOB"))
        .lease_duration(LEASE)
        .worker(var("SHARED_WORKER"));
    let mut events = Box::pin(
        db.backfill::<User>()
            .segments(SEGMENTS)
            .page_size(25)
            .concurrency(2)
            .shared(job)
            .events(),
    );
    let mut updated = 0;
    while let Some(event) = events.next().await {
        let event = event.expect("the worker's job goes on");
        println!("SHARED PAGE {} {}", event.segment, event.page.updated);
        if event.segment_done {
            println!("SHARED FINISHED {}", event.segment);
        }
        updated = event.totals.updated;
    }
    println!("SHARED END {updated}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_shared_by_three_worker_processes_survives_one_killed_midway() {
    const USERS: u32 = 900;
    let dynamo = LocalDynamo::start().await.unwrap();
    let (_old, db) = deployed(&dynamo, USERS).await;
    with_stream(&db).await;
    db.add_index::<ByCity>().await.unwrap();
    let job = job(&dynamo, "users-by-city", LEASE).await;
    let leases = job.table().name().to_owned();

    let mut draw = Draw::seeded();
    let victim = draw.below(3) as usize;
    let pages_before_kill = 1 + draw.below(2) as usize;
    eprintln!("figures: victim w{victim} killed after {pages_before_kill} page(s)");
    let mut workers: Vec<WorkerProcess> = (0..3)
        .map(|i| {
            WorkerProcess::spawn(
                &format!("w{i}"),
                dynamo.endpoint(),
                db.table_name(),
                &leases,
                job.name(),
            )
        })
        .collect();

    // The victim is killed (SIGKILL) once it has done a page or two.
    let started = Instant::now();
    while workers[victim].pages() < pages_before_kill {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the victim did no page"
        );
        assert!(
            workers[victim].child.try_wait().unwrap().is_none(),
            "the victim ended before it was killed: {:?}",
            workers[victim].lines()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    workers[victim].child.kill().unwrap();
    workers[victim].child.wait().unwrap();
    let at_kill = job.progress().await.unwrap();
    let victim_name = workers[victim].name.clone();
    let orphaned: Vec<u32> = at_kill
        .leases
        .iter()
        .filter(|l| {
            l.owner.as_deref() == Some(victim_name.as_str()) && l.position != SegmentPosition::Done
        })
        .map(|l| l.segment)
        .collect();
    assert!(!orphaned.is_empty(), "the victim held segments when killed");

    // The others finish the job, the victim's segments included.
    for (i, worker) in workers.iter_mut().enumerate() {
        if i == victim {
            continue;
        }
        let status = loop {
            if let Some(status) = worker.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "worker {} does not finish",
                worker.name
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(status.success(), "worker {} failed", worker.name);
        assert!(
            worker.lines().iter().any(|l| l.starts_with("END ")),
            "worker {} ran to the end of the job",
            worker.name
        );
    }

    let progress = job.progress().await.unwrap();
    assert!(progress.is_done(), "{progress:?}");
    // No segment finished twice: each reported once at most, and those no
    // survivor reported were finished by the victim before it died.
    let mut finished: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (i, worker) in workers.iter().enumerate() {
        if i != victim {
            for segment in worker.finished() {
                finished
                    .entry(segment)
                    .or_default()
                    .push(worker.name.clone());
            }
        }
    }
    for lease in &progress.leases {
        match finished.get(&lease.segment) {
            Some(by) => {
                assert_eq!(by.len(), 1, "segment {} finished by {by:?}", lease.segment);
                assert_eq!(lease.finished_by.as_ref(), Some(&by[0]));
            }
            None => assert_eq!(lease.finished_by.as_deref(), Some(victim_name.as_str())),
        }
    }
    // The victim's unfinished segments were taken over by the others.
    for segment in orphaned {
        let lease = &progress.leases[segment as usize];
        assert!(lease.taken_over >= 1, "segment {segment}: {lease:?}");
        assert_ne!(lease.finished_by.as_deref(), Some(victim_name.as_str()));
    }
    // Every item processed, each effect applied once.
    every_user_rewritten_once(&dynamo, &db, USERS).await;
    assert!(progress.counts["read"] >= u64::from(USERS));
    eprintln!(
        "figures: 3 worker processes, {} killed: job done in {:?}, {} takeovers",
        victim_name,
        started.elapsed(),
        progress.leases.iter().map(|l| l.taken_over).sum::<u64>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_worker_finds_its_segments_taken_and_saves_nothing_more() {
    const USERS: u32 = 300;
    let dynamo = LocalDynamo::start().await.unwrap();
    let (_old, db) = deployed(&dynamo, USERS).await;
    with_stream(&db).await;
    db.add_index::<ByCity>().await.unwrap();
    let job = job(&dynamo, "paused", LEASE).await;
    let leases = job.table().name().to_owned();

    // Worker A, every request it sends logged, holds both segments and
    // saves a page; then it is paused: nothing polls it (a stopped process,
    // a long pause), so it neither beats nor writes.
    let (a_client, a_log) = logged_client(&dynamo);
    let a_db = Db::<After>::new(a_client.clone(), db.table_name());
    let a_job = LeaseTable::new(a_client, leases.clone())
        .job(job.name())
        .lease_duration(LEASE)
        .worker("a");
    let mut a = Box::pin(
        a_db.backfill::<User>()
            .segments(2)
            .page_size(20)
            .concurrency(2)
            .writes(2)
            .max_writes(2)
            .shared(a_job)
            .events(),
    );
    let first = a.next().await.unwrap().unwrap();
    assert_eq!(first.page.pages, 1);
    a_log.clear();

    // Worker B sees A's counters stand still for a lease duration, takes
    // both segments over and finishes the job.
    let b = job.clone().worker("b");
    let b_started = Instant::now();
    let b_totals = db
        .backfill::<User>()
        .page_size(20)
        .concurrency(2)
        .shared(b)
        .send()
        .await
        .unwrap();
    assert!(b_started.elapsed() >= LEASE, "B waited out A's lease");
    let progress = job.progress().await.unwrap();
    assert!(progress.is_done());
    for lease in &progress.leases {
        assert_eq!(lease.finished_by.as_deref(), Some("b"));
        assert!(lease.taken_over >= 1, "{lease:?}");
        assert!(
            lease.lease >= 2,
            "claimed by A, then taken over by B: {lease:?}"
        );
    }

    // A resumes: it finds its leases lost and ends with the job, reporting
    // no page, saving no position and sending none of the job's writes but
    // those it had already let go before the pause (at most `max_writes`).
    let rest: Vec<_> = a.collect().await;
    assert!(rest.is_empty(), "A reports nothing more: {rest:?}");
    let saved_after = a_log
        .bodies("UpdateItem")
        .iter()
        .filter(|body| body["TableName"] == leases.as_str())
        .filter(|body| {
            body["UpdateExpression"]
                .as_str()
                .unwrap()
                .contains("#position")
        })
        .count();
    assert_eq!(saved_after, 0, "A saved no position after its lease passed");
    let writes_after: usize = ["UpdateItem", "BatchExecuteStatement", "TransactWriteItems"]
        .iter()
        .map(|op| {
            a_log
                .bodies(op)
                .iter()
                .filter(|body| body["TableName"] == db.table_name())
                .count()
        })
        .sum();
    assert!(
        writes_after <= 2,
        "A sent {writes_after} writes after its pause"
    );
    every_user_rewritten_once(&dynamo, &db, USERS).await;
    // B rewrote what A had not: A's saved page and the writes it made of
    // a page it never saved (which B found done) are the rest.
    assert!(first.page.updated + b_totals.updated <= u64::from(USERS));
    assert_eq!(
        b_totals.updated + b_totals.skipped,
        b_totals.read,
        "B read on from A's saved position"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_whose_clocks_are_hours_apart_take_no_live_lease_and_take_a_stopped_one() {
    const USERS: u32 = 240;
    let hour = Duration::from_secs(3600);
    let ahead = move || SystemTime::now() + hour;
    let behind = move || SystemTime::now() - hour;
    // A lease long enough that a loaded machine's heartbeats never miss it.
    let lease = Duration::from_secs(5);

    // Both alive: each beats on its own clock, and neither takes the
    // other's segments, whatever the heartbeat times written say.
    let dynamo = LocalDynamo::start().await.unwrap();
    let (_old, db) = deployed(&dynamo, USERS).await;
    db.add_index::<ByCity>().await.unwrap();
    let job = job(&dynamo, "skewed", lease).await;
    let a = job.clone().worker("ahead").with_clock(ahead);
    let b = job.clone().worker("behind").with_clock(behind);
    let (ra, rb) = tokio::join!(
        db.backfill::<User>()
            .segments(6)
            .page_size(10)
            .concurrency(1)
            .shared(a)
            .send(),
        db.backfill::<User>()
            .segments(6)
            .page_size(10)
            .concurrency(1)
            .shared(b)
            .send(),
    );
    assert_eq!(ra.unwrap().updated + rb.unwrap().updated, u64::from(USERS));
    let progress = job.progress().await.unwrap();
    assert!(progress.is_done());
    let now = SystemTime::now();
    for lease in &progress.leases {
        assert_eq!(lease.taken_over, 0, "{lease:?}");
        let at = lease.heartbeat_at.unwrap();
        match lease.finished_by.as_deref() {
            Some("ahead") => assert!(at > now + hour / 2, "{lease:?}"),
            Some("behind") => assert!(at < now - hour / 2, "{lease:?}"),
            other => panic!("finished by {other:?}"),
        }
    }

    // One stops (its stream dropped after a page): the other, its clock
    // two hours off, takes its segments over after a lease duration.
    let (_old, db) = deployed(&dynamo, USERS).await;
    db.add_index::<ByCity>().await.unwrap();
    let job = job_in(&job, "skewed-stop", lease);
    let stopped = {
        let a = job.clone().worker("ahead").with_clock(ahead);
        let mut events = Box::pin(
            db.backfill::<User>()
                .segments(2)
                .page_size(10)
                .concurrency(2)
                .shared(a)
                .events(),
        );
        events.next().await.unwrap().unwrap();
        Instant::now()
    };
    let b = job.clone().worker("behind").with_clock(behind);
    db.backfill::<User>()
        .concurrency(2)
        .page_size(10)
        .shared(b)
        .send()
        .await
        .unwrap();
    assert!(stopped.elapsed() >= lease / 2);
    let progress = job.progress().await.unwrap();
    assert!(progress.is_done());
    for lease in &progress.leases {
        assert_eq!(lease.finished_by.as_deref(), Some("behind"), "{lease:?}");
        assert_eq!(lease.taken_over, 1, "{lease:?}");
    }
}

/// The job `name` in the same lease table as `job`.
fn job_in(job: &SharedJob, name: &str, lease: Duration) -> SharedJob {
    job.table().job(name).lease_duration(lease)
}

/// Cuts the answer of the first claim and of the first heartbeat on the
/// lease table after the server applied them (the SDK sends them again).
#[derive(Default)]
struct CutFirstAnswers {
    cut: Mutex<Vec<&'static str>>,
}

impl Around for CutFirstAnswers {
    fn call(&self, inner: &SharedHttpConnector, request: HttpRequest) -> HttpConnectorFuture {
        let body = request.body().bytes().unwrap_or_default().to_vec();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let update = body["UpdateExpression"].as_str().unwrap_or_default();
        let kind = if update.contains("if_not_exists(#lease") {
            Some("claim")
        } else if update.starts_with("SET #beat = #beat + :one") && !update.contains("#position") {
            Some("heartbeat")
        } else {
            None
        };
        let cut = match kind {
            Some(kind) => {
                let mut cut = self.cut.lock().unwrap();
                let first = !cut.contains(&kind);
                if first {
                    cut.push(kind);
                }
                first
            }
            None => false,
        };
        let inner = inner.clone();
        HttpConnectorFuture::new(async move {
            let mut response: HttpResponse = inner.call(request).await?;
            if cut {
                let _ = read_body(response.take_body()).await;
                return Err(ConnectorError::io(
                    "injected: connection reset after the server answered".into(),
                ));
            }
            Ok(response)
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lost_answers_of_a_claim_and_a_heartbeat_leave_the_lease_with_its_worker() {
    const USERS: u32 = 200;
    let dynamo = LocalDynamo::start().await.unwrap();
    let (_old, db) = deployed(&dynamo, USERS).await;
    db.add_index::<ByCity>().await.unwrap();
    // Short, so heartbeats come due in a short job; longer on moto, whose
    // slower answers would otherwise close the worker's own fence.
    let lease = if dynamo.is_embedded() {
        Duration::from_millis(900)
    } else {
        Duration::from_secs(3)
    };
    let job = job(&dynamo, "lost-answers", lease).await;
    let leases = job.table().name().to_owned();
    let layer = Arc::new(CutFirstAnswers::default());
    let client = client_around(&dynamo, Arc::clone(&layer), true, "lost-answers", None);
    let a = LeaseTable::new(client.clone(), leases)
        .job(job.name())
        .lease_duration(lease)
        .worker("a");
    // One write at a time: long enough for heartbeats to come due.
    let totals = Db::<After>::new(client, db.table_name())
        .backfill::<User>()
        .segments(2)
        .page_size(20)
        .writes(1)
        .max_writes(1)
        .shared(a)
        .send()
        .await
        .unwrap();
    assert_eq!(totals.updated, u64::from(USERS));
    assert_eq!(
        *layer.cut.lock().unwrap(),
        ["claim", "heartbeat"],
        "both answers were lost"
    );
    let progress = job.progress().await.unwrap();
    assert!(progress.is_done());
    for lease in &progress.leases {
        assert_eq!(lease.lease, 1, "claimed once: {lease:?}");
        assert_eq!(lease.taken_over, 0);
        assert_eq!(lease.finished_by.as_deref(), Some("a"));
    }
}

#[tokio::test]
async fn workers_that_disagree_about_the_job_are_refused_before_any_write() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let (_old, db) = deployed(&dynamo, 30).await;
    db.add_index::<ByCity>().await.unwrap();
    let job = job(&dynamo, "agreed", LEASE).await;
    db.backfill::<User>()
        .segments(3)
        .shared(job.clone().worker("first"))
        .send()
        .await
        .unwrap();

    let other = db
        .backfill::<User>()
        .segments(5)
        .shared(job.clone().worker("second"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(other.kind(), ErrorKind::InvalidExpression);
    assert!(other.to_string().contains("3 segments"), "{other}");

    let resumed = db
        .backfill::<User>()
        .resume(job.progress().await.unwrap().checkpoint())
        .shared(job.clone().worker("third"))
        .send()
        .await
        .unwrap_err();
    assert!(
        resumed.to_string().contains("leave `.resume` out"),
        "{resumed}"
    );

    // A migration may not join a backfill's job.
    let migration = db
        .migrate_from(db.table_name(), |_: serde_json::Value, _| Ok(()))
        .shared(job.clone().worker("fourth"))
        .run()
        .await
        .unwrap_err();
    assert!(
        migration.to_string().contains("belong to a backfill"),
        "{migration}"
    );

    // Joining a finished job: nothing to do, nothing written.
    let late = db
        .backfill::<User>()
        .shared(job.clone().worker("late"))
        .send()
        .await
        .unwrap();
    assert_eq!(late.pages, 0);
}
