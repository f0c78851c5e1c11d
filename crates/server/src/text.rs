//! What people type, checked and tidied before anyone else sees it: display names and chat lines (the
//! same rules for both), the key names are compared by, and the rule that keeps guests from passing for
//! the server's bots. Pure functions: the players, the names kept with a password, the tables' chat and
//! the ratings all use them.

/// The longest display name, in visible characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The most combining marks a name may stack on one character: enough for any script's accents,
/// too few to draw over the lines around it.
const MAX_MARKS_PER_CHAR: usize = 3;

/// Checks and tidies a display name. The name is put in Unicode normal form C (so that the same name
/// typed two ways is stored one way), its runs of spaces become one space and it is trimmed; then it
/// must have 1 to [`MAX_NAME_CHARS`] visible characters (combining marks ride on the character before
/// them). Refused: control, format (bidirectional overrides, zero-width characters, tags),
/// private-use, unassigned and line-separator characters, which can hide or reorder what others see;
/// and names that read as one of the server's own bots ("Bot 1", "bot 3"; see [`looks_like_a_bot`]).
/// Markup such as `<b>` is plain text to the server: clients show names as text.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned = clean_text(name, MAX_NAME_CHARS, "a display name")?;
    if looks_like_a_bot(&cleaned) {
        return Err("that name reads as one of the server's bots; choose another".into());
    }
    Ok(cleaned)
}

/// Checks and tidies a chat message by the same rules as a display name ([`clean_name`]: normal form
/// C, runs of spaces made one, the same characters refused), with up to
/// [`crate::protocol::MAX_CHAT_CHARS`] visible characters; a message may read like anything.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_chat(text: &str) -> Result<String, String> {
    clean_text(text, crate::protocol::MAX_CHAT_CHARS, "a chat message")
}

/// The rules [`clean_name`] and [`clean_chat`] share, for `what` with at most `max` visible characters.
fn clean_text(text: &str, max: usize, what: &str) -> Result<String, String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory as G, GeneralCategoryGroup, UnicodeGeneralCategory};

    let mut cleaned = String::with_capacity(text.len());
    let (mut visible, mut marks) = (0, 0);
    for c in text.nfc() {
        match c.general_category() {
            G::Control
            | G::Format
            | G::PrivateUse
            | G::Surrogate
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator => {
                return Err(format!(
                    "{what} cannot hold invisible, control or private-use characters (U+{:04X})",
                    u32::from(c)
                ));
            }
            G::SpaceSeparator => {
                if !cleaned.is_empty() && !cleaned.ends_with(' ') {
                    cleaned.push(' ');
                }
                marks = 0;
            }
            _ if c.general_category_group() == GeneralCategoryGroup::Mark => {
                marks += 1;
                if cleaned.is_empty() || cleaned.ends_with(' ') || marks > MAX_MARKS_PER_CHAR {
                    return Err(format!("{what}'s accents must each sit on a letter, a few at most"));
                }
                cleaned.push(c);
            }
            _ => {
                visible += 1;
                marks = 0;
                cleaned.push(c);
            }
        }
        if visible > max {
            return Err(format!("{what} has at most {max} characters"));
        }
    }
    let cleaned = cleaned.trim_end().to_owned();
    if cleaned.is_empty() {
        return Err(format!("{what} needs at least one character"));
    }
    Ok(cleaned)
}

/// Whether `name` could pass for a bot the server seats: those are named "Bot" and a level
/// ("Bot · strong", [`crate::bots`]), and were named "Bot" and a number ("Bot 1") before bots had
/// levels. In any case, width (compatibility form: "ｂｏｔ２") or spacing, or with a mark between
/// ("BOT-3", "Bot #2", "bot:easy"), either is taken. A number after another ("bot3-1") is not a bot's
/// name.
pub fn looks_like_a_bot(name: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;

    let folded: String = name.nfkc().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect();
    let Some(rest) = folded.strip_prefix("bot") else { return false };
    let rest = rest.trim_start_matches(['-', '_', '.', ':', '#', '·', '•', '|', '/']);
    let number = !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit());
    number || romirami_game::Level::from_name(rest).is_some()
}

/// A display name as names are compared for a claim (`crate::names`): in Unicode compatibility form
/// (NFKC: full-width and other look-alike forms become the plain ones) and lower case, so that nobody
/// can take a claimed name again in another case or width. Applied to a [`clean_name`]d name.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    // Lower-casing can leave a string out of the normal form: normalize once more.
    name.nfkc().flat_map(char::to_lowercase).collect::<String>().nfkc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(clean_name("  Ana "), Ok("Ana".to_owned()));
        assert_eq!(clean_name("Ana \u{3000}  Lu"), Ok("Ana Lu".to_owned()), "runs of spaces become one");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(25)).is_err());
        assert_eq!(clean_name(&"x".repeat(24)), Ok("x".repeat(24)));
        assert!(clean_name("a\nb").is_err());
    }

    #[test]
    fn names_are_stored_in_one_normal_form() {
        // "é" as e and a combining acute becomes the one character é.
        assert_eq!(clean_name("Re\u{301}my"), Ok("R\u{e9}my".to_owned()));
        // Accents ride on their letter: 24 letters with accents are 24 characters.
        assert!(clean_name(&"e\u{301}\u{302}".repeat(24)).is_ok());
        assert!(clean_name("a\u{301}\u{302}\u{303}\u{304}\u{305}").is_err(), "a stack of marks");
        assert!(clean_name("\u{301}a").is_err(), "a mark on nothing");
    }

    #[test]
    fn hidden_and_reordering_characters_are_refused() {
        for name in ["\u{200b}", "\u{202e}evil", "\u{e0001}tag", "a\u{200d}b", "\u{e000}", "a\u{2028}b", "\u{feff}Ana"]
        {
            assert!(clean_name(name).is_err(), "{name:?} is refused");
        }
    }

    #[test]
    fn names_of_the_servers_bots_are_refused() {
        for name in [
            "Bot 1",
            "bot 3",
            "BOT4",
            " Bot  2 ",
            "Bot-3",
            "Bot #2",
            "\u{ff42}\u{ff4f}\u{ff54}\u{ff12}",
            "Bot · strong",
            "bot:easy",
            "BOT NORMAL",
            "Bot•Strong",
        ] {
            assert!(clean_name(name).is_err(), "{name:?} reads as a bot");
        }
        for name in ["Bot", "Bottom 1", "Robot 2", "Bot one", "Abbot 1", "bot3-1", "Bot strongest", "Bot · tough"] {
            assert!(clean_name(name).is_ok(), "{name:?} is a person's name");
        }
    }

    #[test]
    fn names_compare_in_any_case_and_width() {
        assert_eq!(name_key("Ana"), "ana");
        assert_eq!(name_key("\u{ff21}\u{ff2e}\u{ff21}"), "ana", "full width");
        assert_eq!(name_key("R\u{c9}MY"), name_key("r\u{e9}my"));
        assert_eq!(name_key("Stra\u{df}e"), "stra\u{df}e");
        assert_ne!(name_key("Ana"), name_key("Ana Lu"));
    }

    #[test]
    fn markup_is_kept_as_text() {
        assert_eq!(clean_name("<img src=x onerror=a()>"), Ok("<img src=x onerror=a()>".to_owned()));
    }
}
