//! A mail server of the tests: a local SMTP sink that takes every mail and hands it over, or
//! troubles the first mail that holds a marker.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::Client;

/// A mail the sink received: its envelope's recipients and its text (headers and body).
#[derive(Debug)]
pub struct Received {
    /// The envelope's recipients.
    pub to: Vec<String>,
    /// The headers and the body.
    pub text: String,
}

/// A local SMTP server that takes every mail and hands it over: just enough of RFC 5321
/// for lettre (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT). Its address, and the mails.
pub async fn smtp_sink() -> (String, mpsc::UnboundedReceiver<Received>) {
    smtp_sink_with(None).await
}

/// What a sink does to the first mail whose text holds a marker, instead of taking it.
#[derive(Clone, Copy, Debug)]
pub enum Trouble {
    /// Takes the whole mail and hands it over, but never answers it: its sender waits as
    /// if the mail server were slow, the mail delivered and not yet acknowledged.
    Stall(&'static str),
    /// Answers the mail's end with `451` (try again later) and hands nothing over: a
    /// temporary failure at the mail server.
    Defer(&'static str),
}

/// [`smtp_sink`], with `trouble` for the first mail whose text holds its marker.
pub async fn smtp_sink_with(
    trouble: Option<Trouble>,
) -> (String, mpsc::UnboundedReceiver<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (mails, received) = mpsc::unbounded_channel();
    let troubled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let mails = mails.clone();
            let troubled = std::sync::Arc::clone(&troubled);
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink ESMTP\r\n").await.unwrap();
                let mut to = Vec::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250-sink\r\n250 8BITMIME\r\n",
                        "MAIL" | "RSET" | "NOOP" => {
                            to.clear();
                            b"250 ok\r\n"
                        }
                        "RCPT" => {
                            let address = line.split(['<', '>']).nth(1).unwrap_or("").to_owned();
                            to.push(address);
                            b"250 ok\r\n"
                        }
                        "DATA" => {
                            write.write_all(b"354 go on\r\n").await.unwrap();
                            let mut text = String::new();
                            while let Ok(Some(line)) = lines.next_line().await {
                                if line == "." {
                                    break;
                                }
                                text.push_str(&line);
                                text.push('\n');
                            }
                            let marker = match trouble {
                                Some(Trouble::Stall(marker) | Trouble::Defer(marker)) => {
                                    Some(marker)
                                }
                                None => None,
                            };
                            let troubled_now = marker.is_some_and(|m| text.contains(m))
                                && !troubled.swap(true, std::sync::atomic::Ordering::SeqCst);
                            if troubled_now && matches!(trouble, Some(Trouble::Defer(_))) {
                                to.clear();
                                b"451 4.3.0 try again later\r\n"
                            } else {
                                let _ = mails.send(Received {
                                    to: std::mem::take(&mut to),
                                    text,
                                });
                                if troubled_now {
                                    std::future::pending::<()>().await;
                                }
                                b"250 queued\r\n"
                            }
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"502 what\r\n",
                    };
                    if write.write_all(answer).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, received)
}

/// The text of a mail with its quoted-printable soft breaks joined (`=\n`) and `=3D` read.
pub fn unfolded(text: &str) -> String {
    text.replace("=\n", "").replace("=3D", "=")
}

/// The next mail within `wait`, or `None`.
pub async fn next_mail(
    mails: &mut mpsc::UnboundedReceiver<Received>,
    wait: Duration,
) -> Option<Received> {
    tokio::time::timeout(wait, mails.recv())
        .await
        .ok()
        .flatten()
}

/// Gives the caller's account `email` and confirms it by the link of the mail that comes.
pub async fn confirmed_address(
    client: &Client,
    mails: &mut mpsc::UnboundedReceiver<Received>,
    token: &str,
    email: &str,
) {
    let body = json!({ "email": email }).to_string();
    let headers = [
        ("authorization", token),
        ("content-type", "application/json"),
    ];
    let set = client
        .send(Method::PUT, "/api/me/email", &headers, Some(&body))
        .await;
    assert_eq!(set.status, 202, "{}", set.text);
    let mail = next_mail(mails, Duration::from_secs(10))
        .await
        .expect("the confirmation mail");
    let text = unfolded(&mail.text);
    let link = text
        .split("/confirm-email?token=")
        .nth(1)
        .expect("the link")
        .split_whitespace()
        .next()
        .unwrap();
    let confirmed = client
        .post("/api/me/email/confirm", &json!({ "token": link }), &[])
        .await;
    assert_eq!(confirmed.status, 200, "{}", confirmed.text);
}
