-- Web push (issue 27; docs/NOTIFICATIONS.md): the server's VAPID key and the browsers'
-- subscriptions. Times are milliseconds since the Unix epoch, the same on both backends.

-- The server's VAPID key pair (RFC 8292, ECDSA P-256), made on the first start: its PKCS#8
-- document, base64url. One row: every instance signs with the same key, so a browser's
-- subscription (bound to the public key) works whichever instance sends.
CREATE TABLE push_keys (
    id         BIGINT  PRIMARY KEY CHECK (id = 1),
    pkcs8      TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL
);

-- A browser's push subscription (its PushSubscription JSON): where to send, and the
-- browser's P-256 public key and authentication secret (base64url) the payload is
-- encrypted to (RFC 8291). Removed when the push service answers 404 or 410.
CREATE TABLE push_subscriptions (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT  NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    endpoint   TEXT    NOT NULL UNIQUE,
    p256dh     TEXT    NOT NULL,
    auth       TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL
);
CREATE INDEX push_subscriptions_by_account ON push_subscriptions (account_id);

-- Which subscriptions a notification was pushed to: a notification retried (another
-- subscription's push service failed, or the mail did) is never pushed twice to one.
CREATE TABLE push_sent (
    outbox_id       BIGINT  NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    subscription_id BIGINT  NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    PRIMARY KEY (outbox_id, subscription_id)
);
