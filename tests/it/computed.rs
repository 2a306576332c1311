//! Index keys computed from fields, and index membership decided by a
//! predicate: declared on the entity, written by every put, moved by every
//! update that touches what they read, verified by every read. Big Time
//! Deals keys deals by the *day* of a timestamp; GitHub keys a repository
//! by its fork family, differently for a fork and for its source; a
//! helpdesk's open tickets are the index of exactly the open tickets.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use ddb_entity::{Entity, KeyPart};
use serde::{Deserialize, Serialize};

use crate::support::{App, Gsi1, Gsi2, app_table, stored_item};

/// A deal, in the index of its day (`date_of` its creation instant).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DEAL#{deal_id}", sk = "DEAL#{deal_id}")]
#[entity(computed = day: NaiveDate = ddb_entity::key::date_of(created_at))]
#[entity(index = Gsi1, pk = "DEALS#{day}", sk = "DEAL#{created_at}#{deal_id}")]
pub struct Deal {
    pub deal_id: String,
    pub created_at: DateTime<Utc>,
    pub title: String,
}

/// Where a repository stands in its fork family.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
// Renamed to codes that sort as declared: the source before its forks.
pub enum Role {
    #[key(rename = "0-SOURCE")]
    Source,
    #[key(rename = "1-FORK")]
    Fork,
}

/// A repository: in the index of its family (its source's name, or its own
/// when it is no fork), keyed as the source or as a fork: one Query reads
/// a repository and then its forks.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "REPO#{owner}#{name}", sk = "REPO#{owner}#{name}")]
#[entity(computed = family: String = Repo::family(owner, name, source))]
#[entity(computed = role: Role = Repo::role(source))]
#[entity(index = Gsi2, pk = "FAMILY#{family}", sk = "{role}#{owner}")]
pub struct Repo {
    pub owner: String,
    pub name: String,
    /// `owner/name` of the repository this one forks.
    pub source: Option<String>,
}

impl Repo {
    fn family(owner: &str, name: &str, source: &Option<String>) -> String {
        source.clone().unwrap_or_else(|| format!("{owner}/{name}"))
    }

    fn role(source: &Option<String>) -> Role {
        if source.is_some() {
            Role::Fork
        } else {
            Role::Source
        }
    }
}

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Open,
    Pending,
    Closed,
}

/// A ticket is in the open-tickets index exactly while it is open: no
/// mirror `Option` field kept in sync by hand.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
#[entity(index = Gsi2, pk = "OPEN", sk = "{opened}#{id}", when = Ticket::is_open(status))]
pub struct Ticket {
    pub id: u32,
    pub status: Status,
    pub opened: u32,
    pub subject: String,
}

impl Ticket {
    fn is_open(status: &Status) -> bool {
        *status != Status::Closed
    }
}

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, day, hour, 0, 0).unwrap()
}

fn day(day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, day).unwrap()
}

#[tokio::test]
async fn deals_by_the_day_of_their_timestamp() -> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    for (id, created) in [("d1", at(14, 9)), ("d2", at(14, 23)), ("d3", at(15, 0))] {
        db.put(&Deal {
            deal_id: id.into(),
            created_at: created,
            title: id.to_uppercase(),
        })
        .await?;
    }
    let of_14: Vec<Deal> = db
        .query(Deal::gsi1_partition(day(14))?)
        .reverse(true)
        .collect()
        .await?;
    let ids: Vec<&str> = of_14.iter().map(|d| d.deal_id.as_str()).collect();
    assert_eq!(ids, ["d2", "d1"], "newest first, one Query for the day");

    // Moving the timestamp moves the deal to the other day's partition.
    let fields = Deal::fields();
    db.update(Deal::key("d2")?)
        .set(fields.created_at, at(15, 12))
        .await?;
    let stored = stored_item(&db, &Deal::key("d2")?).await;
    assert_eq!(
        stored["GSI1PK"].as_s().ok().map(String::as_str),
        Some("DEALS#2026-03-15")
    );
    let of_15: Vec<Deal> = db.query(Deal::gsi1_partition(day(15))?).collect().await?;
    let ids: Vec<&str> = of_15.iter().map(|d| d.deal_id.as_str()).collect();
    assert_eq!(ids, ["d3", "d2"]);
    // A field the key does not read moves nothing.
    db.update(Deal::key("d1")?)
        .set(fields.title, "cheap".to_owned())
        .await?;
    let of_14: Vec<Deal> = db.query(Deal::gsi1_partition(day(14))?).collect().await?;
    assert_eq!(of_14.len(), 1);
    assert_eq!(of_14[0].title, "cheap");
    Ok(())
}

#[tokio::test]
async fn a_fork_is_keyed_by_its_source() -> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    let repo = |owner: &str, source: Option<&str>| Repo {
        owner: owner.into(),
        name: "ddb".into(),
        source: source.map(str::to_owned),
    };
    db.put(&repo("alex", None)).await?;
    db.put(&repo("bo", Some("alex/ddb"))).await?;
    db.put(&repo("ann", Some("alex/ddb"))).await?;
    db.put(&repo("cy", None)).await?;

    // The source first (`0-SOURCE` < `1-FORK`), then its forks by owner.
    let family: Vec<Repo> = db
        .query(Repo::gsi2_partition("alex/ddb")?)
        .collect()
        .await?;
    let owners: Vec<&str> = family.iter().map(|r| r.owner.as_str()).collect();
    assert_eq!(owners, ["alex", "ann", "bo"]);
    let forks: Vec<Repo> = db
        .query(Repo::gsi2_partition("alex/ddb")?)
        .sk_begins_with(Repo::gsi2_sk().role(Role::Fork))
        .collect()
        .await?;
    assert_eq!(forks.len(), 2);

    // Detaching a fork re-keys it as a source of its own family.
    let fields = Repo::fields();
    db.update(Repo::key("bo", "ddb")?)
        .remove(fields.source)
        .await?;
    let own: Vec<Repo> = db.query(Repo::gsi2_partition("bo/ddb")?).collect().await?;
    assert_eq!(own, [repo("bo", None)]);
    let family: Vec<Repo> = db
        .query(Repo::gsi2_partition("alex/ddb")?)
        .collect()
        .await?;
    assert_eq!(family.len(), 2);
    Ok(())
}

#[tokio::test]
async fn the_open_tickets_index_holds_exactly_the_open_tickets() -> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    let ticket = |id: u32, status: Status| Ticket {
        id,
        status,
        opened: 20260300 + id,
        subject: format!("t{id}"),
    };
    db.put(&ticket(1, Status::Open)).await?;
    db.put(&ticket(2, Status::Closed)).await?;
    db.put(&ticket(3, Status::Pending)).await?;
    let open = |db: &ddb_entity::Db<App>| {
        let db = db.clone();
        async move {
            let open: Vec<Ticket> = db.query(Ticket::gsi2_partition()?).collect().await?;
            Ok::<Vec<u32>, ddb_entity::Error>(open.iter().map(|t| t.id).collect())
        }
    };
    assert_eq!(open(&db).await?, [1, 3]);
    let closed = stored_item(&db, &Ticket::key(2)?).await;
    assert!(!closed.contains_key("GSI2PK") && !closed.contains_key("GSI2SK"));

    // Closing needs nothing but the status: the predicate is false, so the
    // key attributes are removed whatever `opened` is.
    let fields = Ticket::fields();
    db.update(Ticket::key(1)?)
        .set(fields.status, Status::Closed)
        .await?;
    assert_eq!(open(&db).await?, [3]);

    // Reopening must say where the ticket sorts: without `opened` the
    // update is refused before it is sent.
    let err = db
        .update(Ticket::key(2)?)
        .set(fields.status, Status::Open)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::MissingKeyField);
    assert!(err.to_string().contains("opened"), "{err}");
    db.update(Ticket::key(2)?)
        .set(fields.status, Status::Open)
        .set(fields.opened, 20260399)
        .await?;
    assert_eq!(open(&db).await?, [3, 2]);

    // A field the index does not read moves nothing and needs nothing.
    db.update(Ticket::key(3)?)
        .set(fields.subject, "renamed".to_owned())
        .await?;
    // Changing `opened` of an open ticket needs the status too: the
    // predicate reads it.
    let err = db
        .update(Ticket::key(3)?)
        .set(fields.opened, 1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::MissingKeyField);
    Ok(())
}

#[tokio::test]
async fn an_upsert_puts_a_ticket_in_the_open_index_exactly_while_its_predicate_holds()
-> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    let f = Ticket::fields();
    let open = |db: &ddb_entity::Db<App>| {
        let db = db.clone();
        async move {
            let open: Vec<Ticket> = db.query(Ticket::gsi2_partition()?).collect().await?;
            Ok::<Vec<u32>, ddb_entity::Error>(open.iter().map(|t| t.id).collect())
        }
    };
    // Created open: in the index, keyed by `opened`.
    db.upsert(Ticket::key(1)?)
        .set(f.status, Status::Open)
        .set(f.opened, 5)
        .set(f.subject, "a".to_owned())
        .await?;
    // Created closed: `opened` given or not, never in the index.
    db.upsert(Ticket::key(2)?)
        .set(f.status, Status::Closed)
        .set(f.opened, 1)
        .set(f.subject, "b".to_owned())
        .await?;
    assert_eq!(open(&db).await?, [1]);
    let closed = stored_item(&db, &Ticket::key(2)?).await;
    assert!(!closed.contains_key("GSI2PK") && !closed.contains_key("GSI2SK"));
    // Left out of the upsert, the predicate's input cannot be known for a
    // ticket that may be new: refused before sending, nothing created.
    let err = db
        .upsert(Ticket::key(3)?)
        .set(f.subject, "c".to_owned())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::MissingKeyField);
    assert!(db.get(Ticket::key(3)?).await?.is_none());
    // An upsert must be able to create: a status alone is not a ticket.
    let err = db
        .upsert(Ticket::key(1)?)
        .set(f.status, Status::Closed)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::IncompleteUpsert);
    assert_eq!(open(&db).await?, [1]);
    // Closing an open ticket by upsert takes it out.
    db.upsert(Ticket::key(1)?)
        .set(f.status, Status::Closed)
        .set(f.opened, 5)
        .set_if_not_exists(f.subject, String::new())
        .await?;
    assert!(open(&db).await?.is_empty());
    let kept = db.get(Ticket::key(1)?).await?.expect("stored");
    assert_eq!((kept.opened, kept.subject.as_str()), (5, "a"));
    Ok(())
}
