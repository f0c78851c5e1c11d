//! How the PostgreSQL backend reads its values ([`Columns`]): ids, instants and flags are native
//! (`uuid`, `timestamptz`, `boolean`); a number is `int2` (seats, places), `int4` (counts) or `int8`,
//! each read as it is and widened.

use sqlx::postgres::PgRow;
use sqlx::{Row, TypeInfo, ValueRef};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::StoreError;
use crate::store::rows::{Columns, plain_columns};

impl Columns for PgRow {
    fn uuid(&self, column: &str) -> Result<Uuid, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn opt_uuid(&self, column: &str) -> Result<Option<Uuid>, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn int(&self, column: &str) -> Result<i64, StoreError> {
        self.opt_int(column)?.ok_or_else(|| StoreError::Corrupt(format!("column {column:?} is NULL")))
    }

    fn opt_int(&self, column: &str) -> Result<Option<i64>, StoreError> {
        let value = self.try_get_raw(column)?;
        if value.is_null() {
            return Ok(None);
        }
        // A type other than these three is refused by the `int8` decode: corrupt.
        Ok(Some(match value.type_info().name() {
            "INT2" => i64::from(self.try_get::<i16, _>(column)?),
            "INT4" => i64::from(self.try_get::<i32, _>(column)?),
            _ => self.try_get::<i64, _>(column)?,
        }))
    }

    fn instant(&self, column: &str) -> Result<OffsetDateTime, StoreError> {
        Ok(self.try_get(column)?)
    }

    fn opt_flag(&self, column: &str) -> Result<Option<bool>, StoreError> {
        Ok(self.try_get(column)?)
    }

    plain_columns!();
}
