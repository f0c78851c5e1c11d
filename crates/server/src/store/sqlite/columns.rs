//! How the SQLite backend reads its values ([`Columns`]): an id is hyphenated TEXT, an instant INTEGER
//! microseconds since the Unix epoch, a flag INTEGER (a column without a declared type, such as a
//! subquery's, reads as the integer it holds).

use sqlx::Row;
use sqlx::sqlite::SqliteRow;
use time::OffsetDateTime;
use uuid::Uuid;

use super::uuid_from;
use crate::store::rows::{Columns, plain_columns};
use crate::store::{StoreError, codec};

impl Columns for SqliteRow {
    fn uuid(&self, column: &str) -> Result<Uuid, StoreError> {
        uuid_from(self.try_get(column)?)
    }

    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError> {
        self.try_get::<Option<&str>, _>(column)?.map(uuid_from).transpose()
    }

    fn int(&self, column: &str) -> Result<i64, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn opt_int(&self, column: &str) -> Result<Option<i64>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn instant(&self, column: &str) -> Result<OffsetDateTime, StoreError> {
        codec::from_micros(self.try_get(column)?)
    }

    fn opt_flag(&self, column: &str) -> Result<Option<bool>, StoreError> {
        Ok(self.try_get::<Option<i64>, _>(column)?.map(|flag| flag != 0))
    }

    plain_columns!();
}
