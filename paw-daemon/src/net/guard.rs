//! The network guard (docs/network.md): which addresses paw may connect to.
//!
//! Pure checks on addresses and URLs, plus a resolver for reqwest that applies them to the
//! addresses DNS returned, at the moment the connection is made (so DNS rebinding cannot
//! slip a private address past an earlier check).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use super::NetError;

/// Whether `ip` is loopback, private, link-local, CGNAT, unspecified, multicast, broadcast,
/// documentation or otherwise reserved (IPv4-mapped and -embedding IPv6 included).
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => forbidden_v4(v4),
            None => forbidden_v6(v6),
        },
    }
}

fn forbidden_v4(a: Ipv4Addr) -> bool {
    let o = a.octets();
    a.is_loopback()
        || a.is_private()
        || a.is_link_local()
        || a.is_unspecified()
        || a.is_multicast()
        || a.is_broadcast()
        || a.is_documentation()
        || o[0] == 0 // 0.0.0.0/8 "this network"
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64.0.0/10 CGNAT
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // 192.0.0.0/24 protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // 198.18.0.0/15 benchmarking
        || o[0] >= 240 // 240.0.0.0/4 reserved
}

/// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`),
/// NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:aabb:ccdd::`) address.
fn embedded_v4(a: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = a.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = a.segments();
    let tail = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if s[..6] == [0, 0, 0, 0, 0, 0] && !a.is_loopback() && !a.is_unspecified() {
        return Some(tail);
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        return Some(tail);
    }
    // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765).
    if s[..6] == [0, 0, 0, 0, 0xffff, 0] {
        return Some(tail);
    }
    if s[0] == 0x2002 {
        return Some(Ipv4Addr::new(
            (s[1] >> 8) as u8,
            s[1] as u8,
            (s[2] >> 8) as u8,
            s[2] as u8,
        ));
    }
    None
}

fn forbidden_v6(a: Ipv6Addr) -> bool {
    let s = a.segments();
    a.is_loopback()
        || a.is_unspecified()
        || a.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // fc00::/7 unique local
        || (s[0] & 0xffc0) == 0xfe80 // fe80::/10 link-local
        || (s[0] & 0xffc0) == 0xfec0 // fec0::/10 site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // 2001:db8::/32 documentation
        || (s[0] == 0x0100 && s[1..4] == [0, 0, 0]) // 100::/64 discard
        || (s[0] == 0x2001 && s[1] < 0x0200) // 2001::/23 IETF protocol assignments
        || (s[0] == 0x0064 && s[1] == 0xff9b && s[2] == 0x0001) // 64:ff9b:1::/48 local-use NAT64
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowHost {
    host: String,
    port: Option<u16>,
}

/// The rules in force: `net.allow_private_networks`, `net.allow_hosts`, the proxies in use.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    allow_private: bool,
    allow_hosts: Vec<AllowHost>,
    /// Proxy hosts. The only exemption a proxy gets is paw's own connection to it (the
    /// resolver may hand out its loopback address); every target is checked all the same,
    /// whether it goes through the proxy or not.
    proxies: Vec<String>,
    /// Whether requests may go through a proxy (then a target that does not resolve
    /// locally is left to the proxy).
    proxied: bool,
}

fn normalise_host(h: &str) -> String {
    h.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

impl Guard {
    /// Builds the guard from the config's values and the proxy hosts in use.
    pub fn new(allow_private: bool, allow_hosts: &[String], proxies: &[String]) -> Self {
        let allow_hosts = allow_hosts
            .iter()
            .map(|entry| {
                let e = entry.trim();
                // "host:port", "[v6]:port", or a bare host (an IPv6 literal has several ':').
                match e.rsplit_once(':') {
                    Some((h, p)) if !h.contains(':') || h.ends_with(']') => match p.parse() {
                        Ok(port) => AllowHost {
                            host: normalise_host(h),
                            port: Some(port),
                        },
                        Err(_) => AllowHost {
                            host: normalise_host(e),
                            port: None,
                        },
                    },
                    _ => AllowHost {
                        host: normalise_host(e),
                        port: None,
                    },
                }
            })
            .collect();
        Self {
            allow_private,
            allow_hosts,
            proxies: proxies.iter().map(|h| normalise_host(h)).collect(),
            proxied: !proxies.is_empty(),
        }
    }

    /// Whether `host:port` is exempt from the private-network rule.
    fn exempt(&self, host: &str, port: Option<u16>) -> bool {
        let host = normalise_host(host);
        self.allow_private
            || self
                .allow_hosts
                .iter()
                .any(|a| a.host == host && (a.port.is_none() || port.is_none() || a.port == port))
    }

    /// Scheme and literal-address checks on one URL (every redirect hop goes through this).
    pub fn check_url(&self, url: &Url) -> Result<(), NetError> {
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(NetError::Scheme(other.to_string())),
        }
        let port = url.port_or_known_default();
        let ip = match url.host() {
            None => return Err(NetError::InvalidUrl("url has no host".into())),
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            Some(Host::Domain(d)) => {
                // A name that is itself an address (the url crate already turned decimal,
                // octal and hex IPv4 spellings into Host::Ipv4).
                match d.parse::<IpAddr>() {
                    Ok(ip) => ip,
                    Err(_) => return Ok(()),
                }
            }
        };
        let host = url.host_str().unwrap_or_default();
        if is_forbidden(ip) && !self.exempt(host, port) {
            return Err(NetError::Forbidden {
                host: host.to_string(),
                addr: ip.to_string(),
            });
        }
        Ok(())
    }

    /// [`check_url`](Self::check_url), then resolves a host name and checks every address.
    pub async fn check_target(&self, url: &Url) -> Result<(), NetError> {
        self.check_url(url)?;
        let Some(Host::Domain(name)) = url.host() else {
            return Ok(());
        };
        let port = url.port_or_known_default().unwrap_or(80);
        if self.exempt(name, Some(port)) {
            return Ok(());
        }
        match tokio::net::lookup_host((name, port)).await {
            Ok(addrs) => {
                for a in addrs {
                    if is_forbidden(a.ip()) {
                        return Err(NetError::Forbidden {
                            host: name.to_string(),
                            addr: a.ip().to_string(),
                        });
                    }
                }
                Ok(())
            }
            // Through a proxy the proxy resolves the name; a local failure is not fatal.
            Err(_) if self.proxied => Ok(()),
            Err(e) => Err(NetError::Network(format!("cannot resolve {name}: {e}"))),
        }
    }
}

/// reqwest's resolver with the guard applied to what DNS returns.
pub struct GuardedResolver {
    guard: Arc<Guard>,
}

impl GuardedResolver {
    /// A resolver applying `guard`.
    pub fn new(guard: Arc<Guard>) -> Self {
        Self { guard }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard.clone();
        Box::pin(async move {
            let host = name.as_str().to_string();
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            // The port is not known here; an allow_hosts entry with a port is enforced on the
            // URL (check_url / check_target) before the request is sent.
            // A proxy's own name resolves here only for paw's connection to that proxy: every
            // target was checked (check_target) before the request was made.
            if !guard.exempt(&host, None)
                && !guard.proxies.contains(&normalise_host(&host))
                && let Some(bad) = addrs.iter().find(|a| is_forbidden(a.ip()))
            {
                return Err(Box::new(NetError::Forbidden {
                    host,
                    addr: bad.ip().to_string(),
                })
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            let it: Addrs = Box::new(addrs.into_iter());
            Ok(it)
        })
    }
}

#[cfg(test)]
mod tests;
