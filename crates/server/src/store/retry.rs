//! Batch, then each alone: how a group commit keeps one bad write from failing the others.
//!
//! The [`Committer`](super::Committer) (actions) and [`Store::write`](super::Store) (every other write,
//! for the [`Writer`](super::Writer)) write many callers' rows in one transaction. When the database
//! refuses that transaction for one row (a taken number, a broken constraint), each row goes again in a
//! transaction of its own, so that only the bad one fails. When the database is unavailable, retrying
//! each row would only pile up failures: every row gets the error.

use std::future::Future;

use super::StoreError;

/// What one transaction of a batch gives: `Err` when it failed as a whole (nothing was written),
/// otherwise each row's outcome, in order.
pub(super) type Outcomes = Result<Vec<Result<(), StoreError>>, StoreError>;

/// Writes rows of `T` in one transaction. (A trait rather than a closure: the future of an async
/// closure that borrows its rows is not known to be `Send` for every borrow, and the committer and
/// the writer run in tasks of their own.)
pub(super) trait Transact<T> {
    /// Writes `rows` in one transaction.
    fn transact(&self, rows: &[T]) -> impl Future<Output = Outcomes> + Send;
}

/// Writes `rows` with `writer` (one transaction) and returns each row's outcome, in order. A batch the
/// database refuses, but for its unavailability, is written again a row at a time, so that the rows
/// that can be written are; `what` names the rows in the log line that says so.
pub(super) async fn batch_then_each_alone<T: Sync>(
    rows: &[T],
    what: &'static str,
    writer: &(impl Transact<T> + Sync),
) -> Vec<Result<(), StoreError>> {
    match writer.transact(rows).await {
        Ok(outcomes) => outcomes,
        Err(error @ StoreError::Unavailable(_)) => vec![Err(error); rows.len()],
        Err(error) if rows.len() == 1 => vec![Err(error)],
        Err(error) => {
            tracing::warn!(rows = rows.len(), %error, "a batch of {what} was refused; writing each alone");
            let mut outcomes = Vec::with_capacity(rows.len());
            for row in rows {
                outcomes.push(alone(row, writer).await);
            }
            outcomes
        }
    }
}

/// Writes one row with `writer`, in a transaction of its own.
pub(super) async fn alone<T: Sync>(row: &T, writer: &(impl Transact<T> + Sync)) -> Result<(), StoreError> {
    writer.transact(std::slice::from_ref(row)).await?.pop().unwrap_or(Ok(()))
}
