//! Allowed domains: the host patterns a session may reach (`example.com` is that host exactly,
//! `*.example.com` any of its subdomains at any depth, not the apex itself; an IPv4 literal or a
//! bracketed IPv6 literal is that address). Every front end parses the list with
//! [`DomainList::parse`]; the engine checks command URLs with [`DomainList::check_url`] and the
//! browser's requests with [`DomainList::allows_url`].

use std::fmt;

/// Most patterns one list may hold.
pub const MAX_ALLOWED_DOMAINS: usize = 256;

/// One pattern of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    /// This host exactly (lower case, no trailing dot; IPv6 in brackets).
    Exact(String),
    /// Any subdomain of this host (at any depth), not the host itself.
    Subdomains(String),
}

/// A checked list of allowed host patterns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainList {
    patterns: Vec<Pattern>,
}

/// Why a URL may not be used under the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The URL's host is not in the list.
    Host(String),
    /// The URL's scheme can reach no host the list could allow (`chrome:`, `view-source:`...).
    Scheme(String),
}

/// The error text of a bad list entry, naming it and what is allowed.
fn bad(entry: &str, why: &str) -> String {
    format!(
        "invalid allowed domain {entry:?}: {why}; give host names such as `example.com` (that host) or `*.example.com` (its subdomains), or an IP address, without scheme, port or path"
    )
}

/// `host` normalized the way URLs hold it (lower case, punycode, IPv6 in brackets), or why not.
fn normalize_host(entry: &str, host: &str) -> Result<String, String> {
    if host.is_empty() {
        return Err(bad(entry, "empty"));
    }
    if host.contains(['/', ':', '?', '#', '@', '*', ' ', ',', ';']) && !host.starts_with('[') {
        return Err(bad(entry, "not a bare host name"));
    }
    match url::Host::parse(host) {
        Ok(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_string();
            let labels_ok = d.split('.').all(|l| {
                !l.is_empty()
                    && l.len() <= 63
                    && l.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            });
            if !labels_ok {
                return Err(bad(entry, "not a valid host name"));
            }
            Ok(d)
        }
        Ok(url::Host::Ipv4(ip)) => Ok(ip.to_string()),
        Ok(url::Host::Ipv6(ip)) => Ok(format!("[{ip}]")),
        Err(e) => Err(bad(entry, &e.to_string())),
    }
}

/// The host of `url` the way the list compares it (lower case, no trailing dot).
fn url_host(u: &url::Url) -> Option<String> {
    match u.host()? {
        url::Host::Domain(d) => Some(d.trim_end_matches('.').to_ascii_lowercase()),
        url::Host::Ipv4(ip) => Some(ip.to_string()),
        url::Host::Ipv6(ip) => Some(format!("[{ip}]")),
    }
}

impl DomainList {
    /// Parses patterns (each entry may itself be a comma-separated list); an empty list is an
    /// error (it would allow nothing, not even the first page).
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<DomainList, String> {
        let mut patterns = Vec::new();
        for raw in entries.iter().flat_map(|e| e.as_ref().split(',')) {
            let entry = raw.trim();
            if entry.is_empty() {
                continue;
            }
            let pattern = match entry.strip_prefix("*.") {
                Some(rest) => {
                    let host = normalize_host(entry, rest)?;
                    if !host.chars().any(|c| c.is_ascii_alphabetic()) || host.starts_with('[') {
                        return Err(bad(entry, "`*.` goes before a host name, not an address"));
                    }
                    Pattern::Subdomains(host)
                }
                None => Pattern::Exact(normalize_host(entry, entry)?),
            };
            if !patterns.contains(&pattern) {
                patterns.push(pattern);
            }
        }
        if patterns.is_empty() {
            return Err(
                "invalid allowed domains: the list is empty; give at least one host such as `example.com`"
                    .into(),
            );
        }
        if patterns.len() > MAX_ALLOWED_DOMAINS {
            return Err(format!(
                "invalid allowed domains: {} patterns; at most {MAX_ALLOWED_DOMAINS}",
                patterns.len()
            ));
        }
        Ok(DomainList { patterns })
    }

    /// Whether `host` (as a URL holds it) matches a pattern.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.patterns.iter().any(|p| match p {
            Pattern::Exact(h) => *h == host,
            Pattern::Subdomains(h) => host
                .strip_suffix(h.as_str())
                .is_some_and(|rest| rest.len() > 1 && rest.ends_with('.')),
        })
    }

    /// Whether a request the browser makes to `url` may go out: a URL with a host needs an
    /// allowed one; one without a host (`data:`, `about:`, `file:`) reaches no network host.
    pub fn allows_url(&self, url: &str) -> bool {
        match url::Url::parse(url) {
            Ok(u) => self.check_parsed(&u).is_ok(),
            Err(_) => false,
        }
    }

    /// Checks a URL a command is about to use: `Err` names the host (or scheme) refused.
    /// `about:`, `data:` and `file:` (a separate option decides on files) reach no host;
    /// `blob:` is its creator's origin; other schemes that are not http(s)/ws(s) are refused.
    pub fn check_url(&self, url: &str) -> Result<(), Refusal> {
        match url::Url::parse(url) {
            Ok(u) => self.check_parsed(&u),
            Err(_) => Err(Refusal::Host(url.to_string())),
        }
    }

    fn check_parsed(&self, u: &url::Url) -> Result<(), Refusal> {
        match u.scheme() {
            "about" | "data" | "file" => Ok(()),
            "blob" => match url::Url::parse(u.path()) {
                Ok(inner) => self.check_parsed(&inner),
                Err(_) => Err(Refusal::Host(u.to_string())),
            },
            "http" | "https" | "ws" | "wss" => match url_host(u) {
                Some(h) if self.allows_host(&h) => Ok(()),
                Some(h) => Err(Refusal::Host(h)),
                None => Err(Refusal::Host(u.to_string())),
            },
            other => Err(Refusal::Scheme(other.to_string())),
        }
    }

    /// The patterns in Chromium's `--proxy-bypass-list` syntax (`;`-separated).
    pub fn bypass_rules(&self) -> String {
        self.patterns
            .iter()
            .map(|p| match p {
                Pattern::Exact(h) => h.clone(),
                Pattern::Subdomains(h) => format!("*.{h}"),
            })
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The patterns as given back to a user, in order.
    pub fn patterns(&self) -> Vec<String> {
        self.patterns
            .iter()
            .map(|p| match p {
                Pattern::Exact(h) => h.clone(),
                Pattern::Subdomains(h) => format!("*.{h}"),
            })
            .collect()
    }

    /// The message of a refused URL: the host (or scheme) and the list.
    pub fn refusal_message(&self, what: &str, refusal: &Refusal) -> String {
        match refusal {
            Refusal::Host(h) => format!(
                "{what}: host `{h}` is not in the allowed domains ({self}); the session may reach only those hosts"
            ),
            Refusal::Scheme(s) => format!(
                "{what}: `{s}:` URLs are refused while allowed domains are set ({self}); use http(s) URLs of those hosts"
            ),
        }
    }
}

impl fmt::Display for DomainList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.patterns().join(", "))
    }
}

/// Chromium switches a session with allowed domains refuses in its browser arguments: they
/// pick a profile or startup page, or route requests around the enforcement.
pub const CONFLICTING_SWITCHES: &[&str] = &[
    "--user-data-dir",
    "--profile-directory",
    "--app",
    "--app-id",
    "--restore-last-session",
    "--homepage",
    "--proxy-server",
    "--proxy-pac-url",
    "--proxy-bypass-list",
    "--proxy-auto-detect",
    "--no-proxy-server",
    "--host-resolver-rules",
    "--host-rules",
    "--webrtc-ip-handling-policy",
    "--force-webrtc-ip-handling-policy",
    "--remote-debugging-address",
    "--load-extension",
    "--disable-extensions-except",
];

/// The first browser argument that conflicts with allowed domains (a startup URL or path, or a
/// switch of [`CONFLICTING_SWITCHES`]), with why.
pub fn conflicting_arg(args: &[String]) -> Option<(String, &'static str)> {
    args.iter().find_map(|a| {
        let name = a.split('=').next().unwrap_or(a);
        if !a.starts_with('-') {
            Some((a.clone(), "it is a startup URL or path"))
        } else if CONFLICTING_SWITCHES.contains(&name) {
            Some((
                a.clone(),
                "it picks a profile or startup page, or routes requests around the allowed domains",
            ))
        } else {
            None
        }
    })
}

/// Refuses launch options that would defeat allowed domains: an attach to a browser started
/// elsewhere, a persistent profile, a proxy (not combined yet) and browser args with a startup
/// URL, a profile or a proxy. A restore of saved state joins this list when it is a launch option.
pub fn launch_conflicts(p: &crate::LaunchParams) -> Result<(), String> {
    let Some(entries) = &p.allowed_domains else {
        return Ok(());
    };
    DomainList::parse(entries).map_err(|e| format!("invalid parameter `allowedDomains`: {e}"))?;
    let refuse = |field: &str, why: &str| {
        Err(format!(
            "`allowedDomains` cannot be combined with `{field}`: {why}"
        ))
    };
    if p.cdp_url.is_some() || p.cdp_port.is_some() {
        return refuse(
            if p.cdp_url.is_some() {
                "cdpUrl"
            } else {
                "cdpPort"
            },
            "a browser started elsewhere has its own tabs, profile and proxy this session cannot fence in",
        );
    }
    if p.profile.is_some() {
        return refuse(
            "profile",
            "a persistent profile brings service workers, cookies and storage from sites outside the list",
        );
    }
    if p.proxy_server.is_some() {
        return refuse(
            "proxyServer",
            "the allowed domains are enforced through Chromium's proxy settings; a proxy together with them is not supported",
        );
    }
    if let Some((arg, why)) = conflicting_arg(&p.args) {
        return refuse("args", &format!("`{arg}`: {why}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_hosts_exactly_or_as_subdomains() {
        let l = DomainList::parse(&["Example.com., *.example.com", "127.0.0.1", "[::1]"]).unwrap();
        assert!(l.allows_host("example.com"));
        assert!(l.allows_host("a.b.example.com"));
        assert!(!l.allows_host("badexample.com"));
        assert!(!l.allows_host("example.com.evil.test"));
        assert!(l.allows_url("http://127.0.0.1:9/x"));
        assert!(!l.allows_url("http://localhost:9/x"));
        assert!(l.allows_url("ws://[::1]:80/"));
        assert!(l.allows_url("blob:http://example.com/uuid"));
        assert!(!l.allows_url("blob:http://evil.test/uuid"));
        assert_eq!(
            l.check_url("view-source:http://example.com/"),
            Err(Refusal::Scheme("view-source".into()))
        );
        assert_eq!(
            l.check_url("http://LOCALHOST./"),
            Err(Refusal::Host("localhost".into()))
        );
        assert_eq!(
            l.bypass_rules(),
            "example.com;*.example.com;127.0.0.1;[::1]"
        );
    }

    #[test]
    fn bad_entries_are_refused_by_name() {
        for bad in [
            "http://example.com",
            "example.com:80",
            "example.com/x",
            "*",
            "*.1.2.3.4",
            "a;b",
            "exa mple.com",
        ] {
            let e = DomainList::parse(&[bad]).unwrap_err();
            assert!(e.contains("invalid allowed domain"), "{bad}: {e}");
        }
        assert!(DomainList::parse(&[" , "]).unwrap_err().contains("empty"));
    }

    #[test]
    fn conflicting_args_are_named() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(conflicting_arg(&args(&["--lang=de"])).is_none());
        assert_eq!(
            conflicting_arg(&args(&["--lang=de", "https://evil.test"])).map(|c| c.0),
            Some("https://evil.test".into())
        );
        assert!(conflicting_arg(&args(&["--proxy-server=x"])).is_some());
        assert!(conflicting_arg(&args(&["--user-data-dir=/tmp/p"])).is_some());
    }
}
