//! Pins what every command line plans: the exact wire request the CLI sends (key order
//! included), or the refusal, the CLI-side failure or the usage error it answers instead, in
//! `tests/golden/plans.json`. The lines are every subcommand with its arguments, each option
//! alone (each value of a value list), and the sugar forms; a refactor of the argument parsing
//! must change none. Each line's group tree (`args::command_for`, what a command line builds
//! first) plans it as the whole tree does, or fails so that the whole tree parses it again. A
//! deliberate change is recorded with
//! `UPDATE_GOLDEN=1 cargo nextest run --release -p agentbrowser --lib plan_golden`.

use clap::{CommandFactory, FromArgMatches};
use serde_json::{Value, json};

use crate::args::{Cli, command_for};
use crate::command::{Plan, plan};

/// The golden file, relative to the crate.
const FILE: &str = "tests/golden/plans.json";

/// Lines the tree walk does not make: the sugar forms, their errors, numbers the wire cannot
/// carry, and global options.
const EXTRA: &[&[&str]] = &[
    &["--timeout", "500", "click", "e3"],
    &["--timeout", "500", "read", "http://x/a"],
    &["--timeout", "500", "webmcp", "invoke", "t"],
    &["--timeout", "500", "webmcp", "result", "i1"],
    &["--timeout", "500", "webmcp", "list"],
    &["click", "e3", "--count", "-1"],
    &["click", "e3", "--count", "300"],
    &[
        "click",
        "e3",
        "--modifiers",
        "shift,alt",
        "--button",
        "right",
    ],
    &[
        "click",
        "e3",
        "--wait-text",
        "a",
        "--wait-url",
        "u",
        "--wait-load",
        "load",
    ],
    &[
        "click",
        "e3",
        "--wait-selector",
        "#a",
        "--wait-state",
        "hidden",
        "--wait-fn",
        "f",
    ],
    &["click", "e3", "--wait-state", "hidden"],
    &["click", "e3", "--no-evidence", "--delta"],
    &["snapshot", "-d", "-1"],
    &["snapshot", "--max-bytes", "-1", "-d", "-2"],
    &[
        "snapshot", "-i", "-c", "-d", "3", "-s", "main", "--urls", "--delta", "--full",
    ],
    &["snapshot", "--full", "-c"],
    &["fill", "#num", "-5", "--no-evidence"],
    &["select", "e2", "a"],
    &["select", "e2", "a", "b", "--wait-text", "x"],
    &["find", "role", "button", "--name", "Save", "click"],
    &[
        "find",
        "role",
        "button",
        "--name",
        "Save",
        "--exact",
        "click",
        "--no-evidence",
    ],
    &["find", "label", "Email", "fill", "a@b.c"],
    &["find", "text", "Next", "nth", "1", "click"],
    &["find", "text", "Next", "nth", "x", "click"],
    &["find", "text", "Next", "nth", "-1", "text"],
    &["find", "testid", "row", "last", "text"],
    &["find", "testid", "row", "first", "attr", "href"],
    &["find", "testid", "row", "first", "attr"],
    &["find", "testid", "row", "select", "v", "--wait-text", "ok"],
    &["find", "testid", "row", "type", "hello"],
    &["find", "testid", "row", "type", "a", "b"],
    &["find", "placeholder", "x", "check", "extra"],
    &["find", "alt", "x", "bogus"],
    &["find", "title", "x", "--limit", "5"],
    &["find", "title", "x", "--limit", "-5"],
    &["find", "text", "x"],
    &[
        "find",
        "text",
        "x",
        "first",
        "uncheck",
        "--delta",
        "--wait-url",
        "u",
    ],
    &["find", "text", "x", "hover"],
    &["find", "text", "x", "tap"],
    &["find", "text", "x", "focus"],
    &["find", "text", "x", "clear"],
    &["find", "text", "x", "scroll-into-view"],
    &["find", "text", "x", "inner-text"],
    &["find", "text", "x", "value"],
    &["find", "text", "x", "visible"],
    &["find", "text", "x", "enabled"],
    &["find", "text", "x", "checked"],
    &["upload", "e3", "a.pdf", "/tmp/b.pdf"],
    &["upload", "--chooser", "a.pdf"],
    &["upload", "e3"],
    &["upload", "e3", ""],
    &["highlight", "e3", "--style", "outline: 2px dashed red"],
    &["highlight", "--hide"],
    &["highlight", "--hide", "e3"],
    &["highlight", "e3", "--hide", "--style", "x: y"],
    &["highlight", "e3", "--style", "a{b:c}"],
    &["download", "e3", "out/", "--timeout-ms", "5"],
    &["wait", "500"],
    &["wait", "-5"],
    &["wait", "1.5"],
    &["wait", "#done"],
    &["wait", "#done", "--state", "hidden"],
    &["wait", "--state", "hidden"],
    &["wait", "--text", "a", "--url", "u", "--load", "networkidle"],
    &[
        "wait",
        "#a",
        "--fn",
        "f",
        "--ready",
        "--min-text",
        "5",
        "--text",
        "t",
    ],
    &["wait", "--min-text", "5"],
    &["wait", "500", "--text", "a"],
    &["wait", "--download"],
    &["wait", "--download", "out.bin", "--timeout-ms", "9"],
    &["wait", "--download", "--text", "a"],
    &["wait", "--timeout-ms", "9"],
    &["wait"],
    &["screenshot"],
    &["screenshot", "shot.png"],
    &["screenshot", "./shot"],
    &["screenshot", "~/shot"],
    &["screenshot", "e3"],
    &["screenshot", "e3", "out.jpg", "--quality", "50"],
    &["screenshot", "--quality", "-1"],
    &["screenshot", "--quality", "999"],
    &["screenshot", "--threshold", "0.1", "--annotate", "-f"],
    &["read", "http://x/a", "--header", "A: b", "--header", "C:d"],
    &["read", "--header", "nocolon"],
    &["read", "--max-chars", "-1"],
    &[
        "read",
        "--html",
        "--require-md",
        "--outline",
        "--filter",
        "-x",
    ],
    &["vitals", "--quiet-ms", "-1", "--cap-ms", "-5"],
    &[
        "vitals",
        "http://x/",
        "--quiet-ms",
        "10",
        "--cap-ms",
        "60001",
    ],
    &["a11y", "--tags", "wcag2a,best-practice", "-s", "main"],
    &["set", "device", "list"],
    &["set", "device", "iPhone", "15"],
    &["set", "device"],
    &["set", "permissions", "geolocation notifications,camera"],
    &["set", "permissions", "--clear"],
    &["set", "offline", "on"],
    &["set", "offline", "off"],
    &["set", "throttle", "slow-3g"],
    &["set", "throttle", "fast-3g"],
    &["set", "throttle", "fast-4g"],
    &["set", "throttle", "off"],
    &[
        "set",
        "throttle",
        "--latency",
        "99999999999",
        "--download",
        "5",
    ],
    &["set", "headers", "{\"X-A\":\"b\"}", "--origin", "http://x"],
    &["set", "headers", "nope"],
    &["set", "credentials", "u", "-secret"],
    &["set", "credentials", "--clear"],
    &["set", "viewport", "800", "600", "2", "--mobile"],
    &["set", "viewport"],
    &["set", "geolocation", "-1.5", "2.5", "--accuracy", "3"],
    &[
        "set",
        "media",
        "dark",
        "--reduced-motion",
        "reduce",
        "--media",
        "print",
    ],
    &["set", "ua", "X"],
    &["set", "geo"],
    &["set", "auth", "u", "p"],
    &["cookies"],
    &[
        "cookies",
        "--url",
        "http://a/",
        "--url",
        "http://b/",
        "--show-values",
    ],
    &["cookies", "get", "--show-values"],
    &[
        "cookies",
        "set",
        "n",
        "v",
        "--url",
        "http://x/",
        "--same-site",
        "lax",
    ],
    &[
        "cookies",
        "set",
        "n",
        "v",
        "--domain",
        "x",
        "--same-site",
        "STRICT",
    ],
    &["cookies", "set", "n", "v", "--same-site", "bogus"],
    &["cookies", "set", "--file", "c.txt", "--url", "http://x/"],
    &[
        "cookies",
        "set",
        "n",
        "v",
        "--url",
        "u",
        "--path",
        "/",
        "--expires",
        "9",
        "--http-only",
        "--secure",
    ],
    &["cookies", "clear", "--domain", "x", "--name", "n"],
    &["storage", "local"],
    &["storage", "session", "--show-values", "--max-items", "3"],
    &["storage", "local", "get", "k", "--show-values"],
    &["storage", "local", "set", "k", "-1"],
    &["storage", "session", "remove", "k"],
    &["storage", "local", "clear"],
    &["state", "save"],
    &[
        "state",
        "save",
        "name",
        "--no-indexed-db",
        "--key-file",
        "k",
    ],
    &["state", "save", "./dir/s.json"],
    &["state", "load", "~/s.json", "--key-file", "/k"],
    &["state", "rename", "a/b", "c"],
    &["state", "clear", "--all"],
    &["state", "clear", ".x"],
    &["state", "clean", "--older-than", "3"],
    &["auth", "login", "n", "--no-navigate", "--key-file", "k"],
    &["auth", "list", "--key-file", "k"],
    &["auth", "show", "n"],
    &["auth", "delete", "n"],
    &["network", "route", "**/api", "--abort"],
    &["network", "route", "**/api", "--abort", "timedout"],
    &[
        "network",
        "route",
        "**/api",
        "--continue",
        "--set-header",
        "A: b",
    ],
    &["network", "route", "**/api", "--set-header", "bad"],
    &[
        "network",
        "route",
        "**/api",
        "--remove-header",
        "X-Secret",
        "--remove-header",
        "cookie",
    ],
    &[
        "network",
        "route",
        "**/api",
        "--status",
        "201",
        "--body",
        "-x",
        "--content-type",
        "t",
        "--header",
        "A:b",
        "--header",
        "C: d",
        "--resource-type",
        "xhr,fetch",
        "--times",
        "2",
    ],
    &["network", "route", "**/api", "--body-file", "b.json"],
    &[
        "network",
        "route",
        "**/api",
        "--body",
        "a",
        "--body-file",
        "b",
    ],
    &[
        "network",
        "requests",
        "--type",
        "xhr,fetch",
        "--clear",
        "--status",
        "2xx",
    ],
    &["network", "har", "stop"],
    &["network", "har", "stop", "x.har"],
    &["network", "unroute"],
    &["frame", "main"],
    &["frame", "x", "--by", "id"],
    &["frame", "x", "--by", "selector"],
    &["frame", "x", "--by", "name"],
    &["frame", "x", "--by", "url"],
    &["tab", "close"],
    &["tab", "close", "t2"],
    &["mouse", "move", "-1", "2.5"],
    &["mouse", "down"],
    &["mouse", "up", "right", "--no-evidence"],
    &["mouse", "wheel", "0", "-100"],
    &["keyboard", "down", "Shift", "--wait-text", "x"],
    &["scroll", "down"],
    &["scroll", "left", "50", "-s", "#list"],
    &["drag", "e1", "e2", "--steps", "3", "--delta"],
    &["addinitscript", "--file", "s.js"],
    &["add-init-script", "x()"],
    &["addinitscript"],
    &["addinitscript", "x", "--file", "s.js"],
    &["addscript", "--url", "http://x/a.js"],
    &["add-style", "body{}"],
    &["addstyle", "--url", "a.css"],
    &["remove-init-script", "init-script-1"],
    &["get", "html", "e3", "--outer", "--max-bytes", "9"],
    &[
        "get",
        "styles",
        "e3",
        "--prop",
        "color",
        "--prop",
        "font-size",
    ],
    &["get", "geometry"],
    &["get", "geometry", "#a"],
    &["get", "cdp-url"],
    &["eval", "-1", "--max-bytes", "5"],
    &["pdf", "out.pdf", "--landscape"],
    &["console", "--level", "warn"],
    &["console", "--level", "verbose"],
    &["serve"],
    &["serve", "--stdio"],
    &["serve", "--stdio", "--listen"],
    &["dashboard", "--port", "0", "--control", "--no-open"],
    &["close", "--all"],
    &["status"],
    &["session", "start"],
    &[
        "session", "id", "--scope", "dir", "--prefix", "p", "--path", "/x",
    ],
    &["confirm", "c-1"],
    &["deny", "c-1"],
    &["connect", "9222"],
    &[
        "webmcp",
        "invoke",
        "t",
        "--params",
        "{\"a\":1}",
        "--detach",
        "--frame",
        "f",
    ],
    &["webmcp", "invoke", "t", "--params", "nope"],
    &["agent", "do it", "--model", "m"],
    &["mcp", "--port", "0", "--caps", "network,state"],
    &["opne", "x"],
    &["click"],
    &["--session", "open", "snapshot"],
    &["--session", "tab", "tab", "list"],
    &["--headed", "fill", "e1", "open"],
    &["snapshot", "-i", "--json"],
    &["eval", "snapshot"],
    &["type", "e1", "-abc", "--wait-text", "-x"],
    &["type", "e1", "--not-a-flag"],
    &["press", "-"],
    &["select", "e2", "-1", "-2", "--no-evidence"],
    &["find", "text", "-5", "fill", "-6"],
    &["find", "role", "button", "--name", "-x"],
    &["wait", "--text", "-5 items"],
    &["wait", "--fn", "-1"],
    &["click", "e1", "--wait-text", "-done"],
    &["keyboard", "type", "-x"],
    &["keyboard", "insert-text", "-x"],
    &["clipboard", "write", "-x"],
    &["dialog", "accept", "-1"],
];

/// Lines whose group tree guesses wrong (a word naming a subcommand is an option's value), so
/// that the whole tree must parse them again.
const GROUP_TREE_MISSES: &[&[&str]] = &[&["--session", "open", "snapshot"]];

/// A sample value for an argument: from its name, else a number (which parses as any type).
fn sample(arg: &clap::Arg) -> Vec<String> {
    let id = arg.get_id().as_str();
    let mut out = Vec::new();
    if id.contains("url") {
        out.push("http://x/a".to_string());
    }
    if ["ref", "target", "source", "selector"].contains(&id) {
        out.push("e3".to_string());
    }
    if id.contains("glob") {
        out.push("**/api/*".to_string());
    }
    out.extend(["3", "0.5", "a"].map(String::from));
    out
}

/// Whether `line` parses with the whole tree.
fn parses(line: &[String]) -> bool {
    matches(line).is_ok()
}

/// Whether `line` parses with the whole tree, or fails only for lack of an argument.
fn fits(line: &[String]) -> bool {
    use clap::error::ErrorKind::*;
    matches(line).map_or_else(
        |e| matches!(e.kind(), MissingRequiredArgument | MissingSubcommand),
        |_| true,
    )
}

/// `line` with the options it lacks added (`--flag s` for each option clap says is missing).
fn completed(mut line: Vec<String>) -> Vec<String> {
    use clap::error::{ContextKind, ContextValue};
    let Err(e) = matches(&line) else { return line };
    if let Some(ContextValue::Strings(missing)) = e.get(ContextKind::InvalidArg) {
        for m in missing.iter().filter(|m| m.starts_with("--")) {
            let mut words = m.split(' ');
            line.extend(words.next().map(String::from));
            line.extend(words.next().map(|_| "s".to_string()));
        }
    }
    line
}

/// `line` parsed by the whole tree.
fn matches(line: &[String]) -> Result<clap::ArgMatches, clap::Error> {
    let argv = std::iter::once("agentbrowser".to_string()).chain(line.iter().cloned());
    Cli::command().try_get_matches_from(argv)
}

/// The lines the walk makes for the subcommand at `path`.
fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .collect();
    for sub in &subs {
        path.push(sub.get_name().to_string());
        walk(sub, path, out);
        path.pop();
    }
    if path.is_empty() {
        return;
    }
    let own: Vec<&clap::Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_global_set() && !["help", "version"].contains(&a.get_id().as_str()))
        .collect();
    let positionals: Vec<&clap::Arg> = own.iter().copied().filter(|a| a.is_positional()).collect();
    // The positionals, each the first sample that parses (required ones first).
    let mut base = path.clone();
    let mut all = path.clone();
    for p in &positionals {
        let values: Vec<String> = match p.get_possible_values() {
            v if !v.is_empty() => vec![v[0].get_name().to_string()],
            _ => sample(p),
        };
        let fit = values.into_iter().find(|v| {
            let mut l = all.clone();
            l.push(v.clone());
            fits(&l)
        });
        if let Some(v) = fit {
            if p.is_required_set() {
                base.push(v.clone());
            }
            all.push(v);
        }
    }
    out.push(base.clone());
    if all != base {
        out.push(all.clone());
    }
    // Each value of a positional value list.
    for p in &positionals {
        for v in p.get_possible_values().iter().skip(1) {
            let i = path.len()
                + positionals
                    .iter()
                    .take_while(|q| q.get_id() != p.get_id())
                    .count();
            let mut l = all.clone();
            if i < l.len() {
                l[i] = v.get_name().to_string();
                out.push(l);
            }
        }
    }
    // Each option alone (each value of a value list), after the positionals.
    for o in own.iter().filter(|a| !a.is_positional()) {
        let flag = match (o.get_long(), o.get_short()) {
            (Some(l), _) => format!("--{l}"),
            (None, Some(s)) => format!("-{s}"),
            _ => continue,
        };
        let takes = o
            .get_num_args()
            .map_or(o.get_action().takes_values(), |n| n.takes_values());
        let values: Vec<String> = if !takes {
            vec![]
        } else {
            match o.get_possible_values() {
                v if !v.is_empty() => v.iter().map(|v| v.get_name().to_string()).collect(),
                _ => sample(o),
            }
        };
        // After the required positionals, or after all of them when it needs one of those.
        let line = |v: Option<&String>| {
            let with = |prefix: &Vec<String>| {
                let mut l = prefix.clone();
                l.push(flag.clone());
                l.extend(v.cloned());
                l
            };
            let short = with(&base);
            completed(if parses(&short) { short } else { with(&all) })
        };
        if values.is_empty() {
            out.push(line(None));
        } else if !o.get_possible_values().is_empty() {
            out.extend(values.iter().map(|v| line(Some(v))));
        } else {
            let fit = values.iter().map(|v| line(Some(v))).find(|l| parses(l));
            out.push(fit.unwrap_or_else(|| line(values.first())));
        }
    }
}

/// What `line` plans with the command tree `tree`, as pinned: the request's wire line, the
/// refusal's, the failure, or the usage error's kind and first line.
fn outcome(tree: clap::Command, line: &[String]) -> Value {
    let argv: Vec<String> = std::iter::once("agentbrowser".to_string())
        .chain(line.iter().cloned())
        .collect();
    // Numbers noted by an earlier parse are not this line's.
    agentbrowser_protocol::cli::take_unfit();
    let matches = match tree.try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(e) => {
            let text = e.render().to_string();
            return json!({"usage": format!("{:?}", e.kind()), "error": text.lines().next()});
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return json!({"usage": format!("{:?}", e.kind())}),
    };
    let cwd = std::env::current_dir()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let clean = |s: String| Value::String(s.replace(&cwd, "<cwd>"));
    match plan(cli.command, cli.timeout) {
        Err(f) => json!({"failure": clean(f.describe())}),
        Ok(p) => {
            let (kind, request) = match &p {
                Plan::Send(r) => ("send", r),
                Plan::Close(r) => ("close", r),
                Plan::Existing(r) => ("existing", r),
                Plan::Status(r) => ("status", r),
                Plan::CloseAll(r) => ("close_all", r),
                Plan::Refuse(answer) => return json!({"refuse": clean(answer.to_line())}),
                other => return json!({"other": clean(format!("{other:?}"))}),
            };
            json!({kind: clean(request.to_value().to_string())})
        }
    }
}

#[test]
fn every_command_line_plans_as_pinned() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        // The pinned lines stay (a new walk may spell them otherwise); new ones join after.
        let pinned: Vec<Value> = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let mut lines: Vec<Vec<String>> = pinned
            .iter()
            .filter_map(|e| serde_json::from_value(e["args"].clone()).ok())
            .collect();
        walk(&Cli::command(), &mut Vec::new(), &mut lines);
        lines.extend(
            EXTRA
                .iter()
                .map(|l| l.iter().map(|s| s.to_string()).collect()),
        );
        let mut seen = std::collections::HashSet::new();
        lines.retain(|l| seen.insert(l.clone()));
        let pinned: Vec<Value> = lines
            .iter()
            .map(|l| json!({"args": l, "plan": outcome(Cli::command(), l)}))
            .collect();
        let text = serde_json::to_string_pretty(&pinned).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{FILE}: {e}; run `UPDATE_GOLDEN=1 cargo nextest run --release -p agentbrowser --lib plan_golden`"
        )
    });
    let pinned: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut wrong = Vec::new();
    for entry in &pinned {
        let line: Vec<String> = serde_json::from_value(entry["args"].clone()).unwrap();
        let got = outcome(Cli::command(), &line);
        if got != entry["plan"] {
            wrong.push(format!(
                "{line:?}\n  pinned: {}\n  now:    {got}",
                entry["plan"]
            ));
        }
        let argv: Vec<std::ffi::OsString> = std::iter::once("agentbrowser".into())
            .chain(line.iter().map(Into::into))
            .collect();
        let group = outcome(command_for(&argv), &line);
        let missed = group.get("usage").is_some()
            && (got.get("usage").is_some() || GROUP_TREE_MISSES.iter().any(|m| *m == line));
        if group != got && !missed {
            wrong.push(format!(
                "{line:?}\n  whole tree: {got}\n  group tree: {group}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} lines plan otherwise:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
