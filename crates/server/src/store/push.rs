//! Web push's storage (`docs/NOTIFICATIONS.md`): the server's VAPID key, made once and
//! shared by every instance; the browsers' subscriptions per account; and which
//! subscriptions each notification was pushed to, so a retried notification is never
//! pushed twice to one.

use sqlx::Row as _;

use super::pool::Store;

/// A browser's push subscription as stored.
#[derive(Clone, Debug)]
pub(crate) struct Subscription {
    pub(crate) id: i64,
    /// The push service's URL for this browser.
    pub(crate) endpoint: String,
    /// The browser's P-256 public key (uncompressed point), base64url.
    pub(crate) p256dh: String,
    /// The browser's 16-byte authentication secret, base64url.
    pub(crate) auth: String,
    pub(crate) created_ms: i64,
}

/// Why a subscription was not stored.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SubscribeError {
    /// The account has this many subscriptions already.
    TooMany(u32),
}

impl Store {
    /// The VAPID key's PKCS#8 document (base64url): the stored one, or `made` stored now if
    /// there is none yet (the first start; two instances starting at once keep one).
    pub(crate) async fn push_key(&self, made: &str) -> anyhow::Result<String> {
        sqlx::query(
            "INSERT INTO push_keys (id, pkcs8, created_ms) VALUES (1, $1, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(made)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT pkcs8 FROM push_keys WHERE id = 1")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Stores a subscription of `account_id`'s. The same endpoint again (the browser
    /// subscribed anew, perhaps for another account on a shared device) replaces the old
    /// row; a new one is refused past `most` per account.
    pub(crate) async fn subscribe_push(
        &self,
        account_id: i64,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        most: u32,
    ) -> anyhow::Result<Result<(), SubscribeError>> {
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
            .bind(endpoint)
            .execute(&mut *tx)
            .await?;
        let held: i64 =
            sqlx::query("SELECT COUNT(*) FROM push_subscriptions WHERE account_id = $1")
                .bind(account_id)
                .fetch_one(&mut *tx)
                .await?
                .try_get(0)?;
        if held >= i64::from(most) {
            return Ok(Err(SubscribeError::TooMany(most)));
        }
        sqlx::query(
            "INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth, created_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(account_id)
        .bind(endpoint)
        .bind(p256dh)
        .bind(auth)
        .bind(self.now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Deletes `account_id`'s subscription of this endpoint, or all of them. How many went.
    pub(crate) async fn unsubscribe_push(
        &self,
        account_id: i64,
        endpoint: Option<&str>,
    ) -> anyhow::Result<u64> {
        let done = match endpoint {
            Some(endpoint) => {
                sqlx::query(
                    "DELETE FROM push_subscriptions WHERE account_id = $1 AND endpoint = $2",
                )
                .bind(account_id)
                .bind(endpoint)
                .execute(&self.pool)
                .await?
            }
            None => {
                sqlx::query("DELETE FROM push_subscriptions WHERE account_id = $1")
                    .bind(account_id)
                    .execute(&self.pool)
                    .await?
            }
        };
        Ok(done.rows_affected())
    }

    /// Deletes a subscription the push service said is gone (404 or 410).
    pub(crate) async fn drop_subscription(&self, id: i64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// `account_id`'s subscriptions, oldest first.
    pub(crate) async fn subscriptions(&self, account_id: i64) -> anyhow::Result<Vec<Subscription>> {
        let rows = sqlx::query(
            "SELECT id, endpoint, p256dh, auth, created_ms FROM push_subscriptions \
             WHERE account_id = $1 ORDER BY id",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Subscription {
                    id: row.try_get("id")?,
                    endpoint: row.try_get("endpoint")?,
                    p256dh: row.try_get("p256dh")?,
                    auth: row.try_get("auth")?,
                    created_ms: row.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// The subscriptions of the notification's account it was not pushed to yet.
    pub(crate) async fn unpushed(
        &self,
        outbox_id: i64,
        account_id: i64,
    ) -> anyhow::Result<Vec<Subscription>> {
        let sent: Vec<i64> =
            sqlx::query("SELECT subscription_id FROM push_sent WHERE outbox_id = $1")
                .bind(outbox_id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|row| row.try_get(0))
                .collect::<Result<_, _>>()?;
        let mut all = self.subscriptions(account_id).await?;
        all.retain(|s| !sent.contains(&s.id));
        Ok(all)
    }

    /// Records that the notification was pushed to the subscription.
    pub(crate) async fn pushed(&self, outbox_id: i64, subscription_id: i64) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO push_sent (outbox_id, subscription_id) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(outbox_id)
        .bind(subscription_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
