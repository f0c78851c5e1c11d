//! Where the server may post a push: no server-side request forgery.
//!
//! A push subscription's endpoint is a URL a browser gave, and so a URL any client can make up. By default
//! the server posts only to `https://` endpoints of the known browser push services, never to an IP literal,
//! and never to a name that resolves to a private, loopback, link-local or otherwise non-public address (the
//! check is made on the addresses the connection uses, by the HTTP client's resolver, so that a name that
//! changes its answer between the check and the post is caught too). Redirects are not followed. An operator
//! admits other endpoints by prefix (`--push-allow-endpoint`): a self-hosted push service, or a test's local
//! one.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// The hosts of the browser push services a subscription may name by default: Chrome's (Firebase), Firefox's
/// (Mozilla), Safari's (Apple) and Edge's (Windows). A host matches an entry equal to it, or one starting with
/// a dot that it ends with.
pub const KNOWN_PUSH_SERVICES: &[&str] = &[
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    ".push.services.mozilla.com",
    "web.push.apple.com",
    ".push.apple.com",
    ".notify.windows.com",
];

/// Why an endpoint is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EndpointRefusal {
    /// Not a URL.
    #[error("the endpoint is not an absolute URL")]
    NotUrl,
    /// Not `https://`.
    #[error("the endpoint is not https://")]
    NotHttps,
    /// An address instead of a name.
    #[error("the endpoint names an IP address, not a push service")]
    IpLiteral,
    /// Not a known push service.
    #[error("the endpoint is not one of the browser push services this server posts to")]
    UnknownService,
}

/// How an endpoint the rules accept is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// A known push service over the public Internet: its name must resolve to public addresses only.
    Public,
    /// An endpoint the operator admitted by prefix: posted to as it is.
    Admitted,
}

/// The server's rules for push endpoints.
#[derive(Debug, Clone, Default)]
pub struct EndpointRules {
    /// Prefixes of endpoints admitted whatever they are (`--push-allow-endpoint`).
    pub admitted: Vec<String>,
}

impl EndpointRules {
    /// Whether the server may post to `endpoint`, and how.
    ///
    /// # Errors
    /// The reason it may not.
    pub fn check(&self, endpoint: &str) -> Result<Route, EndpointRefusal> {
        if self.admitted.iter().any(|prefix| !prefix.is_empty() && endpoint.starts_with(prefix.as_str())) {
            return Ok(Route::Admitted);
        }
        let uri: axum::http::Uri = endpoint.parse().map_err(|_| EndpointRefusal::NotUrl)?;
        let host = uri.host().ok_or(EndpointRefusal::NotUrl)?;
        if uri.scheme_str() != Some("https") {
            return Err(EndpointRefusal::NotHttps);
        }
        if host.starts_with('[') || host.parse::<IpAddr>().is_ok() || looks_numeric(host) {
            return Err(EndpointRefusal::IpLiteral);
        }
        if uri.port_u16().is_some_and(|port| port != 443) {
            return Err(EndpointRefusal::UnknownService);
        }
        let host = host.to_ascii_lowercase();
        let known = KNOWN_PUSH_SERVICES.iter().any(|service| match service.strip_prefix('.') {
            Some(suffix) => host.len() > suffix.len() + 1 && host.ends_with(service),
            None => host == *service,
        });
        if known { Ok(Route::Public) } else { Err(EndpointRefusal::UnknownService) }
    }
}

/// A host made of digits, dots and hex that some resolvers read as an address (`0x7f.1`, `2130706433`).
fn looks_numeric(host: &str) -> bool {
    host.rsplit('.').next().is_some_and(|last| last.chars().all(|c| c.is_ascii_hexdigit() || c == 'x'))
        && host.chars().all(|c| c.is_ascii_hexdigit() || c == '.' || c == 'x')
}

/// Whether `ip` is an address of the public Internet: not private, loopback, link-local, shared (CGNAT),
/// multicast, unspecified, documentation or reserved; an IPv4 address mapped into IPv6 is judged as IPv4.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00 // unique local
        || (first & 0xffc0) == 0xfe80 // link-local
        || (first & 0xffc0) == 0xfec0 // site-local (deprecated)
        || first == 0x2001 && ip.segments()[1] == 0x0db8 // documentation
        || first == 0x0064 && ip.segments()[1] == 0xff9b // NAT64, which may reach private IPv4
        || first == 0x2002 // 6to4, likewise
        || ip.to_ipv4().is_some()) // IPv4-compatible
}

/// The resolver of the client that posts to [`Route::Public`] endpoints: the system's, but refusing a name
/// any of whose addresses is not public.
#[derive(Debug, Clone, Copy, Default)]
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 443)).await?.collect();
            if found.is_empty() {
                return Err(format!("{host} has no address").into());
            }
            if found.iter().any(|address| !is_public(address.ip())) {
                return Err(format!("{host} resolves to an address that is not public").into());
            }
            let addrs: Addrs = Box::new(found.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_endpoints_of_known_push_services_pass_by_default() {
        let rules = EndpointRules::default();
        assert_eq!(rules.check("https://fcm.googleapis.com/fcm/send/abc"), Ok(Route::Public));
        assert_eq!(rules.check("https://updates.push.services.mozilla.com/wpush/v2/x"), Ok(Route::Public));
        assert_eq!(rules.check("https://web.push.apple.com/QO3x"), Ok(Route::Public));
        assert_eq!(rules.check("https://wns2-par02p.notify.windows.com/w/?token=1"), Ok(Route::Public));
        assert_eq!(rules.check("http://fcm.googleapis.com/fcm/send/abc"), Err(EndpointRefusal::NotHttps));
        assert_eq!(rules.check("https://127.0.0.1/push"), Err(EndpointRefusal::IpLiteral));
        assert_eq!(rules.check("https://[::1]/push"), Err(EndpointRefusal::IpLiteral));
        assert_eq!(rules.check("https://2130706433/push"), Err(EndpointRefusal::IpLiteral));
        assert_eq!(rules.check("http://127.0.0.1:9/push"), Err(EndpointRefusal::NotHttps));
        assert_eq!(rules.check("https://10.0.0.1/push"), Err(EndpointRefusal::IpLiteral));
        assert_eq!(rules.check("https://example.org/push"), Err(EndpointRefusal::UnknownService));
        assert_eq!(rules.check("https://fcm.googleapis.com.evil.example/x"), Err(EndpointRefusal::UnknownService));
        assert_eq!(rules.check("https://evilpush.apple.com.example/x"), Err(EndpointRefusal::UnknownService));
        assert_eq!(rules.check("https://fcm.googleapis.com:8443/x"), Err(EndpointRefusal::UnknownService));
        assert_eq!(rules.check("not a url"), Err(EndpointRefusal::NotUrl));
        assert_eq!(rules.check("/relative"), Err(EndpointRefusal::NotUrl));
    }

    #[test]
    fn an_admitted_prefix_lets_its_endpoints_through_and_no_other() {
        let rules = EndpointRules { admitted: vec!["http://127.0.0.1:9000/push/".into()] };
        assert_eq!(rules.check("http://127.0.0.1:9000/push/abc"), Ok(Route::Admitted));
        assert_eq!(rules.check("http://127.0.0.1:9001/push/abc"), Err(EndpointRefusal::NotHttps));
        assert_eq!(rules.check("http://127.0.0.1:9000/other"), Err(EndpointRefusal::NotHttps));
    }

    #[test]
    fn private_loopback_and_link_local_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!is_public(ip.parse().expect("valid")), "{ip}");
        }
        for ip in ["142.250.74.10", "2a00:1450:4007:80c::200a", "::ffff:142.250.74.10"] {
            assert!(is_public(ip.parse().expect("valid")), "{ip}");
        }
    }
}
