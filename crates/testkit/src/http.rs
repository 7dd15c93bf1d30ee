//! A small JSON client of one server, and the answers it reads.

use reqwest::{Method, StatusCode};
use serde_json::Value;
use swapboard_server::Server;
use swapboard_server::api::{ErrorBody, ErrorDetail};

/// An answer: status, headers and the body read as JSON (`Null` when it is not JSON).
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body as text.
    pub text: String,
    /// The body read as JSON (`Null` when it is not JSON).
    pub json: Value,
}

impl Answer {
    /// The body read as the server's wire type `T` (`swapboard_server::api`): a body the
    /// type cannot read fails the test, so the types and the wire cannot drift apart.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not a {}: {e}: {}", std::any::type_name::<T>(), self.text))
    }

    /// The error code of an error answer.
    pub fn code(&self) -> String {
        self.error()
            .map(|e| e.code.into_owned())
            .unwrap_or_default()
    }

    /// The error message of an error answer.
    pub fn message(&self) -> String {
        self.error().map(|e| e.message).unwrap_or_default()
    }

    fn error(&self) -> Option<ErrorDetail> {
        serde_json::from_str::<ErrorBody>(&self.text)
            .ok()
            .map(|body| body.error)
    }

    /// Asserts an error answer of this status and code.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.text);
        assert_eq!(self.code(), code, "{}", self.text);
        assert!(!self.message().is_empty(), "{}", self.text);
    }
}

/// A client of one server.
pub struct Client {
    base: String,
    http: reqwest::Client,
}

impl Client {
    /// A client of `server`.
    pub fn new(server: &Server) -> Client {
        Client {
            base: format!("http://{}", server.addr()),
            http: reqwest::Client::new(),
        }
    }

    /// A client of the server at `base` (`http://HOST:PORT`) whose connections come from the
    /// loopback address `from` (Linux answers on all of 127.0.0.0/8): a client apart.
    pub fn from(base: &str, from: std::net::IpAddr) -> Client {
        Client {
            base: base.to_owned(),
            http: reqwest::Client::builder()
                .local_address(from)
                .build()
                .unwrap(),
        }
    }

    /// The `ws://` URL of a path of the server.
    pub fn ws_url(&self, path: &str) -> String {
        format!("{}{path}", self.base.replacen("http://", "ws://", 1))
    }

    /// Sends a request with these headers and this raw body (JSON when it parses as JSON).
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> Answer {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        for &(name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(body) = body {
            request = request.body(body.to_owned());
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            text,
            json,
        }
    }

    /// POSTs a JSON body.
    pub async fn post(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Answer {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        self.send(Method::POST, path, &all, Some(&body.to_string()))
            .await
    }

    /// GETs a path.
    pub async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.send(Method::GET, path, headers, None).await
    }

    /// DELETEs a path.
    pub async fn delete(&self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.send(Method::DELETE, path, headers, None).await
    }
}
