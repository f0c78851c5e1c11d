//! Locking the server's plain shared maps and counters.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`. A panic while it was held leaves plain data behind (maps, counts), never a half-made
/// invariant, so the server carries on with it rather than panic in turn.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
