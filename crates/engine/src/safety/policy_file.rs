//! The action policy file: its JSON shape and checks, and the decision it gives one action.
//!
//! ```json
//! {"default": "allow",
//!  "deny": ["eval"],
//!  "confirm": ["download", {"actions": ["mutate"], "domains": ["shop.example", "*.shop.example"]}],
//!  "allow": ["read"]}
//! ```
//!
//! A name is `*`, an action (`click`), a kind (`mutate`) or a category (`download`). `eval` (the
//! category) and `dangerous` (the kind) name the same commands: every one that runs
//! caller-supplied JavaScript in the page, or hands out what can (`cdp_url`), as the command
//! list declares it: always (`eval`, `add_script`, `add_init_script`, `cdp_url`), or while its
//! parameters carry JavaScript (a `wait` for a function, an action waiting for one, a `data:`
//! document to `open`, `tab_new`, `a11y` or `vitals`, a `network_route` answering documents or
//! scripts with a body). Such a command keeps its own kind too (`deny: ["mutate"]` still refuses
//! a click that waits for a function). `webmcp_invoke` calls the page's own code with JSON
//! input: not `eval`.
//!
//! An object entry applies only while the action's host matches one of its domains
//! (`example.com` exactly, `*.example.com` any subdomain). Precedence: deny, then confirm, then
//! allow, then `default` (without one: allow when the allow list is empty, else deny).

use std::path::Path;

use agentbrowser_protocol::{ErrorCode, Kind, category_actions, check_rule_name};
use serde_json::Value;

use crate::error::{EngineError, Result};

/// Largest policy file read, in bytes.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// One entry of a policy list: names, and the domains it is limited to (empty: every host).
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Actions, kinds, categories or `*`.
    pub names: Vec<String>,
    /// Host patterns (`example.com`, `*.example.com`); empty: any host.
    pub domains: Vec<String>,
}

impl Rule {
    /// Whether the rule covers an action with these labels on `host`.
    fn matches(&self, labels: &[&str], host: Option<&str>) -> bool {
        let named = self
            .names
            .iter()
            .any(|n| n == "*" || labels.contains(&n.as_str()));
        named
            && (self.domains.is_empty()
                || host.is_some_and(|h| self.domains.iter().any(|d| host_matches(d, h))))
    }

    /// How the rule reads in a message: `click` or `mutate @ shop.example`.
    fn describe(&self) -> String {
        let names = self.names.join(", ");
        if self.domains.is_empty() {
            names
        } else {
            format!("{names} @ {}", self.domains.join(", "))
        }
    }
}

/// What the policy says about one action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// It runs.
    Allow,
    /// It is refused; the rule that refused it.
    Deny(String),
    /// It waits for a person; the rule that asked.
    Confirm(String),
}

/// A parsed action policy.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionPolicy {
    /// `default`: `Some(true)` allow, `Some(false)` deny, `None` not given.
    pub default_allow: Option<bool>,
    /// The `allow` list.
    pub allow: Vec<Rule>,
    /// The `deny` list.
    pub deny: Vec<Rule>,
    /// The `confirm` list.
    pub confirm: Vec<Rule>,
}

/// The names a command of `kind` answers to in a policy when it runs no JavaScript its
/// parameters brought (see [`labels_running`]).
pub fn labels(action: &str, kind: Kind) -> Vec<&str> {
    labels_running(action, kind, false)
}

/// The names a command answers to in a policy: its action, its declared kind and its
/// categories; and while it runs caller-supplied JavaScript (`scripts`: the command list
/// declares when), the kind `dangerous` and the category `eval` too, so that `deny: ["eval"]`
/// or `["dangerous"]` refuses every command running JavaScript, and `deny: ["mutate"]` still
/// refuses a click that waits for a JavaScript function.
pub fn labels_running(action: &str, kind: Kind, scripts: bool) -> Vec<&str> {
    let mut out = vec![action, kind.as_str()];
    if scripts || kind == Kind::Dangerous {
        for l in [Kind::Dangerous.as_str(), "eval"] {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }
    for c in agentbrowser_protocol::POLICY_CATEGORIES {
        if *c != "eval" && category_actions(c).contains(&action) && !out.contains(c) {
            out.push(c);
        }
    }
    out
}

impl ActionPolicy {
    /// Reads and checks the policy file at `path`; `policy_invalid` names the file and the fault.
    pub fn load(path: &Path) -> Result<ActionPolicy> {
        let fault = |why: String| {
            EngineError::new(
                ErrorCode::PolicyInvalid,
                format!("action policy {}: {why}", path.display()),
            )
        };
        let meta = std::fs::metadata(path).map_err(|e| {
            fault(if e.kind() == std::io::ErrorKind::NotFound {
                "no such file (was it deleted?)".into()
            } else {
                format!("cannot read it: {e}")
            })
        })?;
        if meta.len() > MAX_POLICY_BYTES {
            return Err(fault(format!(
                "{} bytes; a policy file has at most {MAX_POLICY_BYTES}",
                meta.len()
            )));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| fault(format!("cannot read it: {e}")))?;
        ActionPolicy::parse(&text).map_err(fault)
    }

    /// Parses a policy document; the error names the field and what is allowed.
    pub fn parse(text: &str) -> std::result::Result<ActionPolicy, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let Value::Object(map) = doc else {
            return Err("not a JSON object; write {\"default\": \"allow\", \"deny\": [...], \"confirm\": [...], \"allow\": [...]}".into());
        };
        let mut policy = ActionPolicy::default();
        for (key, value) in &map {
            match key.as_str() {
                "default" => {
                    policy.default_allow = Some(match value.as_str() {
                        Some("allow") => true,
                        Some("deny") => false,
                        _ => {
                            return Err(format!("`default` is {value}; use \"allow\" or \"deny\""));
                        }
                    })
                }
                "allow" => policy.allow = rules(key, value)?,
                "deny" => policy.deny = rules(key, value)?,
                "confirm" => policy.confirm = rules(key, value)?,
                other => {
                    return Err(format!(
                        "unknown field `{other}`; a policy has `default`, `allow`, `deny` and `confirm`"
                    ));
                }
            }
        }
        Ok(policy)
    }

    /// The decision for an action with `labels` on `host`; `extra_confirm` are the names of
    /// `--confirm-actions` (they count as `confirm` entries on every host).
    pub fn decide(
        &self,
        labels: &[&str],
        host: Option<&str>,
        extra_confirm: &[String],
    ) -> Decision {
        if let Some(r) = self.deny.iter().find(|r| r.matches(labels, host)) {
            return Decision::Deny(format!("deny: {}", r.describe()));
        }
        if let Some(r) = self.confirm.iter().find(|r| r.matches(labels, host)) {
            return Decision::Confirm(format!("confirm: {}", r.describe()));
        }
        if let Some(n) = extra_confirm
            .iter()
            .find(|n| *n == "*" || labels.contains(&n.as_str()))
        {
            return Decision::Confirm(format!("confirm-actions: {n}"));
        }
        if self.allow.iter().any(|r| r.matches(labels, host)) {
            return Decision::Allow;
        }
        match self.default_allow {
            Some(true) => Decision::Allow,
            Some(false) => Decision::Deny("default: deny".into()),
            None if self.allow.is_empty() => Decision::Allow,
            None => Decision::Deny(
                "not in the allow list (a policy with an allow list and no `default` denies the rest)"
                    .into(),
            ),
        }
    }
}

/// The entries of one policy list.
fn rules(list: &str, value: &Value) -> std::result::Result<Vec<Rule>, String> {
    let Value::Array(items) = value else {
        return Err(format!(
            "`{list}` is not a list; give names or {{\"actions\": [...], \"domains\": [...]}} objects"
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| rule(&format!("{list}[{i}]"), item))
        .collect()
}

/// One entry: a name, or `{"actions": [names], "domains": [host patterns]}`.
fn rule(at: &str, item: &Value) -> std::result::Result<Rule, String> {
    match item {
        Value::String(name) => {
            check_rule_name(name).map_err(|e| format!("`{at}`: {e}"))?;
            Ok(Rule {
                names: vec![name.clone()],
                domains: Vec::new(),
            })
        }
        Value::Object(map) => {
            if let Some(k) = map.keys().find(|k| *k != "actions" && *k != "domains") {
                return Err(format!(
                    "`{at}` has unknown field `{k}`; a scoped entry has `actions` and `domains`"
                ));
            }
            let names = strings(&format!("{at}.actions"), map.get("actions"))?;
            for n in &names {
                check_rule_name(n).map_err(|e| format!("`{at}.actions`: {e}"))?;
            }
            let domains = strings(&format!("{at}.domains"), map.get("domains"))?;
            for d in &domains {
                check_domain(d).map_err(|e| format!("`{at}.domains`: {e}"))?;
            }
            Ok(Rule {
                names,
                domains: domains.iter().map(|d| d.to_ascii_lowercase()).collect(),
            })
        }
        other => Err(format!(
            "`{at}` is {other}; give a name or {{\"actions\": [...], \"domains\": [...]}}"
        )),
    }
}

/// A non-empty list of strings at `at`.
fn strings(at: &str, v: Option<&Value>) -> std::result::Result<Vec<String>, String> {
    let items = v
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
        .ok_or_else(|| format!("`{at}` is missing or empty; give a list of strings"))?;
    items
        .iter()
        .map(|i| {
            i.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("`{at}` holds {i}; give strings"))
        })
        .collect()
}

/// A host pattern: `example.com` or `*.example.com`, without scheme, port or path.
fn check_domain(d: &str) -> std::result::Result<(), String> {
    let bare = d.strip_prefix("*.").unwrap_or(d);
    let ok = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{d}` is not a host pattern; use `example.com` or `*.example.com` (no scheme, port or path)"
        ))
    }
}

/// Whether `host` matches `pattern`: equal (ignoring case), or a subdomain for `*.domain`.
pub fn host_matches(pattern: &str, host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    match pattern.strip_prefix("*.") {
        Some(domain) => host.len() > domain.len() + 1 && host.ends_with(&format!(".{domain}")),
        None => host == pattern,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(policy: &str, action: &str, kind: Kind, host: Option<&str>) -> Decision {
        ActionPolicy::parse(policy)
            .unwrap()
            .decide(&labels(action, kind), host, &[])
    }

    #[test]
    fn deny_wins_over_confirm_which_wins_over_allow() {
        let p = r#"{"deny": ["eval"], "confirm": ["mutate", "eval"], "allow": ["click", "eval"]}"#;
        assert_eq!(
            decide(p, "eval", Kind::Dangerous, None),
            Decision::Deny("deny: eval".into())
        );
        assert_eq!(
            decide(p, "click", Kind::Mutate, None),
            Decision::Confirm("confirm: mutate".into())
        );
        // An allow list without `default` denies what it does not name.
        assert!(matches!(
            decide(p, "title", Kind::Read, None),
            Decision::Deny(_)
        ));
        let open = r#"{"default": "allow", "allow": ["click"]}"#;
        assert_eq!(decide(open, "title", Kind::Read, None), Decision::Allow);
    }

    #[test]
    fn scoped_entries_follow_the_host() {
        let p = r#"{"default": "deny", "allow": ["read"],
                    "confirm": [{"actions": ["click"], "domains": ["shop.example", "*.bank.example"]}]}"#;
        assert!(matches!(
            decide(p, "click", Kind::Mutate, Some("shop.example")),
            Decision::Confirm(_)
        ));
        assert!(matches!(
            decide(p, "click", Kind::Mutate, Some("a.bank.example")),
            Decision::Confirm(_)
        ));
        for other in [Some("bank.example"), Some("evil.example"), None] {
            assert_eq!(
                decide(p, "click", Kind::Mutate, other),
                Decision::Deny("default: deny".into())
            );
        }
    }

    #[test]
    fn eval_and_dangerous_cover_every_command_running_javascript() {
        let p = ActionPolicy::parse(r#"{"default": "allow", "deny": ["eval"]}"#).unwrap();
        let d = |action, kind, scripts| p.decide(&labels_running(action, kind, scripts), None, &[]);
        assert!(matches!(d("wait", Kind::Read, true), Decision::Deny(_)));
        assert!(matches!(d("click", Kind::Mutate, true), Decision::Deny(_)));
        assert!(matches!(
            d("cdp_url", Kind::Dangerous, false),
            Decision::Deny(_)
        ));
        assert_eq!(d("wait", Kind::Read, false), Decision::Allow);
        let old = ActionPolicy::parse(r#"{"deny": ["dangerous"]}"#).unwrap();
        assert_eq!(
            old.decide(&labels_running("wait", Kind::Read, true), None, &[]),
            Decision::Deny("deny: dangerous".into())
        );
        // A click waiting for a function is still a mutation.
        let mutate = ActionPolicy::parse(r#"{"deny": ["mutate"]}"#).unwrap();
        assert_eq!(
            mutate.decide(&labels_running("click", Kind::Mutate, true), None, &[]),
            Decision::Deny("deny: mutate".into())
        );
    }

    #[test]
    fn categories_cover_their_actions() {
        let p = r#"{"deny": ["download", "permission"]}"#;
        assert!(matches!(
            decide(p, "wait_download", Kind::Read, None),
            Decision::Deny(_)
        ));
        assert!(matches!(
            decide(p, "set_geolocation", Kind::Session, None),
            Decision::Deny(_)
        ));
        assert_eq!(decide(p, "click", Kind::Mutate, None), Decision::Allow);
    }

    #[test]
    fn bad_policies_name_the_fault() {
        for (doc, says) in [
            ("[]", "not a JSON object"),
            ("{", "not valid JSON"),
            (r#"{"default": "maybe"}"#, "`default`"),
            (r#"{"deny": ["clik"]}"#, "`deny[0]`"),
            (r#"{"allow": "click"}"#, "`allow` is not a list"),
            (
                r#"{"confirm": [{"actions": ["click"]}]}"#,
                "`confirm[0].domains`",
            ),
            (
                r#"{"confirm": [{"actions": ["click"], "domains": ["http://x"]}]}"#,
                "host pattern",
            ),
            (r#"{"alow": []}"#, "unknown field `alow`"),
        ] {
            let e = ActionPolicy::parse(doc).unwrap_err();
            assert!(e.contains(says), "{doc}: {e}");
        }
    }

    #[test]
    fn host_patterns() {
        assert!(host_matches("example.com", "EXAMPLE.com"));
        assert!(!host_matches("example.com", "a.example.com"));
        assert!(host_matches("*.example.com", "a.b.example.com"));
        assert!(!host_matches("*.example.com", "example.com"));
        assert!(!host_matches("*.example.com", "badexample.com"));
    }
}
