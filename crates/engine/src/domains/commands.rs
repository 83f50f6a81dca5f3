//! The command side of allowed domains: every URL, origin, cookie domain or URL glob a command
//! names is checked before the command runs; a refused one is `domain_not_allowed` naming the
//! host and the list (nothing was done). URLs that reach local files or the browser's own pages
//! (`file:`, `view-source:file:`, `chrome:`, ...: [`super::schemes`]) need `allowFileAccess`
//! whether or not the session has allowed domains.

use agentbrowser_protocol::{Command, CookieInput, ErrorCode, UrlField};

use super::Guard;
use crate::error::{EngineError, Result};

/// Checks the URLs `command` names (`Command::url_fields`) against the session's guard: cookie
/// domains and inline cookies first, then URLs, origins and globs.
pub(crate) fn check(command: &Command, guard: &Guard) -> Result<()> {
    let mut urls: Vec<(&str, String)> = Vec::new();
    for field in command.url_fields() {
        match field {
            // A URL the handler will refuse as malformed is left to it (its error is clearer).
            UrlField::Url(name, url) => {
                if let Ok(u) = crate::nav::normalize_url(url) {
                    urls.push((name, u));
                }
            }
            UrlField::Glob(name, glob) => urls.extend(glob_host_url(glob).map(|u| (name, u))),
            UrlField::CookieDomain(name, domain) => check_cookie_domain(guard, name, domain)?,
            UrlField::Cookie(cookie) => check_cookie(guard, cookie)?,
        }
    }
    for (field, url) in &urls {
        check_file(guard, command.action(), field, url)?;
        if let Some(e) = guard.refuse(&format!("{} `{field}`", command.action()), url) {
            return Err(e);
        }
    }
    Ok(())
}

/// Refuses a URL that reaches local files unless the session allows file access.
fn check_file(guard: &Guard, action: &str, field: &str, url: &str) -> Result<()> {
    let what = format!("invalid parameter `{field}` of {action}");
    match super::schemes::refuse(guard.allow_file_access, &what, url) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Checks one cookie's URL or domain.
pub(crate) fn check_cookie(guard: &Guard, c: &CookieInput) -> Result<()> {
    if let Some(u) = &c.url
        && let Some(e) = guard.refuse("cookie `url`", u)
    {
        return Err(e);
    }
    match &c.domain {
        Some(d) => check_cookie_domain(guard, "domain", d),
        None => Ok(()),
    }
}

/// Checks a cookie domain (`.example.com` or `example.com`) as a host.
fn check_cookie_domain(guard: &Guard, field: &str, domain: &str) -> Result<()> {
    let Some(list) = &guard.list else {
        return Ok(());
    };
    let host = domain.trim().trim_start_matches('.');
    if list.allows_host(host) {
        return Ok(());
    }
    Err(EngineError::new(
        ErrorCode::DomainNotAllowed,
        list.refusal_message(
            &format!("cookie `{field}`"),
            &agentbrowser_protocol::domains::Refusal::Host(host.to_ascii_lowercase()),
        ),
    ))
}

/// The `scheme://host/` of a URL glob whose host is literal (no wildcard): such a route could
/// only ever match a host outside the list. A glob with a wildcard host is left to the browser.
fn glob_host_url(glob: &str) -> Option<String> {
    let (scheme, rest) = glob.split_once("://")?;
    if !matches!(scheme, "http" | "https" | "ws" | "wss") {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.is_empty() || authority.contains(['*', '?', '[', '{']) {
        return None;
    }
    Some(format!("{scheme}://{authority}/"))
}

/// Refuses a state file's origins and cookie domains outside the list (before anything of it
/// is applied): what `state_load` and a launch's restore of saved state both pass.
pub(crate) fn check_state<'a>(
    guard: &Guard,
    origins: impl IntoIterator<Item = &'a str>,
    cookies: &[CookieInput],
) -> Result<()> {
    for o in origins {
        check_file(guard, "the state file", "origins", o)?;
        if let Some(e) = guard.refuse("state file origin", o) {
            return Err(e);
        }
    }
    for c in cookies {
        check_cookie(guard, c)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_with_a_literal_host_are_checked() {
        assert_eq!(
            glob_host_url("http://localhost:9/**").as_deref(),
            Some("http://localhost:9/")
        );
        assert_eq!(glob_host_url("**/api/*"), None);
        assert_eq!(glob_host_url("http://*.test/x"), None);
    }
}
