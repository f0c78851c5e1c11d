//! Limits per client address: open connections, and new guests per minute.
//!
//! A guest costs nothing to make, so without these one machine could open any number of connections
//! or create guests by the hundred, each hosting its share of tables. The client's address is the
//! connection's peer, or, for a connection from a configured reverse proxy, the address that proxy
//! names in `X-Forwarded-For` ([`client_address`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;

use crate::config::Config;
use crate::rate::TokenBucket;
use crate::sync::lock;

/// Addresses whose guest allowance is tracked before the full ones are forgotten.
const PRUNE_AT: usize = 4096;

/// The open connections and guest allowances of every client address.
#[derive(Debug, Default)]
pub struct Addresses {
    open: Mutex<HashMap<IpAddr, usize>>,
    guests: Mutex<HashMap<IpAddr, TokenBucket>>,
}

/// One open connection of an address, given back when dropped.
#[derive(Debug)]
pub(crate) struct AddressSlot {
    addresses: Arc<Addresses>,
    address: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = lock(&self.addresses.open);
        if let Some(count) = open.get_mut(&self.address) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Whether the per-address limits spare `address`.
pub(crate) fn exempt(address: IpAddr, config: &Config) -> bool {
    (config.exempt_loopback && address.is_loopback()) || config.exempt_addresses.contains(&address)
}

impl Addresses {
    /// Counts a new connection from `address`; `None` when the address has as many open as allowed.
    /// Exempt addresses are not counted.
    pub(crate) fn open(this: &Arc<Addresses>, address: IpAddr, config: &Config) -> Result<Option<AddressSlot>, ()> {
        if exempt(address, config) {
            return Ok(None);
        }
        let mut open = lock(&this.open);
        let count = open.entry(address).or_default();
        if *count >= config.max_connections_per_address {
            return Err(());
        }
        *count += 1;
        Ok(Some(AddressSlot { addresses: this.clone(), address }))
    }

    /// Takes one of `address`'s new guests for this minute; false when it has none left.
    pub(crate) fn take_guest(&self, address: IpAddr, config: &Config) -> bool {
        if exempt(address, config) {
            return true;
        }
        let mut guests = lock(&self.guests);
        if guests.len() >= PRUNE_AT {
            // An address whose allowance is whole again is no different from one never seen.
            guests.retain(|_, bucket| !bucket.is_full());
        }
        let per_minute = config.guests_per_address_per_minute;
        guests.entry(address).or_insert_with(|| TokenBucket::new(per_minute, per_minute / 60.0)).take()
    }
}

/// The key the store keeps for a client's address (the collusion signal, `store::collusion`): the SHA-256
/// of `romirami-address/1` and the address, an IPv6 address cut to its /64 network (a home's devices share
/// it, and change the rest). The store never holds the address itself, nor do admins see it.
pub(crate) fn address_key(address: IpAddr) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(b"romirami-address/1");
    match address.to_canonical() {
        IpAddr::V4(v4) => hash.update(v4.octets()),
        IpAddr::V6(v6) => hash.update(&v6.octets()[..8]),
    }
    hash.finalize().into()
}

/// Where a client's address is unknown: behind a trusted proxy, the hop that should name it does not parse.
/// Every such request counts against this one address (it is neither loopback nor exempt), so a made-up
/// header escapes no per-address limit.
pub const UNKNOWN_CLIENT: IpAddr = IpAddr::V6(std::net::Ipv6Addr::UNSPECIFIED);

/// The address of the client behind a connection from `peer`: the peer itself, unless the peer is one
/// of the trusted proxies; then the last entry in `X-Forwarded-For` that is not a trusted proxy (each
/// proxy appends the address it was connected from, so the entries before the last untrusted hop are the
/// client's own word, not to be believed, whatever they hold). If that entry does not parse as an address,
/// the client is [`UNKNOWN_CLIENT`]; with no entry but trusted proxies, the peer.
pub fn client_address(peer: SocketAddr, headers: &HeaderMap, config: &Config) -> IpAddr {
    let peer = peer.ip().to_canonical();
    if !config.trusted_proxies.contains(&peer) {
        return peer;
    }
    let mut hops = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        match value.to_str() {
            Ok(value) => hops.extend(value.split(',').map(|hop| hop.trim().parse::<IpAddr>().ok())),
            Err(_) => hops.push(None),
        }
    }
    for hop in hops.into_iter().rev() {
        match hop.map(|address| address.to_canonical()) {
            Some(address) if config.trusted_proxies.contains(&address) => {}
            Some(address) => return address,
            None => return UNKNOWN_CLIENT,
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            max_connections_per_address: 2,
            guests_per_address_per_minute: 3.0,
            exempt_loopback: false,
            trusted_proxies: vec!["10.0.0.1".parse().expect("an address")],
            ..Config::default()
        }
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().expect("a header value"));
        headers
    }

    #[test]
    fn the_forwarded_address_counts_only_from_a_trusted_proxy() {
        let config = config();
        let proxy: SocketAddr = "10.0.0.1:5000".parse().expect("an address");
        let stranger: SocketAddr = "192.0.2.7:5000".parse().expect("an address");
        let ip = |s: &str| s.parse::<IpAddr>().expect("an address");
        assert_eq!(client_address(stranger, &forwarded("198.51.100.1"), &config), ip("192.0.2.7"));
        assert_eq!(client_address(proxy, &forwarded("198.51.100.1"), &config), ip("198.51.100.1"));
        // The client may send its own header: only the hop the proxy appended counts.
        assert_eq!(client_address(proxy, &forwarded("1.2.3.4, 198.51.100.1"), &config), ip("198.51.100.1"));
        assert_eq!(client_address(proxy, &forwarded("198.51.100.1, 10.0.0.1"), &config), ip("198.51.100.1"));
        // Issue 40: a garbage first hop fell back to the proxy's own (exempt) address.
        assert_eq!(client_address(proxy, &forwarded("garbage, 203.0.113.99"), &config), ip("203.0.113.99"));
        assert_eq!(client_address(proxy, &forwarded("not an address"), &config), UNKNOWN_CLIENT);
        assert_eq!(client_address(proxy, &forwarded("203.0.113.99, garbage"), &config), UNKNOWN_CLIENT);
        assert_eq!(client_address(proxy, &forwarded("garbage, 10.0.0.1"), &config), UNKNOWN_CLIENT);
        assert_eq!(client_address(proxy, &HeaderMap::new(), &config), ip("10.0.0.1"));
        let mapped: SocketAddr = "[::ffff:192.0.2.7]:1".parse().expect("an address");
        assert_eq!(client_address(mapped, &HeaderMap::new(), &config), ip("192.0.2.7"));
    }

    #[test]
    fn connections_are_counted_per_address_and_given_back() {
        let config = config();
        let addresses = Arc::new(Addresses::default());
        let (a, b): (IpAddr, IpAddr) = ("192.0.2.1".parse().expect("ip"), "192.0.2.2".parse().expect("ip"));
        let first = Addresses::open(&addresses, a, &config).expect("room");
        let _second = Addresses::open(&addresses, a, &config).expect("room");
        assert!(Addresses::open(&addresses, a, &config).is_err(), "a third from one address");
        assert!(Addresses::open(&addresses, b, &config).is_ok(), "another address has its own");
        drop(first);
        assert!(Addresses::open(&addresses, a, &config).is_ok(), "a closed one is given back");
        let loopback = Config { exempt_loopback: true, ..config };
        let local: IpAddr = "127.0.0.9".parse().expect("ip");
        for _ in 0..10 {
            assert!(matches!(Addresses::open(&addresses, local, &loopback), Ok(None)), "loopback is spared");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn guests_per_minute_come_back_with_time() {
        let config = config();
        let addresses = Addresses::default();
        let a: IpAddr = "192.0.2.1".parse().expect("ip");
        assert_eq!((0..10).filter(|_| addresses.take_guest(a, &config)).count(), 3);
        tokio::time::advance(std::time::Duration::from_secs(20)).await;
        assert!(addresses.take_guest(a, &config), "one more after a third of a minute");
        assert!(!addresses.take_guest(a, &config));
    }
}
