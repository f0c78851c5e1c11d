//! Analyses of finished games in the store: computed once on request (`crate::analyst`), kept as the JSON
//! the API serves, read back checked.

use romirami_game::{Analysis, Seat};

use super::backend::Analyses;
use super::{Store, StoreError};
use crate::protocol::TableId;

impl Store {
    /// The stored analysis of `seat` in the finished game `game`, if it was made.
    ///
    /// # Errors
    /// When the store cannot be read, or the stored text is not an analysis ([`StoreError::Corrupt`]).
    pub async fn analysis(&self, game: TableId, seat: Seat) -> Result<Option<Analysis>, StoreError> {
        let text: Option<String> = dispatch!(self, s => s.analysis(game, i16::from(seat.0)).await)?;
        text.map(|text| {
            serde_json::from_str(&text).map_err(|e| StoreError::Corrupt(format!("the analysis of {game}: {e}")))
        })
        .transpose()
    }

    /// Keeps the analysis of `seat` in `game` (a second one of the same seat is ignored: both come from
    /// the same record).
    ///
    /// # Errors
    /// When the write fails.
    pub async fn put_analysis(&self, game: TableId, seat: Seat, analysis: &Analysis) -> Result<(), StoreError> {
        let text = serde_json::to_string(analysis).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        dispatch!(self, s => s.put_analysis(game, i16::from(seat.0), &text).await)
    }
}
