//! A new access pattern on a live table: add the index, backfill it with a
//! progress bar, survive a crash halfway.
//!
//! Runs against the embedded DynamoDB (nothing to install), or against the
//! server named by `DDB_ENDPOINT`:
//!
//! ```sh
//! cargo run --example backfill --features evolve
//! ```
//!
//! The help desk stored tickets keyed by id. Now it wants "the open
//! tickets, oldest first" — a sparse index: only open tickets
//! carry `GSI1PK`, so the index *is* the open set. Yesterday's tickets
//! carry nothing, so the index starts empty for them: the backfill
//! rewrites each ticket into what today's code writes, with an update
//! conditioned on the ticket being unchanged since it was read, page by
//! page, saving a checkpoint after each. The first run is stopped halfway
//! (as a crash would); the second resumes from the saved checkpoint.

use std::time::Instant;

use ddb_entity::evolve::{BackfillEvent, Checkpoint};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
use futures_util::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The table as deployed last year.
    pub struct HelpDeskV1 { partition_key: "PK", sort_key: "SK" }
}

ddb_entity::table! {
    /// The same table with the index the new access pattern needs.
    pub struct HelpDesk {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Sparse: open tickets only, oldest first.
            pub Open = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// Last year's ticket: in no index.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = HelpDeskV1, pk = "TICKET#{id}", sk = "TICKET")]
struct OldTicket {
    id: u32,
    title: String,
    opened_on: Option<u32>,
}

/// Today's ticket: open ones are in `Open`, by the day they opened.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = HelpDesk, pk = "TICKET#{id}", sk = "TICKET")]
#[entity(index = Open, pk = "OPEN", sk = "{opened_on}#{id}")]
struct Ticket {
    id: u32,
    title: String,
    /// `None` once closed: the ticket leaves the index.
    opened_on: Option<u32>,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

const TICKETS: u32 = 3000;

fn bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{prefix:>8} [{bar:40}] {pos}/{len} tickets read  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn show(bar: &ProgressBar, event: &BackfillEvent) {
    bar.inc(event.page.read);
    let t = event.totals;
    bar.set_message(format!(
        "{} updated, {} already done, {} retries, segments done {}/{}",
        t.updated,
        t.skipped,
        t.retries,
        event.checkpoint.segments_done(),
        event.checkpoint.segments()
    ));
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    let name = dynamo.unique_table_name("backfill");

    // Last year: the table and its tickets, one in five still open.
    let old = Db::<HelpDeskV1>::new(dynamo.client(), name.clone());
    old.create_table_if_missing().await?;
    let mut batch = old.batch_write();
    for id in 0..TICKETS {
        let opened_on = (id % 5 == 0).then_some(20260101 + id % 28);
        batch = batch.put(&OldTicket {
            id,
            title: format!("ticket {id}"),
            opened_on,
        });
    }
    batch.await?;
    println!("{TICKETS} tickets written by last year's code");

    // Today: the index, then the backfill.
    let db = Db::<HelpDesk>::new(dynamo.client(), name);
    let added = db.add_index::<Open>().await?;
    println!("index GSI1: {added:?}, ACTIVE");
    let open: Vec<Ticket> = db.query(Ticket::open_partition()?).all().await?;
    println!(
        "open tickets in the index before the backfill: {}",
        open.len()
    );

    // Run 1, stopped after 12 pages as if the process died; the last
    // checkpoint was saved (here: in a string; in production: a file, a
    // table item, a job store).
    let started = Instant::now();
    let run1 = bar(u64::from(TICKETS));
    run1.set_prefix("run 1");
    let mut saved: Option<String> = None;
    {
        let mut events = Box::pin(db.backfill::<Ticket>().segments(4).page_size(100).events());
        for _ in 0..12 {
            let Some(event) = events.next().await else {
                break;
            };
            let event = event?;
            show(&run1, &event);
            saved = Some(event.checkpoint.to_string());
        }
    }
    run1.abandon_with_message("stopped (crash)");

    // Run 2: resume from the checkpoint; pages the first run wrote after
    // it are found done and skipped.
    let checkpoint: Checkpoint = saved.as_deref().unwrap_or("ckpt1;4;S,S,S,S").parse()?;
    let run2 = bar(u64::from(TICKETS));
    run2.set_prefix("run 2");
    run2.set_position(run1.position());
    let mut events = Box::pin(
        db.backfill::<Ticket>()
            .resume(checkpoint)
            .page_size(100)
            .events(),
    );
    let mut totals = None;
    while let Some(event) = events.next().await {
        let event = event?;
        show(&run2, &event);
        totals = Some(event.totals);
    }
    run2.finish();
    let totals = totals.unwrap_or_default();
    println!(
        "resumed run: {} pages, {} updated, {} already done ({:?} in all)",
        totals.pages,
        totals.updated,
        totals.skipped,
        started.elapsed()
    );

    let open: Vec<Ticket> = db.query(Ticket::open_partition()?).all().await?;
    println!(
        "open tickets in the index after the backfill: {} (oldest: {:?})",
        open.len(),
        open.first().map(|t| (&t.title, t.opened_on))
    );
    assert_eq!(open.len() as u32, TICKETS / 5);
    // Nothing left to do.
    let again = db.backfill::<Ticket>().await?;
    println!(
        "a third run: {} updated, {} skipped",
        again.updated, again.skipped
    );
    Ok(())
}
