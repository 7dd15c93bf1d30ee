//! Mail over SMTP (`--smtp`, `--mail-from`, `--public-url`) with `lettre`: the confirmation
//! of an address and the notifications, each with its link and, for a notification, a
//! one-click unsubscribe (RFC 8058: `List-Unsubscribe` and `List-Unsubscribe-Post`). It
//! imports nothing of the server's handlers: the shared state holds a [`Mailer`].

use lettre::message::Mailbox;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue, MIME_VERSION_1_0};
use lettre::{AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor};

use crate::instruments;
use crate::limits::accounts::MOST_ADDRESS_CHARS;
use crate::limits::notifications::SMTP_TIMEOUT;
use crate::secret::random_secret;

/// How the server sends mail.
pub(crate) struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the SMTP password.
        f.debug_struct("Mailer")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

/// Why a mail was not sent.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MailError {
    /// The address cannot be mailed (refused by the mail server for good, or unreadable).
    #[error("{0}")]
    Permanent(String),
    /// The mail server could not be reached, or asked to try later.
    #[error("{0}")]
    Transient(String),
}

/// One mail to send.
#[derive(Debug)]
pub(crate) struct Mail<'a> {
    pub(crate) to: &'a str,
    pub(crate) subject: &'a str,
    pub(crate) body: &'a str,
    /// The one-click unsubscribe URL, for a notification.
    pub(crate) unsubscribe: Option<&'a str>,
}

/// `List-Unsubscribe: <URL>` (RFC 2369).
#[derive(Clone, Debug)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.trim_matches(['<', '>']).to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone, Debug)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

impl Mailer {
    /// A mailer sending through `smtp` (`smtp://[user:pass@]host[:port]`, STARTTLS with
    /// `?tls=required`, or `smtps://` for TLS from the start) from `from`, with links to
    /// `public_url`.
    pub(crate) fn new(smtp: &str, from: &str, public_url: &str) -> anyhow::Result<Mailer> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp)
            .map_err(|e| anyhow::anyhow!("--smtp: {e}"))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        let from: Mailbox = from
            .parse()
            .map_err(|e| anyhow::anyhow!("--mail-from {from:?}: {e}"))?;
        let public_url = public_url.trim_end_matches('/');
        if !(public_url.starts_with("https://") || public_url.starts_with("http://")) {
            anyhow::bail!("--public-url {public_url:?}: must start with https:// or http://");
        }
        Ok(Mailer {
            transport,
            from,
            public_url: public_url.to_owned(),
        })
    }

    /// The public URL of a path of the site (`/games/abc`).
    pub(crate) fn link(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }

    /// Sends one mail, plain text.
    pub(crate) async fn send(&self, mail: &Mail<'_>) -> Result<(), MailError> {
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|e| MailError::Permanent(format!("the address: {e}")))?;
        // A Message-ID of the sender's own domain and MIME-Version: spam filters weigh
        // their absence.
        let message_id = format!("<{}@{}>", random_secret(), self.from.email.domain());
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .message_id(Some(message_id))
            .header(MIME_VERSION_1_0)
            .header(ContentType::TEXT_PLAIN);
        if let Some(url) = mail.unsubscribe {
            builder = builder
                .header(ListUnsubscribe(url.to_owned()))
                .header(ListUnsubscribePost);
        }
        let message = builder
            .body(mail.body.to_owned())
            .map_err(|e| MailError::Permanent(format!("the mail: {e}")))?;
        let sent = match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(MailError::Permanent(e.to_string())),
            Err(e) => Err(MailError::Transient(e.to_string())),
        };
        let failure = match &sent {
            Ok(()) => None,
            Err(MailError::Transient(why)) => Some((true, why.as_str())),
            Err(MailError::Permanent(why)) => Some((false, why.as_str())),
        };
        instruments::delivered("mail", failure);
        sent
    }
}

/// Whether a text is a mail address the server takes: at most [`MOST_ADDRESS_CHARS`] (its
/// bytes are counted, which are never fewer) that lettre reads as one address.
pub(crate) fn valid_address(text: &str) -> bool {
    text.len() <= MOST_ADDRESS_CHARS && text.parse::<lettre::Address>().is_ok()
}
