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
mod tests {
    use super::*;

    #[test]
    fn classifies_addresses() {
        let bad = [
            "127.0.0.1",
            "127.1.2.3",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "0.0.0.0",
            "0.1.2.3",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.51.100.1",
            "203.0.113.1",
            "198.18.0.1",
            "240.0.0.1",
            "192.0.0.8",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::a00:1",
            "64:ff9b:1:1234::1",
            "::ffff:0:127.0.0.1",
            "::ffff:0:10.1.2.3",
            "2002:7f00:1::",
            "fec0::1",
        ];
        for a in bad {
            assert!(is_forbidden(a.parse().expect(a)), "{a} should be forbidden");
        }
        let good = [
            "93.184.216.34",
            "1.1.1.1",
            "8.8.8.8",
            "100.63.255.255",
            "100.128.0.1",
            "172.32.0.1",
            "2606:4700::1111",
            "::ffff:93.184.216.34",
            "2002:5db8:d822::",
        ];
        for a in good {
            assert!(!is_forbidden(a.parse().expect(a)), "{a} should be allowed");
        }
    }

    fn url(s: &str) -> Url {
        Url::parse(s).expect(s)
    }

    #[test]
    fn url_checks_cover_schemes_and_every_ipv4_spelling() {
        let g = Guard::default();
        for u in [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://0x7f.0.0.1/",
            "http://127.1/",
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.1.2.3:8080/",
        ] {
            assert!(
                matches!(g.check_url(&url(u)), Err(NetError::Forbidden { .. })),
                "{u}"
            );
        }
        assert!(matches!(
            g.check_url(&url("file:///etc/passwd")),
            Err(NetError::Scheme(_))
        ));
        assert!(matches!(
            g.check_url(&url("ftp://example.com/")),
            Err(NetError::Scheme(_))
        ));
        assert!(g.check_url(&url("https://example.com/feed")).is_ok());
        assert!(g.check_url(&url("http://93.184.216.34/")).is_ok());
    }

    #[test]
    fn exemptions() {
        let g = Guard::new(true, &[], &[]);
        assert!(g.check_url(&url("http://127.0.0.1/")).is_ok());
        let g = Guard::new(false, &["127.0.0.1:8080".into(), "[::1]".into()], &[]);
        assert!(g.check_url(&url("http://127.0.0.1:8080/")).is_ok());
        assert!(g.check_url(&url("http://127.0.0.1:8081/")).is_err());
        assert!(g.check_url(&url("http://[::1]:9/")).is_ok());
        // A proxy on loopback is no exemption for targets, on its port or any other.
        let g = Guard::new(false, &[], &["127.0.0.1".into()]);
        assert!(g.check_url(&url("http://127.0.0.1:7890/")).is_err());
        assert!(g.check_url(&url("http://127.0.0.1:18083/")).is_err());
        assert!(g.check_url(&url("http://2130706433:18083/")).is_err());
    }

    #[tokio::test]
    async fn names_resolving_to_loopback_are_refused() {
        let g = Guard::default();
        let e = g.check_target(&url("http://localhost:1/")).await;
        assert!(matches!(e, Err(NetError::Forbidden { .. })), "{e:?}");
        let g = Guard::new(false, &["localhost".into()], &[]);
        assert!(g.check_target(&url("http://localhost:1/")).await.is_ok());
    }
}
