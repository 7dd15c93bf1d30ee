//! Secrets: random tokens, ids and invites from the operating system, compared in constant
//! time, and stored only as their SHA-256.

use sha2::{Digest as _, Sha256};

/// 32 bytes from the operating system's random source, in hex: a token or a session id.
pub(crate) fn random_secret() -> String {
    let mut bytes = [0u8; 32];
    // The OS random source failing leaves no safe way to go on.
    getrandom::fill(&mut bytes).expect("the operating system's random source failed");
    hex::encode(bytes)
}

/// Whether two secrets are the same, in a time that depends on their lengths only: a
/// guesser timing the answers learns nothing of how much of a guess was right.
pub(crate) fn same_secret(given: &str, secret: &str) -> bool {
    given.len() == secret.len()
        && given
            .bytes()
            .zip(secret.bytes())
            .fold(0u8, |differ, (a, b)| differ | (a ^ b))
            == 0
}

/// What is stored of a secret: its SHA-256, in hex.
pub(crate) fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_stored_as_their_sha256() {
        let (a, b) = (random_secret(), random_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(
            secret_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn secrets_are_compared_whole() {
        let secret = random_secret();
        assert!(same_secret(&secret, &secret.clone()));
        assert!(!same_secret(&secret[..63], &secret));
        let mut other = secret.clone().into_bytes();
        other[63] = if other[63] == b'0' { b'1' } else { b'0' };
        assert!(!same_secret(&String::from_utf8(other).unwrap(), &secret));
        assert!(!same_secret("", &secret));
    }
}
