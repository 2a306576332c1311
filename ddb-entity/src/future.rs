//! The one future type every operation builder turns into on `.await`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::error::Result;

/// The future of an operation: what `db.get(key).await` (every builder's
/// [`IntoFuture`](std::future::IntoFuture)) polls. It is `Send`, so
/// operations run on multi-threaded executors and inside spawned tasks.
///
/// ```
/// # use ddb_entity::{Db, Entity, op::OpFuture};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
/// fn spawnable<F: std::future::Future + Send>(_: F) {}
/// fn read(db: &Db<App>) -> ddb_entity::Result<()> {
///     let future: OpFuture<'_, Option<Customer>> = std::future::IntoFuture::into_future(db.get(Customer::key(1)?));
///     spawnable(future);
///     Ok(())
/// }
/// ```
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct OpFuture<'a, T>(Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>);

impl<'a, T> OpFuture<'a, T> {
    pub(crate) fn new(future: impl Future<Output = Result<T>> + Send + 'a) -> Self {
        OpFuture(Box::pin(future))
    }
}

impl<T> Future for OpFuture<'_, T> {
    type Output = Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.0.as_mut().poll(cx)
    }
}

impl<T> fmt::Debug for OpFuture<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OpFuture")
    }
}

/// `IntoFuture` for a builder whose `send(self)` is an `async fn`: one
/// impl shape, one set of bounds, for every operation:
/// `into_future!(['db, E: Entity] Get<'db, E> => Option<E>);`.
macro_rules! into_future {
    ([$($generics:tt)*] $builder:ty => $output:ty) => {
        impl<$($generics)*> ::std::future::IntoFuture for $builder {
            type Output = $crate::error::Result<$output>;
            type IntoFuture = $crate::future::OpFuture<'db, $output>;

            fn into_future(self) -> Self::IntoFuture {
                $crate::future::OpFuture::new(self.send())
            }
        }
    };
}

pub(crate) use into_future;
