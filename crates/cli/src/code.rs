//! `agentbrowser agent ...` and `agentbrowser notebook ...`: code mode lives in the Python
//! package, so these replace this process with `python3 -m agentbrowser.code <front> ARGS...`,
//! telling it this binary (`AGENTBROWSER_BIN`) and, when the package is not importable, the
//! source tree's `python/` directory found above this binary (`PYTHONPATH`).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use agentbrowser_protocol::ErrorCode;
use clap::Args;

use crate::failure::Failure;

/// `agent` and `notebook`: every argument after the command goes to `python3 -m
/// agentbrowser.code` unchanged (its own `--help` lists them).
#[derive(Args, Debug, Clone, Default)]
#[command(disable_help_flag = true)]
pub struct PythonArgs {
    /// The arguments of `python3 -m agentbrowser.code agent|notebook`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Which front end of `python3 -m agentbrowser.code` to run.
#[derive(Debug, Clone, Copy)]
pub enum Front {
    /// `agent "task" ...`: run the code agent.
    Agent,
    /// `notebook replay out.ipynb`: re-run a notebook without a model.
    Notebook,
}

impl Front {
    fn name(self) -> &'static str {
        match self {
            Front::Agent => "agent",
            Front::Notebook => "notebook",
        }
    }
}

/// The module every front end runs.
const MODULE: &str = "agentbrowser.code";

/// Execs Python's code mode; returns only when it cannot be started.
pub fn run(front: Front, args: &[String]) -> Result<ExitCode, Failure> {
    let exe =
        std::env::current_exe().map_err(|e| missing(format!("cannot find this binary: {e}")))?;
    let python = interpreter(Some(&exe));
    let mut cmd = Command::new(&python);
    // The SDK runs the client (the fast path for each command), next to this engine binary.
    let client = crate::engine_bin::client_path().unwrap_or_else(|| exe.clone());
    cmd.env("AGENTBROWSER_BIN", &client);
    if !importable(&python, None)? {
        let Some(dir) = source_python_dir(&exe) else {
            return Err(missing(format!(
                "the agentbrowser Python package is not importable by {} (install it: \
                 `pip install agentbrowser-engine`, or run from a source checkout)",
                python.to_string_lossy()
            )));
        };
        let path = prepend_path(&dir);
        if !importable(&python, Some(&path))? {
            return Err(missing(format!(
                "{} cannot import {MODULE} from {} (Python 3.11 or newer is needed)",
                python.to_string_lossy(),
                dir.display()
            )));
        }
        cmd.env("PYTHONPATH", path);
    }
    let err = cmd
        .arg("-m")
        .arg(MODULE)
        .arg(front.name())
        .args(args)
        .args(notebook_json(front, args, std::env::args_os().skip(1)))
        .exec();
    Err(missing(format!(
        "cannot run {}: {err}",
        python.to_string_lossy()
    )))
}

/// `--json` for `notebook` when the global flag came before the subcommand
/// (`agentbrowser --json notebook replay x.ipynb`: clap keeps it, so it is passed on here);
/// nothing when `args` has it already or for another front end.
fn notebook_json(
    front: Front,
    args: &[String],
    argv: impl Iterator<Item = OsString>,
) -> Option<&'static str> {
    let before = argv
        .take_while(|a| a.to_str() != Some(front.name()))
        .any(|a| a == "--json");
    (matches!(front, Front::Notebook) && before && !args.iter().any(|a| a == "--json"))
        .then_some("--json")
}

/// The Python that runs the SDK: `$AGENTBROWSER_PYTHON`, else the `python3` beside this binary
/// `exe` (a virtualenv's `bin/`, where `pip install` put both), else `python3` on PATH.
pub(crate) fn interpreter(exe: Option<&Path>) -> OsString {
    if let Some(python) = std::env::var_os("AGENTBROWSER_PYTHON") {
        return python;
    }
    exe.and_then(Path::parent)
        .map(|dir| dir.join("python3"))
        .filter(|p| p.is_file())
        .map_or_else(|| "python3".into(), OsString::from)
}

/// Whether `python` imports the module (with `pythonpath` as its PYTHONPATH when given).
fn importable(python: &OsString, pythonpath: Option<&OsString>) -> Result<bool, Failure> {
    let mut probe = Command::new(python);
    probe
        .args(["-c", &format!("import {MODULE}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(path) = pythonpath {
        probe.env("PYTHONPATH", path);
    }
    match probe.status() {
        Ok(status) => Ok(status.success()),
        Err(e) => Err(missing(format!(
            "{} not found ({e}): code mode runs in Python 3.11 or newer (set AGENTBROWSER_PYTHON \
             to use another interpreter)",
            python.to_string_lossy()
        ))),
    }
}

/// The `python/` directory of the source tree this binary was built in
/// (`<repo>/target/<profile>/agentbrowser`), when it holds the code-mode package.
pub(crate) fn source_python_dir(exe: &Path) -> Option<PathBuf> {
    exe.ancestors()
        .skip(1)
        .map(|dir| dir.join("python"))
        .find(|dir| dir.join("agentbrowser/code/__main__.py").is_file())
}

/// `dir` in front of the current PYTHONPATH.
pub(crate) fn prepend_path(dir: &Path) -> OsString {
    let mut path = OsString::from(dir);
    if let Some(old) = std::env::var_os("PYTHONPATH").filter(|p| !p.is_empty()) {
        path.push(":");
        path.push(old);
    }
    path
}

/// A front end that cannot start.
fn missing(message: String) -> Failure {
    Failure::new(ErrorCode::NotFound, anyhow::Error::msg(message)).or_action("code")
}
