//! Config files: launch and output defaults from `~/.config/agentbrowser/config.json` (user;
//! `$XDG_CONFIG_HOME/agentbrowser/config.json` when that is set) and `./agentbrowser.json`
//! (project). Precedence: user < project < environment variables < flags. An unknown key, or a
//! value of the wrong type, is an error naming the file and the key.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::ValueEnum;
use clap::parser::ValueSource;
use serde_json::{Map, Value};

use crate::args::Cli;
use crate::failure::Failure;

/// The project file, in the working directory.
pub const PROJECT_FILE: &str = "agentbrowser.json";

/// Every key a config file may hold, with the kind of its value.
pub const KEYS: &[(&str, &str)] = &[
    ("headed", "a boolean"),
    ("executablePath", "a string"),
    ("browserArgs", "an array of strings"),
    ("windowSize", "a string WIDTHxHEIGHT"),
    ("downloadPath", "a string"),
    ("idleTimeout", "milliseconds, an integer of 0 or more"),
    ("autoDialogs", "a boolean"),
    ("ignoreHttpsErrors", "a boolean"),
    ("requestLog", "a boolean"),
    ("caCert", "a string"),
    ("profile", "a string"),
    ("userAgent", "a string"),
    ("colorScheme", "light, dark or no-preference"),
    ("viewport", "a string WIDTHxHEIGHT"),
    ("proxy", "a string scheme://[user:pass@]host:port"),
    ("json", "a boolean"),
    ("timeout", "milliseconds, an integer of 0 or more"),
    ("session", "a session name"),
];

/// The user file: `$XDG_CONFIG_HOME/agentbrowser/config.json`, else `~/.config/agentbrowser/config.json`.
pub fn user_file() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|d| d.join("agentbrowser").join("config.json"))
}

/// Reads the config files and sets, in `cli`, every value neither a flag nor an environment
/// variable gave (`matches` says where each value came from).
pub fn apply(cli: &mut Cli, matches: &ArgMatches) -> Result<(), Failure> {
    let mut merged = Map::new();
    let mut executable_file = None;
    let files = [user_file(), Some(PathBuf::from(PROJECT_FILE))];
    for file in files.into_iter().flatten() {
        for (key, value) in read(&file)? {
            if key == "executablePath" {
                executable_file = Some(file.clone());
            }
            merged.insert(key, value);
        }
    }
    let explicit = |id: &str| {
        matches!(
            matches.value_source(id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
    };
    for (key, value) in merged {
        set(cli, &key, value, &explicit);
    }
    // Where the executable came from, for `doctor` (flag first: it wins over a file).
    let l = &mut cli.launch;
    l.executable_source = if explicit("executable_path") {
        Some("--executable-path".into())
    } else {
        l.executable_path
            .as_ref()
            .and(executable_file)
            .map(|f| format!("`executablePath` in the config file {}", shown(&f)))
    };
    Ok(())
}

/// A config file's path as the user would find it (the project file made absolute).
fn shown(file: &Path) -> String {
    std::path::absolute(file)
        .unwrap_or_else(|_| file.to_path_buf())
        .display()
        .to_string()
}

/// The checked keys and values of one file (none when it does not exist).
fn read(file: &Path) -> Result<Vec<(String, Value)>, Failure> {
    let shown = file.display();
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(bad(format!("cannot read the config file {shown}: {e}"))),
    };
    let doc: Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("config file {shown} is not valid JSON: {e}")))?;
    let Value::Object(map) = doc else {
        return Err(bad(format!(
            "config file {shown} must hold a JSON object of settings"
        )));
    };
    let mut out = Vec::new();
    for (key, value) in map {
        let Some((_, kind)) = KEYS.iter().find(|(k, _)| *k == key) else {
            let known: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
            return Err(bad(format!(
                "config file {shown}: unknown key `{key}`; the keys are {}",
                known.join(", ")
            )));
        };
        if !fits(&key, &value) {
            return Err(bad(format!(
                "config file {shown}: key `{key}` must be {kind}, got {value}"
            )));
        }
        out.push((key, value));
    }
    Ok(out)
}

/// Whether `value` has the kind `key` needs.
fn fits(key: &str, value: &Value) -> bool {
    match key {
        "headed" | "autoDialogs" | "ignoreHttpsErrors" | "requestLog" | "json" => {
            value.is_boolean()
        }
        "idleTimeout" | "timeout" => value.is_u64(),
        "browserArgs" => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        "colorScheme" => value
            .as_str()
            .is_some_and(|s| agentbrowser_protocol::ColorScheme::from_str(s, false).is_ok()),
        _ => value.is_string(),
    }
}

/// Sets `key` in `cli` unless `explicit` says a flag or variable gave its argument.
fn set(cli: &mut Cli, key: &str, value: Value, explicit: &dyn Fn(&str) -> bool) {
    let text = || value.as_str().map(str::to_string);
    let flag = || value.as_bool().unwrap_or(false);
    let l = &mut cli.launch;
    match key {
        "headed" if !explicit("headed") => l.headed = flag(),
        "executablePath"
            if !explicit("executable_path")
                && std::env::var_os("AGENTBROWSER_EXECUTABLE_PATH").is_none() =>
        {
            l.executable_path = text();
        }
        "browserArgs" if !explicit("browser_args") => {
            l.browser_args = value
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
        }
        "windowSize" if !explicit("window_size") => l.window_size = text(),
        "downloadPath" if !explicit("download_path") => l.download_path = text(),
        "idleTimeout" if !explicit("idle_timeout") => l.idle_timeout = value.as_u64(),
        "autoDialogs" if !explicit("auto_dialogs") => l.auto_dialogs = flag(),
        "ignoreHttpsErrors" if !explicit("ignore_https_errors") => l.ignore_https_errors = flag(),
        "requestLog" if !explicit("no_request_log") => l.no_request_log = !flag(),
        "caCert" if !explicit("ca_cert") => l.ca_cert = text(),
        "profile" if !explicit("profile") => l.profile = text(),
        "userAgent" if !explicit("user_agent") => l.user_agent = text(),
        "colorScheme" if !explicit("color_scheme") => {
            l.color_scheme = value
                .as_str()
                .and_then(|s| agentbrowser_protocol::ColorScheme::from_str(s, false).ok());
        }
        "viewport" if !explicit("viewport") => l.viewport = text(),
        "proxy" if !explicit("proxy") => l.proxy = text(),
        "json" if !explicit("json") => cli.json = flag(),
        "timeout" if !explicit("timeout") => cli.timeout = value.as_u64(),
        "session" if !explicit("session") => {
            if let Some(s) = text() {
                cli.session = s;
            }
        }
        _ => {}
    }
}

/// A config failure: bad input, before any command runs.
fn bad(message: String) -> Failure {
    Failure::invalid("config", message)
}
