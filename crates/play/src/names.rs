//! Names that people read (a seat's name in an imported Swap 61 game file, and any display
//! name to come), made safe to show once for every front end.
//!
//! A name shown beside a board must look like what it is. Three tricks make one look like
//! another, and each is closed here:
//!
//! - the same letters in another encoding ("é" as one character or as "e" and a combining
//!   accent): every name is put in Unicode normal form C ([`normalized`]);
//! - characters that draw nothing or turn the text around them (bidi overrides such as
//!   U+202E, zero-width spaces and joiners, other default-ignorable characters, controls):
//!   refused ([`check_shown_name`]);
//! - letters of two scripts mixed (a Cyrillic "а" inside a Latin "admin"): refused, and a
//!   name whose Unicode TR39 confusable [`skeleton`] equals an account's is refused by the
//!   server unless it names that very account.

use unicode_normalization::UnicodeNormalization;
use unicode_security::{MixedScript, skeleton as tr39_skeleton};

/// Why a name cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// It holds a control character.
    #[error("name '{name}': character {position} is the control character {code}")]
    Control {
        /// The name, with the character escaped.
        name: String,
        /// Which character, counting from 1.
        position: usize,
        /// The character as `U+XXXX`.
        code: String,
    },
    /// It holds a character that draws nothing or reorders the text around it.
    #[error(
        "name '{name}': character {position} ({code}) is invisible or changes the direction of text"
    )]
    Invisible {
        /// The name, with the character escaped.
        name: String,
        /// Which character, counting from 1.
        position: usize,
        /// The character as `U+XXXX`.
        code: String,
    },
    /// It mixes the letters of several scripts.
    #[error("name '{0}' mixes letters of several scripts (such as Latin and Cyrillic)")]
    MixedScripts(String),
}

/// `text` in Unicode normal form C: the form every name is compared and stored in. (JSON
/// and the position texts are ASCII, so a whole file may be normalised before it is read.)
pub fn normalized(text: &str) -> String {
    text.nfc().collect()
}

/// Checks a name that will be shown to people, already [`normalized`]: no control
/// characters, nothing invisible or direction-changing, letters of one script (Japanese
/// kana with kanji count as one, as do digits and punctuation with any script).
pub fn check_shown_name(name: &str) -> Result<(), NameError> {
    for (index, c) in name.chars().enumerate() {
        let code = format!("U+{:04X}", u32::from(c));
        let shown = || name.escape_default().to_string();
        if c.is_control() {
            return Err(NameError::Control {
                name: shown(),
                position: index + 1,
                code,
            });
        }
        if is_invisible(c) {
            return Err(NameError::Invisible {
                name: shown(),
                position: index + 1,
                code,
            });
        }
    }
    if !name.is_single_script() {
        return Err(NameError::MixedScripts(name.to_owned()));
    }
    Ok(())
}

/// The key two names share when they look alike: the Unicode TR39 skeleton of the name in
/// lower case (account names are unique regardless of case), so "аdmin" (Cyrillic а),
/// "ADMIN" and "admin" have one key.
pub fn skeleton(name: &str) -> String {
    tr39_skeleton(&name.to_lowercase()).collect()
}

/// Whether `c` draws nothing or changes the order of the text around it: the Unicode
/// default-ignorable code points (which take in the bidi embeddings, overrides, isolates and
/// marks, the zero-width space, joiners and no-break space, and the variation selectors)
/// plus the Arabic letter mark.
fn is_invisible(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_of_any_one_script_are_shown() {
        for name in [
            "alice",
            "Ana-María",
            "Иван",
            "山田たろう",
            "player_7",
            "bot:3",
        ] {
            assert_eq!(check_shown_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn a_bidi_override_or_zero_width_character_is_refused_with_its_place() {
        let err = check_shown_name("evil\u{202E}nimda").unwrap_err();
        assert_eq!(
            err,
            NameError::Invisible {
                name: "evil\\u{202e}nimda".to_owned(),
                position: 5,
                code: "U+202E".to_owned(),
            }
        );
        for c in ['\u{200B}', '\u{200D}', '\u{2066}', '\u{FEFF}', '\u{00AD}'] {
            let name = format!("ad{c}min");
            assert!(
                matches!(
                    check_shown_name(&name),
                    Err(NameError::Invisible { position: 3, .. })
                ),
                "{name:?}"
            );
        }
        assert!(matches!(
            check_shown_name("a\u{7}b"),
            Err(NameError::Control { position: 2, .. })
        ));
    }

    #[test]
    fn a_cyrillic_letter_inside_a_latin_name_is_refused() {
        assert_eq!(
            check_shown_name("\u{430}dmin"),
            Err(NameError::MixedScripts("\u{430}dmin".to_owned()))
        );
    }

    #[test]
    fn look_alike_names_share_a_skeleton_and_others_do_not() {
        // Cyrillic а and е, and case, do not make a different name.
        assert_eq!(skeleton("\u{430}dmin"), skeleton("admin"));
        assert_eq!(skeleton("ADMIN"), skeleton("admin"));
        assert_eq!(skeleton("p\u{435}ter"), skeleton("peter"));
        assert_ne!(skeleton("adam"), skeleton("admin"));
    }

    #[test]
    fn both_encodings_of_an_accent_normalise_to_one_name() {
        let composed = "Jos\u{E9}";
        let decomposed = "Jose\u{301}";
        assert_ne!(composed, decomposed);
        assert_eq!(normalized(decomposed), composed);
        assert_eq!(normalized(composed), composed);
    }
}
