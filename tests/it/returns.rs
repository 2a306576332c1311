//! Return values (the old or new entity, typed) and consumed capacity on
//! every operation: metered for the caller and recorded in the span.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ddb_entity::{Capacity, Entity};
use serde::{Deserialize, Serialize};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::model::{Customer, CustomerView};
use crate::support::{App, logged_app_table};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version", updated_at = "updated")]
struct Doc {
    id: u32,
    text: String,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    updated: u64,
}

fn doc(text: &str, version: u64) -> Doc {
    Doc {
        id: 1,
        text: text.into(),
        version,
        updated: 0,
    }
}

#[tokio::test]
async fn writes_return_the_old_or_the_new_entity_typed_in_one_request() {
    let (_dynamo, db, log) = logged_app_table().await;
    let new = db.create(&doc("v1", 0)).returning_new().await.unwrap();
    assert_eq!((new.version, new.text.as_str()), (1, "v1"));
    assert!(new.updated > 0, "the maintained timestamp, as written");
    assert_eq!(log.operations(), ["PutItem"]);

    log.clear();
    let old = db
        .put(&doc("v2", 1))
        .returning_old()
        .await
        .unwrap()
        .unwrap();
    assert_eq!((old.version, old.text.as_str()), (1, "v1"));
    assert_eq!(log.operations(), ["PutItem"]);

    let f = Doc::fields();
    let before = db
        .update(Doc::key(1u32).unwrap())
        .set(f.text, "v3".into())
        .returning_old()
        .await
        .unwrap()
        .unwrap();
    assert_eq!((before.version, before.text.as_str()), (2, "v2"));
    let after = db
        .update(Doc::key(1u32).unwrap())
        .set(f.text, "v4".into())
        .await
        .unwrap();
    assert_eq!((after.version, after.text.as_str()), (4, "v4"));

    // An upsert that creates has no old entity.
    let created = db
        .upsert(Doc::key(2u32).unwrap())
        .set(f.text, "new".into())
        .returning_old()
        .await
        .unwrap();
    assert!(created.is_none());

    let deleted = db
        .delete(Doc::key(1u32).unwrap())
        .returning_old()
        .await
        .unwrap();
    assert_eq!(deleted.map(|d| d.text).as_deref(), Some("v4"));
    assert!(
        db.put(&Customer {
            customer_id: 1,
            name: "Ada".into()
        })
        .returning_old()
        .await
        .unwrap()
        .is_none()
    );
}

#[tokio::test]
async fn a_put_returning_the_old_entity_resent_with_its_token_applies_once() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let ada = |name: &str| Customer {
        customer_id: 7,
        name: name.into(),
    };
    db.put(&ada("Ada")).await.unwrap();
    let first = db
        .put(&ada("Grace"))
        .idempotency_token("rename-7")
        .returning_old()
        .await
        .unwrap();
    assert_eq!(first.map(|c| c.name).as_deref(), Some("Ada"));
    // The same call again: recognised, nothing applied, the old entity is
    // not its own first attempt's item.
    let again = db
        .put(&ada("Grace"))
        .idempotency_token("rename-7")
        .returning_old()
        .await
        .unwrap();
    assert!(again.is_none(), "{again:?}");
}

/// A `tracing` subscriber that keeps what operation spans record (and
/// which span is current, as a real one does: the library records on it).
#[derive(Default, Clone)]
struct Spans {
    next: Arc<AtomicU64>,
    names: Arc<Mutex<HashMap<u64, &'static Metadata<'static>>>>,
    entered: Arc<Mutex<Vec<u64>>>,
    /// (span name, field, value) of every `consumed_*` recorded.
    consumed: Arc<Mutex<Vec<Recorded>>>,
}

/// (span name, field, value).
type Recorded = (&'static str, &'static str, f64);

struct Consumed<'a>(&'a mut Vec<(&'static str, f64)>);

impl Visit for Consumed<'_> {
    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name().starts_with("consumed_") {
            self.0.push((field.name(), value));
        }
    }
    fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
}

impl Subscriber for Spans {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.names.lock().unwrap().insert(id, span.metadata());
        Id::from_u64(id)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut found = Vec::new();
        values.record(&mut Consumed(&mut found));
        let name = self.names.lock().unwrap()[&span.into_u64()].name();
        let mut consumed = self.consumed.lock().unwrap();
        consumed.extend(found.into_iter().map(|(f, v)| (name, f, v)));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, span: &Id) {
        self.entered.lock().unwrap().push(span.into_u64());
    }
    fn exit(&self, span: &Id) {
        let mut entered = self.entered.lock().unwrap();
        if let Some(at) = entered.iter().rposition(|id| *id == span.into_u64()) {
            entered.remove(at);
        }
    }
    fn current_span(&self) -> tracing_core::span::Current {
        let current = self.entered.lock().unwrap().last().copied();
        match current {
            Some(id) => {
                let metadata = self.names.lock().unwrap()[&id];
                tracing_core::span::Current::new(Id::from_u64(id), metadata)
            }
            None => tracing_core::span::Current::none(),
        }
    }
}

#[tokio::test]
async fn every_operation_meters_its_capacity_and_records_it_in_its_span() {
    let (dynamo, db, log) = logged_app_table().await;
    let spans = Spans::default();
    let _guard = tracing::subscriber::set_default(spans.clone());
    // Other tests, on other threads, first reach the library's span
    // callsites while no subscriber is interested; `tracing` can keep that
    // answer for a callsite registered while this one is being set. Asking
    // again before each operation makes the test independent of them.
    let fresh = tracing::callsite::rebuild_interest_cache;
    let capacity = Capacity::new();
    let metered = db.metered(&capacity);
    let ada = Customer {
        customer_id: 42,
        name: "Ada".into(),
    };
    log.clear();
    fresh();
    metered.put(&ada).await.unwrap();
    fresh();
    metered
        .get(Customer::key(42).unwrap())
        .consistent_read(true)
        .await
        .unwrap();
    fresh();
    metered
        .update(Customer::key(42).unwrap())
        .set(Customer::fields().name, "Ada L.".into())
        .await
        .unwrap();
    fresh();
    let _: CustomerView = metered
        .query(Customer::partition(42).unwrap())
        .collect()
        .await
        .unwrap();
    fresh();
    metered
        .query(Customer::partition(42).unwrap())
        .count()
        .await
        .unwrap();
    fresh();
    metered.batch_write().put(&ada).await.unwrap();
    fresh();
    let _: Vec<Customer> = metered
        .batch_get()
        .get(Customer::key(42).unwrap())
        .collect()
        .await
        .unwrap();
    fresh();
    metered.transact().put(&ada).await.unwrap();
    fresh();
    metered.delete(Customer::key(42).unwrap()).await.unwrap();
    // An unmetered handle is not counted.
    fresh();
    db.get(Customer::key(42).unwrap()).await.unwrap();

    let sent = log.operations().len() as u64;
    assert_eq!(capacity.requests(), sent - 1, "{:?}", log.operations());
    let consumed = spans.consumed.lock().unwrap().clone();
    let spans_with: Vec<&str> = {
        let mut names: Vec<&str> = consumed.iter().map(|(span, ..)| *span).collect();
        names.dedup();
        names
    };
    for span in [
        "ddb.put",
        "ddb.get",
        "ddb.update",
        "ddb.query",
        "ddb.batch_write",
        "ddb.batch_get",
        "ddb.transact",
        "ddb.delete",
    ] {
        assert!(spans_with.contains(&span), "{span}: {consumed:?}");
    }
    if dynamo.is_embedded() {
        // dynoxide reports DynamoDB's units: 1 WCU per write of a small
        // item (2 for a transactional one); 1 RCU for a strongly
        // consistent read, 0.5 for an eventually consistent one.
        assert_eq!(
            capacity.write_units(),
            6.0,
            "put, update, batch, 2 × transaction, delete"
        );
        assert_eq!(capacity.read_units(), 2.5, "get, query, count, batch get");
        let put = consumed
            .iter()
            .find(|(span, field, _)| *span == "ddb.put" && *field == "consumed_wcu");
        assert_eq!(put.map(|c| c.2), Some(1.0), "{consumed:?}");
    } else {
        assert!(
            capacity.write_units() + capacity.read_units() > 0.0,
            "{capacity:?}"
        );
    }
}
