//! The one HTTP client paw uses for everything it fetches, behind the network guard (docs/network.md).
//!
//! Built once per daemon and shared. Redirects are followed here, hop by hop, so every hop
//! is checked (scheme, literal addresses, DNS answers) before anything is sent to it; the
//! resolver given to reqwest checks again at connect time. Bodies are read as a stream and
//! cut at `net.max_body_bytes` after decompression.

pub mod guard;

use std::sync::Arc;
use std::time::Duration;

use paw_proto::ErrorCode;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, LOCATION};
use url::Url;

use crate::config::NetConfig;
use guard::{Guard, GuardedResolver};

/// Redirects followed at most.
pub const MAX_REDIRECTS: usize = 5;

/// Why a request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not http or https.
    #[error("unsupported url scheme: {0}")]
    Scheme(String),
    /// Not a URL.
    #[error("invalid url: {0}")]
    InvalidUrl(String),
    /// A private, loopback or reserved address.
    #[error("refusing to connect to {host} ({addr}): private or reserved address")]
    Forbidden {
        /// The host asked for.
        host: String,
        /// The address it is or resolved to.
        addr: String,
    },
    /// The body passed the cap.
    #[error("response too large (> {0} bytes)")]
    TooLarge(u64),
    /// More than [`MAX_REDIRECTS`] redirects.
    #[error("too many redirects (> {MAX_REDIRECTS})")]
    TooManyRedirects,
    /// The whole request took too long.
    #[error("request timed out after {0} ms")]
    Timeout(u64),
    /// Connecting, TLS, DNS or reading failed.
    #[error("{0}")]
    Network(String),
}

impl NetError {
    /// The error code an outcome carries for this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            NetError::Scheme(_) | NetError::InvalidUrl(_) => ErrorCode::InvalidArgs,
            NetError::Forbidden { .. } => ErrorCode::Forbidden,
            _ => ErrorCode::NetworkError,
        }
    }
}

/// A response with its whole (capped) body.
#[derive(Debug, Clone)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The URL after redirects.
    pub final_url: Url,
    /// The response headers.
    pub headers: HeaderMap,
    /// The body, decompressed.
    pub body: Vec<u8>,
}

impl Response {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// The shared client.
pub struct HttpClient {
    client: reqwest::Client,
    guard: Arc<Guard>,
    max_body: u64,
    timeout: Duration,
}

fn proxy_hosts(cfg: &NetConfig) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    if !cfg.proxy.is_empty() {
        urls.push(cfg.proxy.clone());
    } else {
        for k in [
            "ALL_PROXY",
            "all_proxy",
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
        ] {
            if let Ok(v) = std::env::var(k)
                && !v.is_empty()
            {
                urls.push(v);
            }
        }
    }
    urls.iter()
        .filter_map(|u| {
            let u = if u.contains("://") {
                u.clone()
            } else {
                format!("http://{u}")
            };
            Url::parse(&u).ok()?.host_str().map(str::to_string)
        })
        .collect()
}

fn map_reqwest(e: &reqwest::Error, timeout: Duration) -> NetError {
    // A guard refusal inside the resolver comes back wrapped in the connect error.
    let mut source: Option<&dyn std::error::Error> = Some(e);
    while let Some(s) = source {
        if let Some(n) = s.downcast_ref::<NetError>() {
            return n.clone();
        }
        source = s.source();
    }
    if e.is_timeout() {
        return NetError::Timeout(timeout.as_millis() as u64);
    }
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    NetError::Network(msg)
}

impl HttpClient {
    /// Builds the client from `[net]`.
    pub fn new(cfg: &NetConfig) -> Result<Self, NetError> {
        // rustls needs one process-wide crypto provider; a second install is a no-op error.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let proxies = proxy_hosts(cfg);
        let guard = Arc::new(Guard::new(
            cfg.allow_private_networks,
            &cfg.allow_hosts,
            &proxies,
        ));
        let timeout = Duration::from_millis(cfg.timeout_ms);
        let mut b = reqwest::Client::builder()
            .user_agent(cfg.user_agent.clone())
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(GuardedResolver::new(guard.clone()))
            .tls_backend_rustls();
        if !cfg.proxy.is_empty() {
            let p = reqwest::Proxy::all(&cfg.proxy)
                .map_err(|e| NetError::InvalidUrl(format!("net.proxy: {e}")))?;
            b = b.proxy(p);
        }
        let client = b
            .build()
            .map_err(|e| NetError::Network(format!("cannot build the http client: {e}")))?;
        Ok(Self {
            client,
            guard,
            max_body: cfg.max_body_bytes,
            timeout,
        })
    }

    /// `net.max_body_bytes`: the body cap of [`HttpClient::get`].
    pub fn max_body(&self) -> u64 {
        self.max_body
    }

    /// The guard in force.
    pub fn guard(&self) -> &Guard {
        &self.guard
    }

    /// GETs `url`, following up to [`MAX_REDIRECTS`] redirects, each hop checked by the guard.
    /// Any status is returned as a response; only transport failures are errors.
    pub async fn get(
        &self,
        url: &str,
        headers: &[(HeaderName, String)],
    ) -> Result<Response, NetError> {
        self.get_capped(url, headers, |_| self.max_body).await
    }

    /// [`HttpClient::get`] with the body cap chosen from the final response's headers
    /// (`doc extract --url` reads documents up to `tools.doc.max_download_bytes`, not
    /// `net.max_body_bytes`). A `Content-Length` over the cap is refused before the body
    /// is read; the body is counted after decompression either way.
    pub async fn get_capped(
        &self,
        url: &str,
        headers: &[(HeaderName, String)],
        cap: impl Fn(&HeaderMap) -> u64,
    ) -> Result<Response, NetError> {
        let mut url = Url::parse(url.trim()).map_err(|e| NetError::InvalidUrl(e.to_string()))?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        let work = async {
            let mut hops = 0;
            loop {
                self.guard.check_target(&url).await?;
                let mut req = self.client.get(url.clone());
                for (name, value) in headers {
                    if let Ok(v) = HeaderValue::from_str(value) {
                        req = req.header(name, v);
                    }
                }
                let resp = req
                    .send()
                    .await
                    .map_err(|e| map_reqwest(&e, self.timeout))?;
                let status = resp.status();
                if status.is_redirection()
                    && let Some(loc) = resp.headers().get(LOCATION).and_then(|v| v.to_str().ok())
                {
                    hops += 1;
                    if hops > MAX_REDIRECTS {
                        return Err(NetError::TooManyRedirects);
                    }
                    url = url
                        .join(loc)
                        .map_err(|e| NetError::InvalidUrl(format!("redirect to {loc}: {e}")))?;
                    continue;
                }
                let max = cap(resp.headers());
                return self.read(resp, url, max).await;
            }
        };
        match tokio::time::timeout_at(deadline, work).await {
            Ok(r) => r,
            Err(_) => Err(NetError::Timeout(self.timeout.as_millis() as u64)),
        }
    }

    async fn read(
        &self,
        mut resp: reqwest::Response,
        final_url: Url,
        max: u64,
    ) -> Result<Response, NetError> {
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        // A compressed length over the cap means a decompressed one over it too.
        if resp.content_length().is_some_and(|n| n > max) {
            return Err(NetError::TooLarge(max));
        }
        let mut body = Vec::new();
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| map_reqwest(&e, self.timeout))?
        {
            if (body.len() + chunk.len()) as u64 > max {
                return Err(NetError::TooLarge(max));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Response {
            status,
            final_url,
            headers,
            body,
        })
    }
}
