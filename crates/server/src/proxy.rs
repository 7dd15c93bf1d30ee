//! The client's real address behind reverse proxies (`--trusted-proxy`).
//!
//! A proxy in front of the server (nginx, Caddy: the way to TLS) makes every visitor's TCP
//! peer the proxy itself, so the limits keyed on the address would lump the whole site into
//! one bucket. The proxy says who its client was in a header, but anyone can send one: the
//! server reads exactly one header, chosen by `--forwarded-header` (`X-Forwarded-For` by
//! default, or RFC 7239's `Forwarded`), and only when the TCP peer is inside a range the
//! operator trusts; then the hops are walked from the right (the nearest proxy's entry last)
//! past every trusted address; the first address that is not trusted is the client. Entries
//! left of it were written by the client and are never read. The other header is never read:
//! a proxy that sets one passes the other on as the client wrote it (nginx and Caddy do), so
//! reading it would let a client name its own address.

use std::net::IpAddr;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::HeaderMap;
use axum::http::header::FORWARDED;
use ipnet::IpNet;

use crate::limits::http::MAX_HOPS;

/// A range of addresses whose forwarding headers are believed: `10.0.0.0/8`, `::1/128`, or
/// one address (`127.0.0.1`, the same as `/32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrustedProxy(IpNet);

impl FromStr for TrustedProxy {
    type Err = String;

    fn from_str(text: &str) -> Result<TrustedProxy, String> {
        let text = text.trim();
        if let Ok(net) = text.parse::<IpNet>() {
            // `10.1.2.3/8` is read as `10.0.0.0/8`: the range, not the one address.
            return Ok(TrustedProxy(net.trunc()));
        }
        text.parse::<IpAddr>()
            .map(|addr| TrustedProxy(IpNet::from(canonical(addr))))
            .map_err(|_| {
                format!("{text:?} is not an address range (e.g. 10.0.0.0/8, ::1/128 or 127.0.0.1)")
            })
    }
}

/// The one header a trusted proxy names its client in (`--forwarded-header`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1, ...`: what nginx's `$proxy_add_x_forwarded_for`
    /// and Caddy's `reverse_proxy` write.
    #[default]
    XForwardedFor,
    /// RFC 7239's `Forwarded: for=client, for=proxy1`.
    Forwarded,
}

impl ForwardedHeader {
    /// The hops the header lists, left to right (`None`: an entry that is not an address).
    fn hops(self, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
        match self {
            ForwardedHeader::XForwardedFor => x_forwarded_for_hops(headers),
            ForwardedHeader::Forwarded => forwarded_hops(headers),
        }
    }
}

/// The trusted proxies of a server and the header they write: no range (the default)
/// trusts nobody's headers.
#[derive(Debug, Default)]
pub(crate) struct TrustedProxies {
    ranges: Vec<IpNet>,
    header: ForwardedHeader,
    /// Whether the warning about forwarding headers from an untrusted peer was logged: once
    /// per process, so that a client sending them cannot fill the log.
    warned: AtomicBool,
}

impl TrustedProxies {
    pub(crate) fn new(ranges: &[TrustedProxy], header: ForwardedHeader) -> TrustedProxies {
        TrustedProxies {
            ranges: ranges.iter().map(|range| range.0).collect(),
            header,
            warned: AtomicBool::new(false),
        }
    }

    /// Whether `addr` is inside a trusted range.
    pub(crate) fn trusts(&self, addr: IpAddr) -> bool {
        let addr = canonical(addr);
        self.ranges.iter().any(|net| net.contains(&addr))
    }

    /// The client's address for a request whose TCP peer is `peer`: the peer itself unless it
    /// is trusted; then the rightmost address of the chosen header that is not trusted. An
    /// entry that is not an address (`unknown`, an obfuscated name, garbage) ends the walk at
    /// the last address seen, the nearest proxy's: nothing further left can be believed.
    pub(crate) fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            self.warn_untrusted(peer, headers);
            return peer;
        }
        let mut client = peer;
        for hop in self.header.hops(headers).into_iter().rev().take(MAX_HOPS) {
            match hop {
                Some(addr) if self.trusts(addr) => client = addr,
                Some(addr) => return addr,
                None => return client,
            }
        }
        client
    }

    /// Warns, once, that a peer outside `--trusted-proxy` sent a forwarding header: either a
    /// proxy the operator forgot to name (then every visitor shares its address and its
    /// limits) or a client trying to pick its own address. Either way the header is ignored.
    fn warn_untrusted(&self, peer: IpAddr, headers: &HeaderMap) {
        let sent = [FORWARDED.as_str(), "x-forwarded-for"]
            .into_iter()
            .find(|name| headers.contains_key(*name));
        if let Some(name) = sent
            && !self.warned.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                %peer,
                header = name,
                "a forwarding header came from a peer outside --trusted-proxy and is ignored: \
                 if that peer is your reverse proxy, name it with --trusted-proxy (until then \
                 every visitor behind it shares its address and its limits); \
                 this warning is given once"
            );
        }
    }
}

/// An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket reports it) is
/// the IPv4 address: one client, one key.
fn canonical(addr: IpAddr) -> IpAddr {
    addr.to_canonical()
}

/// The `for=` entries of every `Forwarded` header, left to right (`None`: not an address).
fn forwarded_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for value in headers.get_all(FORWARDED) {
        let Ok(value) = value.to_str() else {
            hops.push(None);
            continue;
        };
        for element in value.split(',') {
            let node = element.split(';').find_map(|pair| {
                let (key, value) = pair.split_once('=')?;
                key.trim().eq_ignore_ascii_case("for").then(|| value.trim())
            });
            hops.push(node.and_then(forwarded_node));
        }
    }
    hops
}

/// A `Forwarded` node: `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`, quoted or not.
fn forwarded_node(node: &str) -> Option<IpAddr> {
    let node = node
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or(node);
    if let Some(rest) = node.strip_prefix('[') {
        let (addr, _port) = rest.split_once(']')?;
        return addr.parse::<IpAddr>().ok().map(canonical);
    }
    let addr = match node.split_once(':') {
        Some((addr, _port)) => addr,
        None => node,
    };
    addr.parse::<IpAddr>().ok().map(canonical)
}

/// The entries of every `X-Forwarded-For` header, left to right (`None`: not an address).
fn x_forwarded_for_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(value) = value.to_str() else {
            hops.push(None);
            continue;
        };
        hops.extend(value.split(',').map(|entry| {
            let entry = entry.trim();
            // Some proxies write IPv6 in brackets, with or without a port.
            let entry = entry
                .strip_prefix('[')
                .and_then(|rest| rest.split_once(']'))
                .map_or(entry, |(addr, _)| addr);
            entry.parse::<IpAddr>().ok().map(canonical)
        }));
    }
    hops
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use proptest::prelude::*;

    fn proxies(ranges: &[&str]) -> TrustedProxies {
        reading(ranges, ForwardedHeader::XForwardedFor)
    }

    fn reading(ranges: &[&str], header: ForwardedHeader) -> TrustedProxies {
        let ranges: Vec<TrustedProxy> = ranges.iter().map(|r| r.parse().unwrap()).collect();
        TrustedProxies::new(&ranges, header)
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ranges_are_read_with_or_without_a_length_and_refused_otherwise() {
        assert_eq!(
            "10.1.2.3/8".parse::<TrustedProxy>().unwrap(),
            "10.0.0.0/8".parse::<TrustedProxy>().unwrap()
        );
        assert_eq!(
            "127.0.0.1".parse::<TrustedProxy>().unwrap(),
            "127.0.0.1/32".parse::<TrustedProxy>().unwrap()
        );
        assert!("::1".parse::<TrustedProxy>().is_ok());
        for bad in ["", "10.0.0.0/33", "localhost", "10.0.0.0/8/8", "1.2.3"] {
            assert!(bad.parse::<TrustedProxy>().is_err(), "{bad}");
        }
    }

    #[test]
    fn headers_from_an_untrusted_peer_are_ignored() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let spoofed = headers(&[
            ("x-forwarded-for", "198.51.100.7"),
            ("forwarded", "for=1.2.3.4"),
        ]);
        assert_eq!(
            trusted.client(ip("203.0.113.9"), &spoofed),
            ip("203.0.113.9")
        );
        // Nobody is trusted by default.
        let nobody = TrustedProxies::default();
        assert!(
            trusted.warned.load(Ordering::Relaxed),
            "the ignored headers were warned of"
        );
        assert_eq!(nobody.client(ip("10.0.0.1"), &spoofed), ip("10.0.0.1"));
    }

    #[test]
    fn the_rightmost_untrusted_address_is_the_client() {
        let trusted = proxies(&["10.0.0.0/8", "127.0.0.1"]);
        // The client wrote 198.51.100.7 itself; the first proxy saw 203.0.113.9.
        let chain = headers(&[("x-forwarded-for", "198.51.100.7, 203.0.113.9, 10.0.0.5")]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &chain), ip("203.0.113.9"));
        // Two header lines are one list, in order.
        let split = headers(&[
            ("x-forwarded-for", "198.51.100.7"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        assert_eq!(trusted.client(ip("10.9.9.9"), &split), ip("203.0.113.9"));
        // Only trusted hops: the leftmost of them (the proxies talked among themselves).
        let inside = headers(&[("x-forwarded-for", "10.0.0.7, 10.0.0.5")]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &inside), ip("10.0.0.7"));
        // No header: the peer.
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn only_the_chosen_header_is_read() {
        // nginx and Caddy set X-Forwarded-For and pass a client's Forwarded on untouched:
        // reading Forwarded there would let the client pick its address.
        let both = headers(&[
            ("forwarded", "for=198.51.100.7"),
            ("x-forwarded-for", "192.0.2.1"),
        ]);
        let by_default = proxies(&["10.0.0.0/8"]);
        assert_eq!(by_default.client(ip("10.0.0.1"), &both), ip("192.0.2.1"));
        let forged = headers(&[("forwarded", "for=198.51.100.7")]);
        assert_eq!(by_default.client(ip("10.0.0.1"), &forged), ip("10.0.0.1"));
        let rfc = reading(&["10.0.0.0/8"], ForwardedHeader::Forwarded);
        assert_eq!(rfc.client(ip("10.0.0.1"), &both), ip("198.51.100.7"));
        let forged = headers(&[("x-forwarded-for", "192.0.2.1")]);
        assert_eq!(rfc.client(ip("10.0.0.1"), &forged), ip("10.0.0.1"));
    }

    #[test]
    fn forwarded_is_read_in_all_its_spellings() {
        let trusted = reading(&["10.0.0.0/8"], ForwardedHeader::Forwarded);
        let quoted = headers(&[(
            "forwarded",
            r#"for=198.51.100.7;proto=https, For="[2001:db8:cafe::17]:4711""#,
        )]);
        assert_eq!(
            trusted.client(ip("10.0.0.1"), &quoted),
            ip("2001:db8:cafe::17")
        );
        let port = headers(&[("forwarded", "for=192.0.2.60:8080;by=10.0.0.1")]);
        assert_eq!(trusted.client(ip("10.0.0.1"), &port), ip("192.0.2.60"));
        // `unknown` or a hidden name: the nearest proxy is all that is known.
        let hidden = headers(&[("forwarded", "for=192.0.2.60, for=_hidden, for=10.0.0.3")]);
        assert_eq!(trusted.client(ip("10.0.0.1"), &hidden), ip("10.0.0.3"));
    }

    #[test]
    fn ipv4_mapped_addresses_are_ipv4() {
        let trusted = proxies(&["127.0.0.1"]);
        let chain = headers(&[("x-forwarded-for", "::ffff:192.0.2.1")]);
        assert_eq!(
            trusted.client(ip("::ffff:127.0.0.1"), &chain),
            ip("192.0.2.1")
        );
    }

    proptest! {
        /// Whatever the headers say, the answer is the peer or an address that is not
        /// trusted or a trusted one from the chain, and never panics.
        #[test]
        fn any_header_gives_a_sane_answer(xff in "[ -~]{0,200}", fwd in "[ -~]{0,200}") {
            let mut map = HeaderMap::new();
            if let Ok(value) = HeaderValue::from_str(&xff) {
                map.append("x-forwarded-for", value);
            }
            if let Ok(value) = HeaderValue::from_str(&fwd) {
                map.append(FORWARDED, value);
            }
            for header in [ForwardedHeader::XForwardedFor, ForwardedHeader::Forwarded] {
                let trusted = reading(&["10.0.0.0/8"], header);
                let untrusted_peer = ip("203.0.113.1");
                prop_assert_eq!(trusted.client(untrusted_peer, &map), untrusted_peer);
                let _ = trusted.client(ip("10.0.0.1"), &map);
            }
        }
    }
}
