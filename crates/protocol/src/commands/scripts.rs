//! Which commands run caller-supplied JavaScript: the policy's `eval`, the kind `dangerous`.
//! An entry of the command list declares it: `[Dangerous]` always runs script (or hands out
//! what can); `[Kind | script]` does when its parameters carry some, as [`Scripted`] says here
//! for its parameter type. The tests walk every command's parameter schema, so that a field
//! carrying JavaScript cannot be added to a command that does not say so.

use crate::caps::intercept::{NetworkRouteParams, ResourceType, RouteAction};
use crate::caps::wait::WaitCondition;
use crate::*;

/// What `Command::script_use` says of a command whose entry is of kind `dangerous`.
pub(super) const DECLARED: &str = "it runs JavaScript in the page (or hands out what can)";

/// The parameters of a command marked `| script`: whether these make it run caller-supplied
/// JavaScript in the page, and why.
pub trait Scripted {
    /// Why these parameters run caller-supplied JavaScript in the page; `None` when they do not.
    fn script_use(&self) -> Option<&'static str>;
}

/// Every action that can run caller-supplied JavaScript, in the command list's order (what a
/// policy's `eval` names).
pub fn script_actions() -> &'static [&'static str] {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        Command::ACTIONS
            .iter()
            .copied()
            .filter(|a| Command::may_run_script(a))
            .collect()
    })
}

impl Scripted for WaitCondition {
    fn script_use(&self) -> Option<&'static str> {
        match self {
            WaitCondition::Function { .. } => Some("it waits for a JavaScript function"),
            WaitCondition::All { conditions, .. } => {
                conditions.iter().find_map(Scripted::script_use)
            }
            _ => None,
        }
    }
}

impl Scripted for WaitParams {
    fn script_use(&self) -> Option<&'static str> {
        self.condition.as_ref().and_then(Scripted::script_use)
    }
}

/// Parameter types whose only JavaScript is the wait condition after the action (`wait`).
macro_rules! by_wait {
    ($($t:ty),+ $(,)?) => {$(
        impl Scripted for $t {
            fn script_use(&self) -> Option<&'static str> {
                self.wait.as_ref().and_then(Scripted::script_use)
            }
        }
    )+};
}

by_wait!(
    ClickParams,
    ValueParams,
    TypeParams,
    SelectParams,
    RefActionParams,
    UploadParams,
    DropParams,
    DragParams,
    PressParams,
    ClipboardKeyParams,
    KeyboardTextParams,
    KeyParams,
    MouseMoveParams,
    MouseButtonParams,
    MouseWheelParams,
    KeyDispatchParams,
    MouseDispatchParams,
);

/// Why a navigation to `url` runs the caller's JavaScript: a `data:` URL is a document the
/// caller wrote, and any but a plain, media or data type can hold scripts (HTML, SVG, XML).
fn data_document(url: &str) -> Option<&'static str> {
    let url = url.trim_start();
    let rest = url
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("data:"))
        .map(|_| &url[5..])?;
    let mime = rest
        .split([',', ';'])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let inert = mime.is_empty()
        || matches!(
            mime.as_str(),
            "text/plain" | "text/css" | "text/csv" | "application/json" | "application/pdf"
        )
        || (mime.starts_with("image/") && !mime.contains("svg"))
        || mime.starts_with("audio/")
        || mime.starts_with("video/")
        || mime.starts_with("font/");
    (!inert).then_some("its `data:` URL is a document the caller wrote, which can run scripts")
}

impl Scripted for OpenParams {
    fn script_use(&self) -> Option<&'static str> {
        data_document(&self.url)
    }
}

impl Scripted for TabNewParams {
    fn script_use(&self) -> Option<&'static str> {
        self.url.as_deref().and_then(data_document)
    }
}

impl Scripted for A11yParams {
    fn script_use(&self) -> Option<&'static str> {
        self.url.as_deref().and_then(data_document)
    }
}

impl Scripted for VitalsParams {
    fn script_use(&self) -> Option<&'static str> {
        self.url.as_deref().and_then(data_document)
    }
}

/// Resource types whose answer never runs as script: a route answering only these with a body
/// mocks data.
fn inert(t: ResourceType) -> bool {
    matches!(
        t,
        ResourceType::Stylesheet
            | ResourceType::Image
            | ResourceType::Media
            | ResourceType::Font
            | ResourceType::Texttrack
            | ResourceType::Xhr
            | ResourceType::Fetch
            | ResourceType::Eventsource
            | ResourceType::Websocket
            | ResourceType::Manifest
            | ResourceType::Ping
            | ResourceType::Cspviolationreport
            | ResourceType::Preflight
    )
}

impl Scripted for NetworkRouteParams {
    fn script_use(&self) -> Option<&'static str> {
        let body = self.body.is_some() || self.body_file.is_some();
        let scripts = self
            .resource_types
            .as_ref()
            .is_none_or(|types| !types.iter().all(|t| inert(*t)));
        (self.action() == RouteAction::Fulfill && body && scripts).then_some(
            "it answers documents or scripts with a body the caller wrote (limit it with \
             resourceTypes such as xhr and fetch to mock data)",
        )
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::{Value, json};

    use super::*;

    /// Property names that mean code.
    const CODE_NAMES: &[&str] = &[
        "script",
        "function",
        "expression",
        "fn",
        "js",
        "code",
        "handler",
        "callback",
        "predicate",
    ];

    /// Whether a property (its name and schema) carries JavaScript: named as code, or a
    /// string or path whose description says it is JavaScript.
    fn is_code(name: &str, prop: &Value) -> bool {
        let about = prop
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        let javascript = about.contains("javascript")
            && ["function", "expression", "source", "file"]
                .iter()
                .any(|w| about.contains(w));
        CODE_NAMES.contains(&name)
            || javascript
            || about.contains("function source")
            || about.contains("url of a script")
    }

    /// The JavaScript-carrying properties a schema reaches (following `$ref`s into `defs`),
    /// as paths.
    fn code_fields(
        schema: &Value,
        defs: &Value,
        at: &str,
        seen: &mut Vec<String>,
        out: &mut BTreeSet<String>,
    ) {
        match schema {
            Value::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                    let name = r.rsplit('/').next().unwrap_or(r).to_string();
                    if !seen.contains(&name) {
                        seen.push(name.clone());
                        if let Some(def) = defs.get(&name) {
                            code_fields(def, defs, &format!("{at}<{name}>"), seen, out);
                        }
                        seen.pop();
                    }
                }
                if let Some(Value::Object(props)) = map.get("properties") {
                    for (k, v) in props {
                        if is_code(k, v) {
                            out.insert(format!("{at}.{k}"));
                        }
                        code_fields(v, defs, &format!("{at}.{k}"), seen, out);
                    }
                }
                for (k, v) in map {
                    if k != "properties" && k != "$defs" && k != "description" {
                        code_fields(v, defs, at, seen, out);
                    }
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|v| code_fields(v, defs, at, seen, out)),
            _ => {}
        }
    }

    /// The commands that can run JavaScript without a field that carries it, and why.
    const WITHOUT_A_CODE_FIELD: &[(&str, &str)] = &[
        (
            "cdp_url",
            "hands out the DevTools endpoint, which runs anything",
        ),
        ("open", "a data: URL is a document the caller wrote"),
        ("tab_new", "a data: URL is a document the caller wrote"),
        ("a11y", "navigates to its url first: a data: document"),
        ("vitals", "navigates to its url first: a data: document"),
        (
            "network_route",
            "a body answering documents or scripts is code",
        ),
    ];

    /// Every command whose parameters can carry JavaScript, found in its parameter schema,
    /// says so in the command list; and every command that says so carries it (or is one of
    /// the few whose JavaScript comes in another form, listed with the reason).
    #[test]
    fn every_command_carrying_javascript_is_declared() {
        let mut carrying = BTreeSet::new();
        for doc in Command::reference() {
            let defs = doc.params.get("$defs").cloned().unwrap_or(json!({}));
            let mut fields = BTreeSet::new();
            code_fields(&doc.params, &defs, doc.name, &mut Vec::new(), &mut fields);
            if !fields.is_empty() {
                assert!(
                    Command::may_run_script(doc.name),
                    "`{}` carries JavaScript ({fields:?}) but its entry in for_each_command! \
                     is neither [Dangerous] nor marked `| script`",
                    doc.name
                );
                carrying.insert(doc.name);
            }
        }
        for action in script_actions() {
            let excused = WITHOUT_A_CODE_FIELD.iter().any(|(a, _)| a == action);
            assert!(
                carrying.contains(action) || excused,
                "`{action}` is declared to run JavaScript but no parameter carries any"
            );
        }
        // The ones the issue named are among them.
        for a in [
            "eval",
            "wait",
            "add_script",
            "add_init_script",
            "click",
            "cdp_url",
        ] {
            assert!(script_actions().contains(&a), "{a}");
        }
        assert!(!script_actions().contains(&"webmcp_invoke"));
        assert!(!script_actions().contains(&"snapshot"));
    }

    fn command(v: Value) -> Command {
        let action = v["action"].as_str().unwrap().to_string();
        let mut params = v;
        params.as_object_mut().unwrap().remove("action");
        Command::from_parts(&action, params).unwrap().unwrap()
    }

    #[test]
    fn parameters_decide_the_kind_of_a_marked_command() {
        let wait_fn = command(
            json!({"action": "wait", "condition": {"type": "function", "function": "() => true"}}),
        );
        assert_eq!(wait_fn.kind(), Kind::Dangerous);
        assert_eq!(wait_fn.declared_kind(), Kind::Read);
        let nested = command(
            json!({"action": "wait", "condition": {"type": "all", "conditions": [
            {"type": "text", "text": "a"}, {"type": "function", "function": "1"}]}}),
        );
        assert_eq!(nested.kind(), Kind::Dangerous);
        let text = command(json!({"action": "wait", "condition": {"type": "text", "text": "a"}}));
        assert_eq!(text.kind(), Kind::Read);
        assert!(text.script_use().is_none());
        let click = command(
            json!({"action": "click", "ref": "e1", "wait": {"type": "function", "function": "1"}}),
        );
        assert_eq!(click.kind(), Kind::Dangerous);
        assert_eq!(
            command(json!({"action": "click", "ref": "e1"})).kind(),
            Kind::Mutate
        );
        assert_eq!(
            command(json!({"action": "eval", "script": "1"})).kind(),
            Kind::Dangerous
        );
        for (url, scripted) in [
            ("data:text/html,<script>1</script>", true),
            ("DATA:image/svg+xml;base64,AAAA", true),
            ("data:,hello", false),
            ("data:text/plain,<script>", false),
            ("data:image/png;base64,AAAA", false),
            ("http://127.0.0.1/", false),
        ] {
            let open = command(json!({"action": "open", "url": url}));
            assert_eq!(open.script_use().is_some(), scripted, "{url}");
        }
        let route = |extra: Value| {
            let mut v = json!({"action": "network_route", "url": "**/*"});
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            command(v).script_use().is_some()
        };
        assert!(route(json!({"body": "<script>1</script>"})));
        assert!(route(
            json!({"body": "x", "resourceTypes": ["fetch", "script"]})
        ));
        assert!(!route(
            json!({"body": "{}", "resourceTypes": ["fetch", "xhr"]})
        ));
        assert!(!route(json!({"abort": "failed"})));
        assert!(!route(json!({"status": 404})));
    }

    #[test]
    fn the_reference_says_when_parameters_make_a_command_dangerous() {
        let wait = Command::reference()
            .into_iter()
            .find(|d| d.name == "wait")
            .unwrap();
        assert!(wait.summary.contains("`dangerous`"), "{}", wait.summary);
    }
}
