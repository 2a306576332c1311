//! How long a worker may still write under a lease it holds.
//!
//! No worker ever compares its clock with another's. A worker takes over
//! a lease only after seeing its heartbeat counter unchanged for a whole
//! lease duration on its *own* monotonic clock; that observation began
//! after the owner's last heartbeat was written, so after the owner sent
//! it. The owner therefore stops sending writes a margin before one lease
//! duration has passed since it *sent* its last acknowledged heartbeat:
//! by then nobody can have taken the lease over, whatever the two clocks'
//! wall times say (only their rates must roughly agree, which the margin
//! covers). A write already on its way when the fence closes, and any
//! write delayed in the network, is not stopped by this: it is stopped, or
//! made harmless, by its own condition on the item.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The part of a lease duration an owner may write after sending a
/// heartbeat: five sixths; the sixth left covers clocks that run at
/// slightly different rates and a takeover that is quick to be sent.
const VALID_SHARE: (u32, u32) = (5, 6);

/// A segment this worker holds, and until when it may write under it.
#[derive(Debug)]
pub(crate) struct Fence {
    pub(crate) segment: u32,
    pub(crate) lease: u64,
    pub(crate) duration: Duration,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    valid_until: Instant,
    lost: bool,
}

impl Fence {
    /// The lease `lease` on `segment`, claimed by a request sent at `sent`.
    pub(crate) fn new(segment: u32, lease: u64, duration: Duration, sent: Instant) -> Self {
        Fence {
            segment,
            lease,
            duration,
            state: Mutex::new(State {
                valid_until: sent + valid_for(duration),
                lost: false,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether writes may still be sent under this lease: not lost, and
    /// not so long since the last acknowledged heartbeat was sent that
    /// another worker could have taken the lease.
    pub(crate) fn holds(&self) -> bool {
        let state = self.lock();
        !state.lost && Instant::now() < state.valid_until
    }

    /// A heartbeat sent at `sent` was acknowledged.
    pub(crate) fn renewed(&self, sent: Instant) {
        let mut state = self.lock();
        state.valid_until = state.valid_until.max(sent + valid_for(self.duration));
    }

    /// The lease is another worker's now.
    pub(crate) fn lose(&self) {
        self.lock().lost = true;
    }
}

fn valid_for(duration: Duration) -> Duration {
    duration * VALID_SHARE.0 / VALID_SHARE.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_closes_before_the_lease_could_be_taken_and_opens_on_a_heartbeat() {
        let duration = Duration::from_secs(6);
        let long_ago = Instant::now() - Duration::from_secs(5);
        let fence = Fence::new(3, 1, duration, long_ago);
        assert!(!fence.holds(), "5 s of a 6 s lease: past five sixths");
        fence.renewed(Instant::now());
        assert!(fence.holds());
        // An older heartbeat's answer arriving late never shortens it.
        fence.renewed(long_ago);
        assert!(fence.holds());
        fence.lose();
        assert!(!fence.holds());
    }
}
