//! A bot for Romi Rami: a sensible move among the legal ones, without look-ahead. The server plays it
//! in the seat of a player who left, and the bot clients of `romirami-client` play it too.

use crate::action::Action;

/// A sensible choice among `legal`: the contract worth most (without the Star when it can), else the
/// biggest take, else a discard of the first cards offered, else pass. Never takes back.
pub fn choose(legal: &[Action]) -> Option<Action> {
    let best_contract = legal
        .iter()
        .filter_map(|action| match action {
            Action::Complete { contract, star, .. } => Some((contract.contract().score, !star, *action)),
            _ => None,
        })
        .max_by_key(|(score, no_star, _)| (*score, *no_star));
    if let Some((_, _, action)) = best_contract {
        return Some(action);
    }
    let biggest_take = legal
        .iter()
        .filter_map(|action| match action {
            Action::Take { cards } => Some((cards.len(), *action)),
            _ => None,
        })
        .max_by_key(|(len, _)| *len);
    if let Some((_, action)) = biggest_take {
        return Some(action);
    }
    legal
        .iter()
        .find(|a| matches!(a, Action::Discard { .. }))
        .or_else(|| legal.iter().find(|a| matches!(a, Action::Pass)))
        .copied()
}
