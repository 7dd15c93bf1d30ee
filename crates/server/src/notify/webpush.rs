//! Web push (RFC 8030) from the delivery worker: the payload encrypted to the browser's
//! key (RFC 8291, `aes128gcm`), the server identified by a VAPID JWT (RFC 8292, ES256),
//! sent over HTTP/1.1 (TLS with the webpki roots). Every primitive is `ring`'s. It imports
//! nothing of the server's handlers: the shared state holds a [`Pusher`].

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use axum::http::{Request, StatusCode, header};
use base64::Engine as _;
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use hyper_util::rt::TokioIo;
use ring::rand::{SecureRandom as _, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair as _};
use ring::{aead, agreement, hkdf};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use url::{Host, Url};

use crate::clock::Clock;
use crate::limits::notifications::{PUSH_TIMEOUT, PUSH_TTL_SECONDS};
use crate::store::Store;

/// How long a VAPID JWT is good for (RFC 8292 allows at most 24 hours).
const JWT_SECONDS: u64 = 12 * 3600;
/// The record size announced in the `aes128gcm` header: one record holds any payload of ours.
const RECORD_SIZE: u32 = 4096;

/// How the server pushes: its VAPID key and a TLS client.
pub(crate) struct Pusher {
    key: EcdsaKeyPair,
    /// The `sub` claim of the JWTs: the site's URL (`--public-url`) or a placeholder.
    subject: String,
    tls: tokio_rustls::TlsConnector,
    /// Whether `http://` endpoints on loopback are taken (the tests' push services).
    pub(crate) loopback: bool,
    random: SystemRandom,
    /// The clock the JWTs' expiry is counted from (the store's).
    clock: Clock,
}

impl std::fmt::Debug for Pusher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pusher")
            .field("key", &self.public_key())
            .field("subject", &self.subject)
            .finish_non_exhaustive()
    }
}

/// What a push service answered.
#[derive(Debug)]
pub(crate) enum PushError {
    /// 404 or 410: the subscription is gone for good (RFC 8030 section 7.3).
    Gone,
    /// Anything else that is not a success: worth another try later.
    Failed(String),
}

/// A length for ring's HKDF output.
struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// HKDF-SHA-256 (RFC 5869): `length` bytes of `info` from `ikm` salted with `salt`.
fn hkdf(salt: &[u8], ikm: &[u8], info: &[u8], length: usize) -> Vec<u8> {
    let mut out = vec![0; length];
    hkdf::Salt::new(hkdf::HKDF_SHA256, salt)
        .extract(ikm)
        .expand(&[info], Len(length))
        .and_then(|okm| okm.fill(&mut out))
        .expect("HKDF-SHA-256 gives up to 8160 bytes");
    out
}

/// Reads base64url, padded or not (browsers give it unpadded; some libraries pad).
pub(crate) fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text)
        .or_else(|_| URL_SAFE.decode(text))
        .ok()
}

impl Pusher {
    /// The server's pusher: the VAPID key kept in the database (made on the first start).
    pub(crate) async fn load(
        store: &Store,
        public_url: Option<&str>,
        loopback: bool,
    ) -> anyhow::Result<Pusher> {
        let random = SystemRandom::new();
        let made = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &random)
            .map_err(|_| anyhow::anyhow!("web push: could not make a VAPID key"))?;
        let kept = store
            .push_key(&URL_SAFE_NO_PAD.encode(made.as_ref()))
            .await?;
        let pkcs8 = base64url(&kept)
            .ok_or_else(|| anyhow::anyhow!("web push: the stored VAPID key is not base64url"))?;
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &random)
            .map_err(|e| anyhow::anyhow!("web push: the stored VAPID key: {e}"))?;
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
        Ok(Pusher {
            clock: store.clock().clone(),
            key,
            subject: public_url.map_or_else(
                || "mailto:webpush@swapboard.invalid".to_owned(),
                |url| url.trim_end_matches('/').to_owned(),
            ),
            tls: tokio_rustls::TlsConnector::from(Arc::new(tls)),
            loopback,
            random,
        })
    }

    /// The VAPID public key, an uncompressed P-256 point in base64url: what browsers take
    /// as `applicationServerKey`.
    pub(crate) fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.key.public_key().as_ref())
    }

    /// Whether the worker may send to this endpoint: `https://`, or `http://` on loopback
    /// when the server was told to take it. A reason when not.
    pub(crate) fn check_endpoint(&self, endpoint: &str) -> Result<Url, String> {
        let url = Url::parse(endpoint).map_err(|e| format!("not a URL ({e})"))?;
        let (loopback, ip) = match url.host() {
            Some(Host::Ipv4(ip)) => (ip.is_loopback(), Some(IpAddr::V4(ip))),
            Some(Host::Ipv6(ip)) => (ip.is_loopback(), Some(IpAddr::V6(ip))),
            Some(Host::Domain(name)) => (name == "localhost", None),
            None => return Err("a URL without a host".to_owned()),
        };
        if ip.is_some_and(|ip| !public(ip)) && !(loopback && self.loopback) {
            return Err("not a public address".to_owned());
        }
        match url.scheme() {
            "https" => {}
            "http" if loopback && self.loopback => {}
            _ => return Err("not an https:// URL".to_owned()),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err("a URL with credentials".to_owned());
        }
        Ok(url)
    }

    /// Pushes `plain` (the service worker's JSON: title, body and the site's path to open)
    /// to one browser: `p256dh` and `auth` as the subscription gave them.
    pub(crate) async fn push(
        &self,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        plain: &[u8],
    ) -> Result<(), PushError> {
        let url = self.check_endpoint(endpoint).map_err(PushError::Failed)?;
        let (Some(ua_public), Some(secret)) = (base64url(p256dh), base64url(auth)) else {
            return Err(PushError::Failed(
                "the subscription's keys are not base64url".into(),
            ));
        };
        let body = self.encrypt(&ua_public, &secret, plain).ok_or_else(|| {
            PushError::Failed("the subscription's key is not a P-256 point".into())
        })?;
        let jwt = self.jwt(&url).map_err(PushError::Failed)?;
        let request = Request::post(&url[url::Position::BeforePath..])
            .header(
                header::HOST,
                &url[url::Position::BeforeHost..url::Position::AfterPort],
            )
            .header(
                header::AUTHORIZATION,
                format!("vapid t={jwt}, k={}", self.public_key()),
            )
            .header(header::CONTENT_ENCODING, "aes128gcm")
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .header("TTL", PUSH_TTL_SECONDS.to_string())
            .header("Urgency", "normal")
            .body(axum::body::Body::from(body))
            .map_err(|e| PushError::Failed(e.to_string()))?;
        let status = tokio::time::timeout(PUSH_TIMEOUT, self.send(&url, request))
            .await
            .map_err(|_| PushError::Failed("the push service did not answer in time".into()))?
            .map_err(PushError::Failed)?;
        match status {
            s if s.is_success() => Ok(()),
            StatusCode::NOT_FOUND | StatusCode::GONE => Err(PushError::Gone),
            s => Err(PushError::Failed(format!("the push service answered {s}"))),
        }
    }

    /// Opens a connection to the endpoint's host (TLS for `https://`) and sends one request.
    async fn send(
        &self,
        url: &Url,
        request: Request<axum::body::Body>,
    ) -> Result<StatusCode, String> {
        let host = url.host_str().unwrap_or_default();
        let port = url.port_or_known_default().unwrap_or(443);
        let address = tokio::net::lookup_host((host.trim_matches(['[', ']']), port))
            .await
            .map_err(|e| format!("looking up {host}: {e}"))?
            .next()
            .ok_or_else(|| format!("{host} has no address"))?;
        // An endpoint is whatever a caller sent: it must not reach the server's own network.
        if !(public(address.ip()) || self.loopback && address.ip().is_loopback()) {
            return Err(format!("{host} is not a public address"));
        }
        let tcp = TcpStream::connect(address)
            .await
            .map_err(|e| format!("connecting to {host}: {e}"))?;
        if url.scheme() == "http" {
            return exchange(tcp, request).await;
        }
        let name = rustls::pki_types::ServerName::try_from(host.to_owned())
            .map_err(|e| format!("{host}: {e}"))?;
        let tls = self
            .tls
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS with {host}: {e}"))?;
        exchange(tls, request).await
    }

    /// The VAPID JWT (RFC 8292) for the endpoint's origin, signed with ES256.
    fn jwt(&self, endpoint: &Url) -> Result<String, String> {
        let exp = u64::try_from(self.clock.now_ms().div_euclid(1000)).map_err(|e| e.to_string())?
            + JWT_SECONDS;
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": endpoint.origin().ascii_serialization(),
            "exp": exp,
            "sub": self.subject,
        });
        let unsigned = format!("{header}.{}", URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature = self
            .key
            .sign(&self.random, unsigned.as_bytes())
            .map_err(|_| "the VAPID signature failed".to_owned())?;
        Ok(format!(
            "{unsigned}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        ))
    }

    /// The `aes128gcm` body (RFC 8291 section 4, RFC 8188) of `plain` for the browser key
    /// `ua_public` and authentication secret `secret`: one record, no padding. None when
    /// the key is not a P-256 point.
    fn encrypt(&self, ua_public: &[u8], secret: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
        let ephemeral =
            agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &self.random).ok()?;
        let as_public = ephemeral.compute_public_key().ok()?;
        let as_public = as_public.as_ref();
        let shared = agreement::agree_ephemeral(
            ephemeral,
            &agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, ua_public),
            <[u8]>::to_vec,
        )
        .ok()?;
        let mut key_info = b"WebPush: info\0".to_vec();
        key_info.extend_from_slice(ua_public);
        key_info.extend_from_slice(as_public);
        let ikm = hkdf(secret, &shared, &key_info, 32);
        let mut salt = [0u8; 16];
        self.random.fill(&mut salt).ok()?;
        let cek = hkdf(&salt, &ikm, b"Content-Encoding: aes128gcm\0", 16);
        let nonce = hkdf(&salt, &ikm, b"Content-Encoding: nonce\0", 12);
        let key = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).ok()?);
        let mut record = plain.to_vec();
        // The last (and only) record's delimiter.
        record.push(2);
        key.seal_in_place_append_tag(
            aead::Nonce::try_assume_unique_for_key(&nonce).ok()?,
            aead::Aad::empty(),
            &mut record,
        )
        .ok()?;
        let mut body = Vec::with_capacity(16 + 4 + 1 + as_public.len() + record.len());
        body.extend_from_slice(&salt);
        body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
        body.push(u8::try_from(as_public.len()).ok()?);
        body.extend_from_slice(as_public);
        body.extend_from_slice(&record);
        Some(body)
    }
}

/// Whether an address is on the public internet: none of IANA's special-purpose IPv4 and
/// IPv6 ranges (loopback, private, shared, link-local, documentation, benchmarking,
/// reserved, multicast, unspecified, and the like). An IPv6 address that carries an IPv4
/// one (mapped, compatible, NAT64's well-known prefix, 6to4) is judged by that address: a
/// translator on the path would deliver to it. Teredo and the other tunnels of 2001::/23
/// hide theirs, and are refused.
fn public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => public_v6(v6),
    }
}

fn public_v4(v4: Ipv4Addr) -> bool {
    let [a, b, c, _] = v4.octets();
    !(v4.is_private()
        || v4.is_loopback()
        || v4.is_link_local()
        || v4.is_unspecified()
        || v4.is_documentation()
        || v4.is_multicast()
        // "This network", and 240/4 reserved (the broadcast address among them).
        || a == 0
        || a >= 240
        // Shared address space (carrier-grade NAT).
        || (a == 100 && (64..128).contains(&b))
        // IETF protocol assignments; the old 6to4 relay anycast.
        || (a == 192 && b == 0 && c == 0)
        || (a == 192 && b == 88 && c == 99)
        // Benchmarking.
        || (a == 198 && (b == 18 || b == 19)))
}

fn public_v6(v6: Ipv6Addr) -> bool {
    if let Some(v4) = embedded_v4(v6) {
        return public_v4(v4);
    }
    let s = v6.segments();
    // Global unicast is 2000::/3; everything outside it is special or reserved.
    s[0] & 0xe000 == 0x2000
        // IETF protocol assignments (Teredo, ORCHIDs, ...) and documentation.
        && !(s[0] == 0x2001 && s[1] < 0x0200)
        && !(s[0] == 0x2001 && s[1] == 0x0db8)
        && s[0] & 0xfff0 != 0x3ff0
        // Segment routing's identifiers.
        && s[0] != 0x5f00
}

/// The IPv4 address an IPv6 one carries where a translator or tunnel would deliver to it:
/// `::ffff:a.b.c.d`, `::a.b.c.d`, `64:ff9b::a.b.c.d` (NAT64) or `2002:AABB:CCDD::/48`
/// (6to4). The local-use NAT64 prefix `64:ff9b:1::/48` maps as its operator chooses and is
/// left to the global-unicast test, which refuses it.
fn embedded_v4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let o = v6.octets();
    let s = v6.segments();
    let tail = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if s[..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) {
        return Some(tail);
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(tail);
    }
    (s[0] == 0x2002).then(|| Ipv4Addr::new(o[2], o[3], o[4], o[5]))
}

/// One HTTP/1.1 request over `io`: the answer's status.
async fn exchange<S>(io: S, request: Request<axum::body::Body>) -> Result<StatusCode, String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    // The connection runs until the answer is read and the sender dropped.
    tokio::spawn(connection);
    let answer = sender
        .send_request(request)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    Ok(answer.status())
}

#[cfg(test)]
mod tests {
    use super::public;

    #[test]
    fn only_public_addresses_are_pushed_to() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
            // Reserved and special IPv4 ranges.
            "198.18.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "192.0.0.8",
            "192.88.99.1",
            "203.0.113.5",
            // IPv4 carried in IPv6: compatible, NAT64 and 6to4 forms of private addresses.
            "::127.0.0.1",
            "::",
            "64:ff9b::10.0.0.1",
            "64:ff9b::7f00:1",
            "2002:a00:1::1",
            "2002:7f00:1::",
            // Tunnels that hide their address, and other special IPv6 ranges.
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "64:ff9b:1::a00:1",
            "2001:db8::1",
            "3fff::1",
            "fec0::1",
            "100::1",
            "ff02::1",
            "5f00::1",
        ] {
            assert!(!public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "142.250.74.10",
            "2a00:1450:4001:80b::200a",
            "::ffff:142.250.74.10",
            "64:ff9b::8.8.8.8",
            "2002:808:808::1",
            "2606:4700:4700::1111",
        ] {
            assert!(public(ip.parse().unwrap()), "{ip}");
        }
    }
}
