//! Passwords: argon2id on the blocking pool, a bounded number at a time. The hasher is
//! shared through `AppState`; who is calling is `crate::auth`'s business.

use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use tokio::sync::Semaphore;

use crate::secret::random_secret;

/// Hashes and checks passwords on the blocking pool, a bounded number at a time: argon2id
/// takes tens of milliseconds and ~19 MiB each, which must starve neither the async workers
/// nor the memory.
#[derive(Clone, Debug)]
pub(crate) struct Passwords {
    permits: Arc<Semaphore>,
    /// A hash of no one's password, checked when the name is unknown, so that a login takes
    /// as long whether the account exists or not.
    decoy: Arc<str>,
}

impl Passwords {
    /// Up to `parallel` hashes at once.
    pub(crate) async fn new(parallel: usize) -> anyhow::Result<Passwords> {
        let permits = Arc::new(Semaphore::new(parallel.max(1)));
        let decoy = run_hash(&permits, random_secret()).await?;
        Ok(Passwords {
            permits,
            decoy: decoy.into(),
        })
    }

    /// The PHC string (argon2id, a fresh salt) of a password.
    pub(crate) async fn hash(&self, password: String) -> anyhow::Result<String> {
        run_hash(&self.permits, password).await
    }

    /// Whether `password` matches `hash`; with no hash, checks the decoy and says no.
    pub(crate) async fn verify(
        &self,
        password: String,
        hash: Option<String>,
    ) -> anyhow::Result<bool> {
        let known = hash.is_some();
        let hash = hash.unwrap_or_else(|| self.decoy.to_string());
        let _permit = self.permits.acquire().await?;
        let matches = tokio::task::spawn_blocking(move || {
            Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok()
        })
        .await?;
        Ok(known && matches)
    }
}

async fn run_hash(permits: &Semaphore, password: String) -> anyhow::Result<String> {
    let _permit = permits.acquire().await?;
    tokio::task::spawn_blocking(move || {
        let hash: PasswordHash = Argon2::default()
            .hash_password(password.as_bytes())
            .map_err(|e| anyhow::anyhow!("argon2: {e}"))?;
        Ok(hash.to_string())
    })
    .await?
}
