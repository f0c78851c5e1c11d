//! What a push says, in the language of the device it goes to (the one the web client was in when it
//! subscribed): English, French or Italian.

use super::NoticeKind;

/// The languages notifications are written in; another asked for is English.
pub const LANGUAGES: &[&str] = &["en", "fr", "it"];

/// The language of `asked`, if one of [`LANGUAGES`] (`fr-CH` is French), else English.
pub fn language(asked: &str) -> &'static str {
    let base = asked.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    LANGUAGES.iter().copied().find(|lang| *lang == base).unwrap_or("en")
}

/// A game's name as players know it.
fn game_title(game: &str) -> &str {
    match game {
        "romi-rami" => "Romi Rami",
        "rommi" => "Rommi",
        "rami" => "Rami",
        "rumino" => "Rumino",
        other => other,
    }
}

/// The notification's title and body for `kind` at a table of `game`, in `lang`.
pub fn title_and_body(kind: NoticeKind, game: &str, lang: &str) -> (String, String) {
    let game = game_title(game);
    let (title, body) = match (language(lang), kind) {
        ("fr", NoticeKind::Turn) => ("À vous de jouer", format!("{game} : c'est votre tour.")),
        ("fr", NoticeKind::Rematch) => ("Une revanche ?", format!("Votre table de {game} propose de rejouer.")),
        ("fr", NoticeKind::TournamentTable) => {
            ("Votre table de tournoi est prête", format!("{game} : votre partie commence."))
        }
        ("it", NoticeKind::Turn) => ("Tocca a te", format!("{game}: è il tuo turno.")),
        ("it", NoticeKind::Rematch) => ("La rivincita?", format!("Il tuo tavolo di {game} propone di rigiocare.")),
        ("it", NoticeKind::TournamentTable) => {
            ("Il tuo tavolo del torneo è pronto", format!("{game}: la tua partita comincia."))
        }
        (_, NoticeKind::Turn) => ("Your turn", format!("{game}: it is your move.")),
        (_, NoticeKind::Rematch) => ("A rematch?", format!("Your {game} table offers to play again.")),
        (_, NoticeKind::TournamentTable) => {
            ("Your tournament table is ready", format!("{game}: your game starts now."))
        }
    };
    (title.to_owned(), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_is_written_in_the_devices_language_or_english() {
        assert_eq!(title_and_body(NoticeKind::Turn, "rommi", "fr-CH").0, "À vous de jouer");
        assert_eq!(title_and_body(NoticeKind::Turn, "rommi", "it").1, "Rommi: è il tuo turno.");
        assert_eq!(title_and_body(NoticeKind::Rematch, "romi-rami", "de").0, "A rematch?");
        assert_eq!(language("FR"), "fr");
        assert_eq!(language(""), "en");
    }
}
