//! The races a backfill must survive, made to happen every time: between
//! the scan's read of an item and the backfill's update of it, another
//! writer changes or deletes it. An SDK interceptor on the backfill's
//! client does that writer's work just before the UpdateItem leaves.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextMut;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
use serde_json::Value;

use super::backfill::{After, ByCity, User, deployed, raw_items};

/// Before the first UpdateItem of each user whose id is a multiple of 10,
/// increments its visits (id % 20 == 0) or deletes it (id % 20 == 10),
/// through a clean client.
#[derive(Debug, Clone)]
struct Interloper {
    clean: Db<After>,
    done: Arc<Mutex<HashSet<u32>>>,
}

impl Intercept for Interloper {
    fn name(&self) -> &'static str {
        "Interloper"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        if !target.ends_with(".UpdateItem") {
            return Ok(());
        }
        let body: Value = serde_json::from_slice(request.body().bytes().unwrap_or_default())?;
        let pk = body["Key"]["PK"]["S"].as_str().unwrap_or_default();
        let Some(id) = pk.strip_prefix("USER#").and_then(|n| n.parse::<u32>().ok()) else {
            return Ok(());
        };
        if id % 10 != 0 || !self.done.lock().unwrap().insert(id) {
            return Ok(());
        }
        let clean = self.clean.clone();
        tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().block_on(async move {
                let key = User::key(id).unwrap();
                if id % 20 == 0 {
                    clean
                        .update(key)
                        .add(User::fields().visits, 1)
                        .await
                        .map(drop)
                } else {
                    clean.delete(key).await.map(drop)
                }
            })
        })?;
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_between_read_and_update_are_never_overwritten_and_deletions_stay_deleted() {
    const USERS: u32 = 400;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, clean) = deployed(&dynamo, USERS).await;
    clean.add_index::<ByCity>().await.unwrap();
    let interloper = Interloper {
        clean: clean.clone(),
        done: Arc::default(),
    };
    let config = dynamo
        .config_builder()
        .interceptor(interloper.clone())
        .build();
    let db = Db::<After>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        clean.table_name(),
    );
    let totals = db
        .backfill::<User>()
        .segments(2)
        .page_size(50)
        .await
        .unwrap();

    let changed = (0..USERS).filter(|id| id % 20 == 0).count() as u64;
    let deleted = (0..USERS).filter(|id| id % 20 == 10).count() as u64;
    assert_eq!(totals.gone, deleted);
    assert_eq!(totals.updated, u64::from(USERS) - deleted);
    // Each changed or deleted user cost one refused update and a re-read.
    assert_eq!(totals.retries, changed + deleted);
    let items = raw_items(clean.client(), clean.table_name()).await;
    assert_eq!(items.len() as u64, u64::from(USERS) - deleted);
    for item in items.values() {
        let user = User::from_item(item.clone()).unwrap();
        assert_ne!(user.id % 20, 10, "deleted user {} came back", user.id);
        let visits = u64::from(user.id % 20 == 0);
        assert_eq!(
            user.visits, visits,
            "user {}: the interloper's write was lost",
            user.id
        );
        assert!(item.contains_key("GSI1PK"));
    }
    eprintln!(
        "figures: {USERS} users, {changed} changed and {deleted} deleted between read and update: {} updated, {} gone, {} retries",
        totals.updated, totals.gone, totals.retries
    );
}
