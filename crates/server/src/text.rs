//! What people type, checked and tidied before anyone else sees it: display names and chat lines (the
//! same rules for both), the key names are compared by, and the rule that keeps guests from passing for
//! the server's bots. Pure functions: the players, the names kept with a password, the tables' chat and
//! the ratings all use them. The database's own checks (a chat line's length) are never stricter than
//! these: what passes here is stored.

/// The longest display name, in visible characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The most combining marks a name may stack on one character: enough for any script's accents,
/// too few to draw over the lines around it.
const MAX_MARKS_PER_CHAR: usize = 3;

/// The most Unicode scalar values a chat line may hold, marks included: what the database's check on a
/// chat line allows (`migrations/*/…_chat.sql`: 1 to 300 characters as the database counts them).
const MAX_CHAT_STORED_CHARS: usize = 300;

/// Characters that draw nothing, though they are not spaces nor format characters: the Hangul fillers and the
/// blank Braille pattern. A name or chat line made only of them (and spaces) is blank to the eye.
const FILLERS: &[char] = &['\u{115F}', '\u{1160}', '\u{3164}', '\u{FFA0}', '\u{2800}'];

/// Checks and tidies a display name. The name is put in Unicode normal form C (so that the same name
/// typed two ways is stored one way), its runs of spaces become one space and it is trimmed; then it
/// must have 1 to [`MAX_NAME_CHARS`] visible characters (combining marks ride on the character before
/// them). Refused: control, format (bidirectional overrides, zero-width characters, tags),
/// private-use, unassigned and line-separator characters, which can hide or reorder what others see;
/// names that read as one of the server's own bots ("Bot 1", "bot 3"; see [`looks_like_a_bot`]), and the name
/// deleted accounts show under ("deleted player", in any case or look-alike letters).
/// Markup such as `<b>` is plain text to the server: clients show names as text.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_name(name: &str) -> Result<String, String> {
    let cleaned = clean_text(name, MAX_NAME_CHARS, None, "a display name")?;
    if looks_like_a_bot(&cleaned) {
        return Err("that name reads as one of the server's bots; choose another".into());
    }
    // The name a deleted account shows under (`store::DELETED_NAME`), or one that looks like it, is nobody's.
    if name_skeleton(&cleaned) == name_skeleton(crate::store::DELETED_NAME) {
        return Err("that name is the one deleted accounts show under; choose another".into());
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
    clean_text(text, crate::protocol::MAX_CHAT_CHARS, Some(MAX_CHAT_STORED_CHARS), "a chat message")
}

/// The most characters a report's or a ban's reason has (`migrations/*/…_moderation.sql`).
pub const MAX_REASON_CHARS: usize = 500;

/// Checks and tidies the reason of a report or a ban by the rules of a chat line ([`clean_chat`]), with up to
/// [`MAX_REASON_CHARS`] characters.
///
/// # Errors
/// A sentence saying what is wrong, safe to send back.
pub fn clean_reason(text: &str) -> Result<String, String> {
    clean_text(text, MAX_REASON_CHARS, Some(MAX_REASON_CHARS), "a reason")
}

/// The rules [`clean_name`] and [`clean_chat`] share, for `what` with at most `max` visible characters
/// (and at most `max_stored` scalar values, marks included, when given).
fn clean_text(text: &str, max: usize, max_stored: Option<usize>, what: &str) -> Result<String, String> {
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
    if cleaned.chars().all(|c| c == ' ' || FILLERS.contains(&c)) {
        return Err(format!("{what} needs at least one character that shows"));
    }
    if let Some(most) = max_stored
        && cleaned.chars().count() > most
    {
        return Err(format!("{what} has at most {most} characters, accents included"));
    }
    Ok(cleaned)
}

/// Whether `name` could pass for a bot the server seats: those are named "Bot" and a level
/// ("Bot · strong", [`crate::bots`]), and were named "Bot" and a number ("Bot 1") before bots had
/// levels. In any case, width or spacing, in letters that look the same ("Bоt" with a Cyrillic о, "Βot"
/// with a Greek Beta, "B0t"), with digits of any script or numerals ("Bot ١", "Bot Ⅰ"), or with a mark
/// between ("BOT-3", "Bot #2", "bot:easy"), either is taken. A number after another ("bot3-1") is not a
/// bot's name.
pub fn looks_like_a_bot(name: &str) -> bool {
    let chars: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
    // The shortest start that reads "bot" (a look-alike letter may be more than one character).
    let Some(rest) = (1..=chars.len().min(12))
        .find(|&n| name_skeleton(&chars[..n].iter().collect::<String>()) == "bot")
        .map(|n| chars[n..].iter().collect::<String>())
    else {
        return false;
    };
    let rest = rest.trim_start_matches(['-', '_', '.', ':', '#', '·', '•', '|', '/', '\u{2027}', '\u{30FB}']);
    let number = !rest.is_empty() && rest.chars().all(char::is_numeric);
    let level = romirami_game::Level::ALL.iter().any(|level| name_skeleton(rest) == name_skeleton(level.name()));
    number || level
}

/// A display name as names are compared for being the same name (`crate::names`): its compatibility form
/// (NFKC: full-width and other forms become the plain ones), fully case-folded, so that nobody can take a
/// kept name again in another case or width ("Straße" and "STRASSE", "Ανας" and "ΑΝΑΣ" are one name).
/// Signing in looks a name up by it. Applied to a [`clean_name`]d name.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    caseless::default_case_fold_str(&name.nfkc().collect::<String>()).nfc().collect()
}

/// A display name as names are compared for looking alike (`crate::names`): its skeleton as Unicode's TR39
/// defines it (letters that look alike become one: "Аnnа" with Cyrillic а, "Αnna" with a Greek Alpha and
/// "Anna"; "rn" and "m"), taken again after case folding so that it holds in any case ("B0t", "Βot" and "bot";
/// "l", "1", "I"). Nobody may take a name whose skeleton is a kept name's. Applied to a [`clean_name`]d name.
pub fn name_skeleton(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_security::confusable_detection::skeleton;

    let first: String = skeleton(&name.nfkc().collect::<String>()).collect();
    let folded = caseless::default_case_fold_str(&first);
    let second: String = skeleton(&folded).collect();
    caseless::default_case_fold_str(&second).nfc().collect()
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
            "B\u{43e}t 1",
            "Bot \u{661}",
            "Bot \u{2160}",
            "B0t 2",
            "\u{392}ot \u{b7} str\u{43e}ng",
        ] {
            assert!(clean_name(name).is_err(), "{name:?} reads as a bot");
        }
        for name in ["deleted player", "Deleted Player", "DELETED  PLAYER", "d\u{435}leted player"] {
            assert!(clean_name(name).is_err(), "{name:?} is the deleted accounts' name");
        }
        for name in ["Bot", "Bottom 1", "Robot 2", "Bot one", "Abbot 1", "bot3-1", "Bot strongest", "Bot · tough"] {
            assert!(clean_name(name).is_ok(), "{name:?} is a person's name");
        }
    }

    #[test]
    fn names_compare_in_any_case_and_width() {
        assert_eq!(name_key("Ana"), name_key("ana"));
        assert_eq!(name_key("\u{ff21}\u{ff2e}\u{ff21}"), name_key("ana"), "full width");
        assert_eq!(name_key("R\u{c9}MY"), name_key("r\u{e9}my"));
        assert_ne!(name_key("Ana"), name_key("Ana Lu"));
        assert_ne!(name_key("Ana"), name_key("Anna"));
    }

    #[test]
    fn names_compare_by_full_case_folding_and_look_alike_letters() {
        // Issue 40: "STRASSE" and "ΑΝΑΣ" were welcomed beside the kept "Straße" and "Ανας".
        assert_eq!(name_key("Stra\u{df}e"), name_key("STRASSE"));
        assert_eq!(name_key("\u{391}\u{3bd}\u{3b1}\u{3c2}"), name_key("\u{391}\u{39d}\u{391}\u{3a3}"));
        // "Аnnа" with Cyrillic а, and "Αnna" with a Greek Alpha, were welcomed beside the kept "Anna".
        assert_eq!(name_skeleton("\u{410}nn\u{430}"), name_skeleton("Anna"));
        assert_eq!(name_skeleton("\u{391}nna"), name_skeleton("Anna"));
        assert_eq!(name_skeleton("Anna"), name_skeleton("ANNA"));
        assert_eq!(name_skeleton("\u{392}ob"), name_skeleton("bob"), "a Greek capital Beta");
        assert_ne!(name_skeleton("Anna"), name_skeleton("Anne"));
    }

    #[test]
    fn names_and_chat_lines_that_show_nothing_are_refused() {
        // Issue 40: the Hangul fillers and the blank Braille pattern passed as names.
        for blank in ["\u{3164}", "\u{2800}", "\u{1160}", "\u{115f}", "\u{ffa0}", "\u{3164} \u{2800}"] {
            assert!(clean_name(blank).is_err(), "{blank:?} is refused as a name");
            assert!(clean_chat(blank).is_err(), "{blank:?} is refused as a chat line");
        }
        assert_eq!(clean_name("Ana\u{3164}"), Ok("Ana\u{3164}".to_owned()), "a filler beside letters shows them");
    }

    #[test]
    fn a_chat_line_passes_only_if_the_database_stores_it() {
        // Issue 40: 300 letters with combining marks passed, the database refused them, and the player was
        // told the server could not reach its database.
        let marked = "e\u{301}\u{302}".repeat(300);
        assert!(clean_chat(&marked).is_err());
        let composed = "\u{e9}".repeat(300);
        assert_eq!(clean_chat(&composed).map(|line| line.chars().count()), Ok(300));
        // é and a circumflex stay two characters once composed: 150 of them are 300 stored characters.
        assert!(clean_chat(&"e\u{301}\u{302}".repeat(150)).is_ok());
        assert!(clean_chat(&"e\u{301}\u{302}".repeat(151)).is_err());
    }

    #[test]
    fn markup_is_kept_as_text() {
        assert_eq!(clean_name("<img src=x onerror=a()>"), Ok("<img src=x onerror=a()>".to_owned()));
    }
}
