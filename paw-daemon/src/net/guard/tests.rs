//! Unit tests of `paw_daemon::net::guard`.

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
