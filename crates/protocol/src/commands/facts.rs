//! What the engine and the front ends know of each command besides its parameters and result,
//! declared beside the command, as Playwright's protocol spec carries each method's flags: the
//! facts of its entry in `for_each_command!` ([`Facts`]: `{ key: value, ... }` after its kind,
//! every key with a safe default), and the facts its parameters decide ([`ParamFacts`],
//! implemented by each parameter type beside it, every method with a default). The engine and
//! the front ends ask the command (`command.facts().dialog`, `command.url_fields()`, ...) and
//! never list commands of their own.

use crate::caps::state::CookieInput;
use crate::{Command, ErrorCode, Kind};

/// What a command does while a JavaScript dialog (a `confirm` or `prompt` left for the agent)
/// pauses a tab's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialog {
    /// It needs the page (the default): it answers `dialog_open` instead of running while a
    /// dialog is open in its tab, and a dialog it opens there ends it with `dialog_open`.
    Stops,
    /// An action: it answers `dialog_open` while a dialog is open in its tab, and reports a
    /// dialog it opens in its own result (`openDialog`).
    Reports,
    /// It runs while a dialog is open (it does not need the page's scripts: the session's own
    /// commands, tabs, the dialog commands), and a dialog that opens meanwhile does not end it.
    Ignores,
    /// It runs while a dialog is open, but a dialog in a tab it opened ends it with
    /// `dialog_open` (`tab_new`: its page may ask on load).
    OpensTab,
}

impl Dialog {
    /// Whether the command runs while a dialog is open in the active tab.
    pub fn runs_while_open(self) -> bool {
        matches!(self, Dialog::Ignores | Dialog::OpensTab)
    }

    /// Whether a dialog the command opens in its own tab ends it with `dialog_open`.
    pub fn stops_on_own_tab(self) -> bool {
        self == Dialog::Stops
    }

    /// Whether a dialog left open in a tab the command itself opened ends it with
    /// `dialog_open`.
    pub fn stops_on_new_tab(self) -> bool {
        matches!(self, Dialog::Stops | Dialog::OpensTab)
    }
}

/// What a command closes when it succeeds: the tab (or browser) going away is then its
/// success, not a crash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closes {
    /// Nothing (the default).
    Nothing,
    /// A tab (`tab_close`).
    Tab,
    /// The browser and the session (`close`): the session's daemon exits after it.
    Session,
}

/// A group of MCP tools, turned on with the MCP server's `--caps` (`core` always is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum McpGroup {
    /// What an agent needs for most tasks.
    Core,
    /// History and reload beyond going back.
    History,
    /// The mouse at viewport coordinates, for pages a snapshot does not reach.
    Vision,
    /// Storage state files, cookies, local and session storage, and the auth vault.
    Storage,
    /// Save the page as a PDF.
    Pdf,
    /// Assertions on the page (visible elements, text, lists, values) and locators for tests.
    Testing,
    /// The network's state (online or offline); the routes are core tools here.
    Network,
    /// The server's resolved configuration.
    Config,
    /// Developer aids on the page: persistent element highlights.
    Devtools,
    /// Python cells against the SDK on the connection's browser (`browser_run_python`): code that
    /// runs with the server's rights, so only when named (`--caps code`; `all` leaves it out).
    Code,
}

impl McpGroup {
    /// Every group, in documentation order.
    pub const ALL: &'static [McpGroup] = &[
        McpGroup::Core,
        McpGroup::History,
        McpGroup::Vision,
        McpGroup::Storage,
        McpGroup::Pdf,
        McpGroup::Testing,
        McpGroup::Network,
        McpGroup::Config,
        McpGroup::Devtools,
        McpGroup::Code,
    ];

    /// The name `--caps` takes.
    pub fn name(self) -> &'static str {
        match self {
            McpGroup::Core => "core",
            McpGroup::History => "history",
            McpGroup::Vision => "vision",
            McpGroup::Storage => "storage",
            McpGroup::Pdf => "pdf",
            McpGroup::Testing => "testing",
            McpGroup::Network => "network",
            McpGroup::Config => "config",
            McpGroup::Devtools => "devtools",
            McpGroup::Code => "code",
        }
    }

    /// Whether `--caps all` turns it on (every group but `code`, which runs code with the server's
    /// rights and must be named).
    pub fn in_all(self) -> bool {
        self != McpGroup::Code
    }

    /// The tool `name` titled `title` in this group (an entry's `mcp` fact).
    pub const fn tool(self, name: &'static str, title: &'static str) -> McpTool {
        McpTool {
            group: self,
            name,
            title,
        }
    }
}

/// The MCP tool a command is, as it is: its parameter schema the input schema, its summary the
/// description, its presenter the answer (an action answers what changed on the page, a
/// navigation a snapshot). The MCP server adds only what is its own (Playwright MCP's argument
/// names, parameters it sets or leaves out, a description of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct McpTool {
    /// The group that lists it.
    pub group: McpGroup,
    /// The tool's name (Playwright MCP's where it has the tool).
    pub name: &'static str,
    /// Its human-readable title.
    pub title: &'static str,
}

/// The facts of a command's entry in `for_each_command!`: what it declares in `{ ... }` after
/// its kind, the rest from [`Facts::of_kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// What it does while a dialog pauses the page ([`Dialog::Stops`] unless declared; its
    /// parameters can change it: [`ParamFacts::dialog`]).
    pub dialog: Dialog,
    /// No action policy holds it back: it starts, inspects, answers or ends the session.
    pub exempt: bool,
    /// The session's daemon answers it while another command runs, from the state the last
    /// command left (instead of making it wait its turn).
    pub busy: bool,
    /// A read that needs its tab shown when it runs in another tab than the active one
    /// (screenshots, waits); every other kind of command does anyway.
    pub shows_tab: bool,
    /// What it closes when it succeeds.
    pub closes: Closes,
    /// It takes `tab` as its own parameter (the tab it acts on), not as the request's scope.
    pub tab_param: bool,
    /// Its answer holds page content, which content boundaries mark (default: every kind but
    /// `session`; the session's own state is not).
    pub page_content: bool,
    /// The policy category that names it besides its action and kind (`upload`, `download`,
    /// `dialog`, `permission`; `eval` is the kind `dangerous`, not declared here).
    pub category: Option<&'static str>,
    /// Sent only to a running session, never starting one: the error it answers when none runs.
    pub without_session: Option<ErrorCode>,
    /// It runs the command a confirmation paused (`confirm`): its timeout is that command's.
    pub runs_paused: bool,
    /// After it succeeds, a session restored from saved state runs its checks (the first
    /// navigation by `open`).
    pub checks_restore: bool,
    /// The MCP tool it is (`None`: none of its own; the MCP server may still run it in a tool
    /// of its own shape).
    pub mcp: Option<McpTool>,
}

impl Facts {
    /// The facts of a command of `kind` that declares none.
    pub const fn of_kind(kind: Kind) -> Facts {
        Facts {
            dialog: Dialog::Stops,
            exempt: false,
            busy: false,
            shows_tab: false,
            closes: Closes::Nothing,
            tab_param: false,
            page_content: !matches!(kind, Kind::Session),
            category: None,
            without_session: None,
            runs_paused: false,
            checks_restore: false,
            mcp: None,
        }
    }
}

/// A URL, origin, cookie domain or URL glob a command names: the session's allowed domains
/// (and its file access) are checked against each before the command runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UrlField<'a> {
    /// A URL or origin it loads, fetches or scopes to, under its parameter's name.
    Url(&'static str, &'a str),
    /// A URL glob it matches requests with (a literal host is checked; a wildcard one is left
    /// to the browser).
    Glob(&'static str, &'a str),
    /// A cookie domain (`.example.com` or `example.com`), under its parameter's name.
    CookieDomain(&'static str, &'a str),
    /// A cookie given inline (its `url` and `domain`).
    Cookie(&'a CookieInput),
}

/// What a command's parameters say about it beyond their values. Every parameter type of the
/// command list implements it beside its declaration (most with `{}`: the defaults).
pub trait ParamFacts {
    /// The condition these parameters wait for after their action (their `wait`), if any: its
    /// budget is the command's ([`ParamFacts::wait_budget_ms`]).
    fn wait(&self) -> Option<&crate::WaitCondition> {
        None
    }

    /// The time the command's own wait may take, in milliseconds (0: it has none): its `wait`'s
    /// budget, unless the parameters say otherwise. A request without a `timeout` gets the
    /// default timeout plus this, so a long wait asked for is not cut by the default.
    fn wait_budget_ms(&self) -> u64 {
        self.wait().map_or(0, crate::WaitCondition::budget_ms)
    }

    /// The URLs, origins, cookie domains and URL globs these parameters name.
    fn url_fields(&self) -> Vec<UrlField<'_>> {
        Vec::new()
    }

    /// What the command does while a dialog is open: its entry's `declared` rule, unless these
    /// parameters make it another (`read` of a URL over HTTP does not need the page).
    fn dialog(&self, declared: Dialog) -> Dialog {
        declared
    }

    /// These parameters as a trace may keep them: without the secrets they carry (`None`: they
    /// carry none).
    fn without_secrets(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// The confirmation these parameters answer (`confirm`, `deny`).
    fn confirmation_id(&self) -> Option<&str> {
        None
    }

    /// The page's own tool (WebMCP) these parameters call: its annotations, not the command's
    /// kind, say whether the call reads or mutates (what an action policy decides on).
    fn page_tool(&self) -> Option<PageTool<'_>> {
        None
    }
}

/// A page's own tool (WebMCP) a command calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageTool<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// The frame whose tool it is (`None`: any frame's tool of that name).
    pub frame_id: Option<&'a str>,
}

/// Each optional `url` of `fields`, named.
pub(crate) fn url_fields_of<'a>(fields: &[(&'static str, Option<&'a str>)]) -> Vec<UrlField<'a>> {
    fields
        .iter()
        .filter_map(|(name, u)| u.map(|u| UrlField::Url(name, u)))
        .collect()
}

impl Command {
    /// The time the command's own wait may take, in milliseconds, as its parameters say
    /// ([`ParamFacts::wait_budget_ms`]).
    pub fn wait_budget_ms(&self) -> u64 {
        self.param_facts().wait_budget_ms()
    }

    /// The URLs, origins, cookie domains and URL globs the command names
    /// ([`ParamFacts::url_fields`]).
    pub fn url_fields(&self) -> Vec<UrlField<'_>> {
        self.param_facts().url_fields()
    }

    /// What the command does while a dialog is open: its entry's rule, unless its parameters
    /// change it ([`ParamFacts::dialog`]).
    pub fn dialog(&self) -> Dialog {
        self.param_facts().dialog(self.facts().dialog)
    }

    /// Whether the command, run in another tab than the active one (the envelope's `tab`),
    /// needs that tab shown while it runs: every kind but reads (pointer moves, animation
    /// frames and rendering wait for a shown page), and the reads that say so.
    pub fn shows_its_tab(&self) -> bool {
        self.kind() != Kind::Read || self.facts().shows_tab
    }

    /// The command as a trace may keep it: its parameters without their secrets.
    pub fn traced(&self) -> Command {
        self.without_secrets().unwrap_or_else(|| self.clone())
    }

    /// The MCP tools commands are (their entries' `mcp`), with their actions, in the command
    /// list's order.
    pub fn mcp_tools() -> impl Iterator<Item = (&'static str, &'static McpTool)> {
        let tool = |a: &'static str| Some((a, Command::facts_of(a)?.mcp.as_ref()?));
        Command::ACTIONS.iter().copied().filter_map(tool)
    }

    /// The actions of the policy category `category` (besides `eval`), in the command list's
    /// order.
    pub fn in_category(category: &str) -> impl Iterator<Item = &'static str> + '_ {
        Command::ACTIONS
            .iter()
            .copied()
            .filter(move |a| Command::facts_of(a).and_then(|f| f.category) == Some(category))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn command(v: Value) -> Command {
        let action = v["action"].as_str().unwrap().to_string();
        let mut params = v;
        params.as_object_mut().unwrap().remove("action");
        Command::from_parts(&action, params).unwrap().unwrap()
    }

    /// The names of the URL fields a command names.
    fn url_names(c: &Command) -> Vec<&'static str> {
        c.url_fields()
            .iter()
            .map(|f| match f {
                UrlField::Url(n, _) | UrlField::Glob(n, _) | UrlField::CookieDomain(n, _) => *n,
                UrlField::Cookie(_) => "cookies",
            })
            .collect()
    }

    /// One request naming each URL-bearing parameter of a command, with the fields the
    /// allowed domains are checked on.
    fn url_examples() -> Vec<(Value, Vec<&'static str>)> {
        let u = "http://a.test/";
        vec![
            (json!({"action": "open", "url": u}), vec!["url"]),
            (json!({"action": "tab_new", "url": u}), vec!["url"]),
            (json!({"action": "read", "url": u}), vec!["url"]),
            (json!({"action": "a11y", "url": u}), vec!["url"]),
            (json!({"action": "vitals", "url": u}), vec!["url"]),
            (json!({"action": "add_script", "url": u}), vec!["url"]),
            (json!({"action": "add_style", "url": u}), vec!["url"]),
            (
                json!({"action": "set_permissions", "permissions": ["geolocation"], "origin": u}),
                vec!["origin"],
            ),
            (
                json!({"action": "set_headers", "headers": {"x": "1"}, "origin": u}),
                vec!["origin"],
            ),
            (
                json!({"action": "cookies_get", "urls": [u, u]}),
                vec!["urls", "urls"],
            ),
            (
                json!({"action": "cookies_set", "name": "n", "value": "v", "url": u}),
                vec!["url"],
            ),
            (
                json!({"action": "cookies_set", "name": "n", "value": "v", "domain": "a.test"}),
                vec!["domain"],
            ),
            (
                json!({"action": "cookies_set", "cookies": [{"name": "n", "value": "v", "url": u}]}),
                vec!["cookies"],
            ),
            (
                json!({"action": "network_route", "url": "http://a.test/**"}),
                vec!["url"],
            ),
        ]
    }

    /// URL-like parameters the allowed domains are not checked on before the command runs,
    /// and why.
    const NOT_CHECKED_BEFORE: &[(&str, &str, &str)] = &[
        ("launch", "cdpUrl", "the browser to attach to, not a page"),
        ("launch", "allowedDomains", "the list itself"),
        (
            "snapshot",
            "urls",
            "a switch (show link targets), not a URL",
        ),
        (
            "read",
            "cookies",
            "a switch (send the session's cookies), not a cookie",
        ),
        (
            "cookies_clear",
            "url",
            "it removes cookies: it reaches no host",
        ),
        (
            "cookies_clear",
            "domain",
            "it removes cookies: it reaches no host",
        ),
        (
            "network_unroute",
            "url",
            "it removes routes: it reaches no host",
        ),
        (
            "auth_save",
            "url",
            "kept in the vault; the browser's own guard refuses `auth_login`'s navigation",
        ),
        (
            "read",
            "allowedDomains",
            "a narrower allowlist for this read, not a host it reaches (its `url` is checked)",
        ),
    ];

    #[test]
    fn commands_name_their_urls() {
        for (request, names) in url_examples() {
            let c = command(request.clone());
            assert_eq!(url_names(&c), names, "{request}");
        }
        assert!(
            command(json!({"action": "tab_new"}))
                .url_fields()
                .is_empty()
        );
        assert!(command(json!({"action": "title"})).url_fields().is_empty());
    }

    /// Every parameter whose name says it is a URL, an origin or a domain is checked against
    /// the allowed domains (an example above shows it), or listed with the reason it is not.
    #[test]
    fn every_url_parameter_is_checked_or_excused() {
        let examples = url_examples();
        let mut missing = Vec::new();
        for doc in Command::reference() {
            let Some(Value::Object(props)) = doc.params.get("properties") else {
                continue;
            };
            for name in props.keys() {
                let lower = name.to_ascii_lowercase();
                if !["url", "origin", "domain", "cookies"]
                    .iter()
                    .any(|w| lower.contains(w))
                {
                    continue;
                }
                let shown = examples
                    .iter()
                    .any(|(r, names)| r["action"] == doc.name && names.contains(&name.as_str()));
                let excused = NOT_CHECKED_BEFORE
                    .iter()
                    .any(|(a, n, _)| *a == doc.name && n == name);
                if !shown && !excused {
                    missing.push(format!("{}.{name}", doc.name));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "URL-like parameters neither checked against the allowed domains (ParamFacts::url_fields) nor excused: {missing:?}"
        );
    }

    #[test]
    fn dialogs_follow_entries_and_parameters() {
        let rule = |v: Value| command(v).dialog();
        assert_eq!(
            rule(json!({"action": "click", "ref": "e1"})),
            Dialog::Reports
        );
        assert_eq!(rule(json!({"action": "title"})), Dialog::Stops);
        assert_eq!(rule(json!({"action": "status"})), Dialog::Ignores);
        assert_eq!(rule(json!({"action": "tab_new"})), Dialog::OpensTab);
        assert_eq!(rule(json!({"action": "read"})), Dialog::Stops);
        assert_eq!(
            rule(json!({"action": "read", "url": "http://a.test/"})),
            Dialog::Ignores
        );
        assert!(Dialog::OpensTab.runs_while_open() && Dialog::OpensTab.stops_on_new_tab());
        assert!(!Dialog::Reports.stops_on_own_tab() && !Dialog::Reports.stops_on_new_tab());
        assert!(Dialog::Stops.stops_on_own_tab() && !Dialog::Stops.runs_while_open());
    }

    #[test]
    fn entries_declare_their_facts_and_default_the_rest() {
        let facts = |a: &str| *Command::facts_of(a).unwrap();
        assert!(facts("status").busy && facts("status").exempt);
        assert!(!facts("click").busy && !facts("click").exempt);
        assert_eq!(facts("close").closes, Closes::Session);
        assert_eq!(facts("tab_close").closes, Closes::Tab);
        assert_eq!(facts("open").closes, Closes::Nothing);
        // Page content by default for every kind but `session`, unless declared.
        assert!(facts("snapshot").page_content && facts("tab_switch").page_content);
        assert!(!facts("set_viewport").page_content && !facts("screenshot").page_content);
        assert!(Command::facts_of("nope").is_none());
        let c = command(json!({"action": "status"}));
        assert!(std::ptr::eq(
            c.facts(),
            Command::facts_of("status").unwrap()
        ));
        // The MCP tools commands are, each name once.
        let hover = Command::facts_of("hover").unwrap().mcp.unwrap();
        assert_eq!((hover.group, hover.name), (McpGroup::Core, "browser_hover"));
        assert!(Command::facts_of("title").unwrap().mcp.is_none());
        let names: Vec<_> = Command::mcp_tools().map(|(_, t)| t.name).collect();
        let unique: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "a tool name is declared twice");
        assert_eq!(
            McpGroup::ALL.iter().map(|g| g.name()).collect::<Vec<_>>(),
            [
                "core", "history", "vision", "storage", "pdf", "testing", "network", "config",
                "devtools", "code"
            ]
        );
    }

    /// One request of each command whose parameters take a `wait` (without it).
    fn waiting_examples() -> Vec<Value> {
        let target = [
            "click", "check", "uncheck", "hover", "tap", "focus", "clear",
        ];
        let mut examples: Vec<Value> = target
            .iter()
            .chain(&["scroll_into_view"])
            .map(|a| json!({"action": a, "ref": "e1"}))
            .collect();
        examples.extend([
            json!({"action": "fill", "ref": "e1", "value": "v"}),
            json!({"action": "type", "ref": "e1", "text": "t"}),
            json!({"action": "select", "ref": "e1", "value": "v"}),
            json!({"action": "press", "key": "Enter"}),
            json!({"action": "keyboard_type", "text": "x"}),
            json!({"action": "keyboard_insert_text", "text": "x"}),
            json!({"action": "keyboard_down", "key": "Shift"}),
            json!({"action": "keyboard_up", "key": "Shift"}),
            json!({"action": "mouse_move", "x": 1, "y": 1}),
            json!({"action": "mouse_down"}),
            json!({"action": "mouse_up"}),
            json!({"action": "mouse_wheel", "dx": 0, "dy": 10}),
            json!({"action": "keyboard_dispatch", "eventType": "keyDown", "key": "a"}),
            json!({"action": "mouse_dispatch", "eventType": "mouseMoved", "x": 1, "y": 1}),
            json!({"action": "drag", "source": "e1", "target": "e2"}),
            json!({"action": "upload", "ref": "e1", "files": ["/tmp/a.txt"]}),
            json!({"action": "drop", "ref": "e1", "data": {"text/plain": "x"}}),
            json!({"action": "clipboard_copy"}),
            json!({"action": "clipboard_paste"}),
        ]);
        examples
    }

    /// Every command whose parameters take a `wait` gets its budget: a request without a
    /// `timeout` is not cut at the default while the wait it asked for runs.
    #[test]
    fn every_wait_gives_its_budget() {
        let examples = waiting_examples();
        let mut missing = Vec::new();
        for doc in Command::reference() {
            let takes_wait = doc.params["properties"].get("wait").is_some();
            let example = examples.iter().find(|e| e["action"] == doc.name);
            match (takes_wait, example) {
                (true, None) => missing.push(doc.name),
                (false, Some(_)) => panic!("`{}` takes no `wait`", doc.name),
                _ => {}
            }
        }
        assert!(missing.is_empty(), "no example with a `wait`: {missing:?}");
        for example in examples {
            let mut with_wait = example.clone();
            with_wait["wait"] = json!({"type": "text", "text": "x", "timeoutMs": 7000});
            assert_eq!(command(example.clone()).wait_budget_ms(), 0, "{example}");
            assert_eq!(command(with_wait).wait_budget_ms(), 7000, "{example}");
        }
    }

    #[test]
    fn budgets_and_secrets_come_from_parameters() {
        let budget = |v: Value| command(v).wait_budget_ms();
        assert_eq!(budget(json!({"action": "title"})), 0);
        assert_eq!(budget(json!({"action": "wait", "ms": 500})), 500);
        assert_eq!(
            budget(json!({"action": "click", "ref": "e1",
                "wait": {"type": "text", "text": "x", "timeoutMs": 7000}})),
            7000
        );
        assert_eq!(
            budget(json!({"action": "read", "url": "http://a.test/", "timeoutMs": 9})),
            9
        );
        let save = command(json!({"action": "auth_save", "name": "a",
            "url": "http://a.test/", "username": "u", "password": "secret"}));
        let password = |c: &Command| serde_json::to_value(c).unwrap()["password"].clone();
        assert_eq!(password(&save), "secret");
        assert_eq!(password(&save.traced()), "<redacted>");
        let title = command(json!({"action": "title"}));
        assert_eq!(title.traced(), title);
        let confirm = command(json!({"action": "confirm", "confirmationId": "c1"}));
        assert_eq!(confirm.param_facts().confirmation_id(), Some("c1"));
        assert!(confirm.facts().runs_paused);
        assert!(
            !command(json!({"action": "deny", "confirmationId": "c1"}))
                .facts()
                .runs_paused
        );
    }
}
