//! The browser side of allowed domains: Chromium's proxy settings send every request to a host
//! outside the list to a dead proxy (a port this process holds bound but never listens on, so
//! every connection is refused), with the list as the proxy bypass list and loopback not
//! bypassed implicitly (`<-loopback>`); WebRTC may use no UDP outside the proxy. Chromium applies
//! this below every renderer, so it also holds for WebSocket, EventSource, `sendBeacon`,
//! preconnect, workers (their first requests too) and popups, which request interception can
//! miss.

use std::sync::OnceLock;

use agentbrowser_protocol::DomainList;

use crate::error::{EngineError, Result};

/// The dead proxy port of this process (bound, never listening), or why none could be bound.
static DEAD_PORT: OnceLock<std::result::Result<u16, String>> = OnceLock::new();

/// Binds 127.0.0.1:0 without listening and keeps the socket open for the process's life: a
/// port nothing else can take and every connection to which is refused.
fn bind_dead_port() -> std::result::Result<u16, String> {
    // SAFETY: plain socket calls on a descriptor this function owns; the address structs are
    // fully initialized and their sizes passed.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(format!("socket: {}", std::io::Error::last_os_error()));
        }
        let mut addr: libc::sockaddr_in = std::mem::zeroed();
        addr.sin_family = libc::AF_INET as libc::sa_family_t;
        addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        addr.sin_port = 0;
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        if libc::bind(fd, (&raw const addr).cast(), len) != 0 {
            let e = std::io::Error::last_os_error();
            libc::close(fd);
            return Err(format!("bind 127.0.0.1:0: {e}"));
        }
        let mut out: libc::sockaddr_in = std::mem::zeroed();
        let mut out_len = len;
        if libc::getsockname(fd, (&raw mut out).cast(), &mut out_len) != 0 {
            let e = std::io::Error::last_os_error();
            libc::close(fd);
            return Err(format!("getsockname: {e}"));
        }
        // The descriptor stays open (never listening) until the process exits.
        Ok(u16::from_be(out.sin_port))
    }
}

/// The dead proxy's port.
pub(crate) fn dead_port() -> Result<u16> {
    DEAD_PORT
        .get_or_init(bind_dead_port)
        .clone()
        .map_err(|e| EngineError::internal(format!("cannot reserve the dead proxy port: {e}")))
}

/// The Chromium flags that enforce `list`, and `--allow-file-access-from-files` when asked.
pub(crate) fn flags(list: Option<&DomainList>, allow_file_access: bool) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if let Some(list) = list {
        out.push(format!("--proxy-server=http://127.0.0.1:{}", dead_port()?));
        out.push(format!(
            "--proxy-bypass-list=<-loopback>;{}",
            list.bypass_rules()
        ));
        out.push("--force-webrtc-ip-handling-policy=disable_non_proxied_udp".into());
        out.push("--webrtc-ip-handling-policy=disable_non_proxied_udp".into());
    }
    if allow_file_access {
        out.push("--allow-file-access-from-files".into());
    }
    Ok(out)
}

/// Refuses launch options that would defeat `list`: a persistent profile, a proxy, browser args
/// with a startup URL, a profile or a proxy (the protocol's rules, for options built anywhere);
/// and, without file access, browser args that open a local file or a browser page at startup.
pub(crate) fn check_options(options: &crate::launch::LaunchOptions) -> Result<()> {
    if !options.allow_file_access {
        check_startup_args(&options.args)?;
    }
    let Some(list) = &options.allowed_domains else {
        return Ok(());
    };
    let params = agentbrowser_protocol::LaunchParams {
        allowed_domains: Some(list.patterns()),
        cdp_url: options.attach.clone(),
        profile: options.profile.as_ref().map(|p| p.display().to_string()),
        proxy_server: options.proxy.as_ref().map(|p| p.server.clone()),
        args: options.args.clone(),
        ..Default::default()
    };
    agentbrowser_protocol::domains::launch_conflicts(&params).map_err(EngineError::invalid)
}

/// Refuses a browser arg that makes Chromium open a local file or one of its own pages at
/// startup: a startup URL such as `view-source:file:///x` or a path (`/etc/passwd`, `./x`,
/// `~/x`, which Chromium opens as `file:` URLs), or a switch's value such as
/// `--app=file:///x`.
fn check_startup_args(args: &[String]) -> Result<()> {
    for arg in args {
        let (value, path_opens) = match arg.strip_prefix('-') {
            Some(switch) => match switch.split_once('=') {
                Some((name, value)) => (value, name.trim_start_matches('-') == "app"),
                None => continue,
            },
            None => (arg.as_str(), true),
        };
        let path = path_opens && value.trim_start().starts_with(['/', '.', '~']);
        let reach = super::schemes::local_reach(value);
        if reach.is_none() && !path {
            continue;
        }
        let why = reach.map_or_else(
            || "is a path Chromium opens as a file: URL".to_string(),
            |r| r.describe(),
        );
        return Err(EngineError::invalid(format!(
            "invalid parameter `args`: the browser arg `{}` {why}; {}",
            agentbrowser_protocol::bounded(arg.clone(), 200),
            super::schemes::ALLOW_HINT
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn startup_args_that_open_local_files_are_refused() {
        for bad in [
            "view-source:file:///etc/passwd",
            "/etc/passwd",
            "./x.html",
            "chrome://version",
            "--app=file:///etc/passwd",
            "--app=/etc/passwd",
        ] {
            let e = check_startup_args(&args(&["--lang=de", bad])).unwrap_err();
            assert!(e.message.contains(bad), "{bad}: {}", e.message);
            assert!(e.message.contains("--allow-file-access"), "{}", e.message);
        }
        for ok in [
            "--user-data-dir=/tmp/p",
            "--lang=de",
            "--headless",
            "https://example.com/",
            "--app=http://127.0.0.1:8000/",
        ] {
            assert!(check_startup_args(&args(&[ok])).is_ok(), "{ok}");
        }
    }
}
