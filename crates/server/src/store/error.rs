//! The six kinds of failure of the store, from sqlx's many.

/// What can go wrong in the store.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No such player, table or game.
    #[error("not found")]
    NotFound,
    /// The database cannot be reached (or the store was closed): nothing was written, try again later.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// A stored row does not parse: the database holds something this server did not write.
    #[error("corrupt data in the database: {0}")]
    Corrupt(String),
    /// A row with the same key is already stored (a unique constraint): for an action, its number
    /// in the game's log is taken.
    #[error("already stored: {0}")]
    Duplicate(String),
    /// The write's lease on its table is no longer the current one (another node has the table, or the
    /// lease ran out): nothing was written, and the writer must not act for the table any more.
    #[error("the table's lease is no longer this node's: {0}")]
    Fenced(String),
    /// Anything else, such as another constraint the write breaks.
    #[error("database error: {0}")]
    Other(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        use sqlx::Error as E;
        match error {
            E::RowNotFound => StoreError::NotFound,
            E::Io(_) | E::Tls(_) | E::PoolTimedOut | E::PoolClosed | E::WorkerCrashed => {
                StoreError::Unavailable(error.to_string())
            }
            E::ColumnDecode { .. } | E::Decode(_) | E::ColumnNotFound(_) | E::TypeNotFound { .. } => {
                StoreError::Corrupt(error.to_string())
            }
            E::Database(ref db) if is_unavailable_code(db.code().as_deref()) => {
                StoreError::Unavailable(error.to_string())
            }
            E::Database(ref db) if db.is_unique_violation() => StoreError::Duplicate(error.to_string()),
            _ => StoreError::Other(error.to_string()),
        }
    }
}

/// Database error codes that mean "the database cannot serve us now", not "this write is wrong":
/// SQLite's busy and locked (5, 6) and I/O or disk-full errors (10, 13, 14); PostgreSQL's connection
/// exceptions (class 08), insufficient resources (class 53), operator intervention (class 57, such as
/// a shutdown) and system errors (class 58).
fn is_unavailable_code(code: Option<&str>) -> bool {
    let Some(code) = code else { return false };
    // PostgreSQL's SQLSTATEs have five characters, the first two being the class.
    if code.len() == 5 {
        return ["08", "53", "57", "58"].iter().any(|class| code.starts_with(class));
    }
    // SQLite's codes are numbers; an extended code keeps its primary code in the low byte (517,
    // SQLITE_BUSY_SNAPSHOT, is a busy).
    code.parse::<u32>().is_ok_and(|number| matches!(number & 0xff, 5 | 6 | 10 | 13 | 14))
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(error: sqlx::migrate::MigrateError) -> StoreError {
        match error {
            sqlx::migrate::MigrateError::Execute(inner) => inner.into(),
            other => StoreError::Other(format!("migration failed: {other}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_locked_and_connection_errors_are_unavailability() {
        for code in ["5", "6", "517", "261", "10", "13", "14", "08006", "57P01", "53300"] {
            assert!(is_unavailable_code(Some(code)), "{code}");
        }
        for code in ["19", "2067", "23505", "42P01"] {
            assert!(!is_unavailable_code(Some(code)), "{code}");
        }
        assert!(!is_unavailable_code(None));
    }
}
