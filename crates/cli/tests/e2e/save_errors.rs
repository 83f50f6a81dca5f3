//! Every command that writes a file at a path the user gave (`state save`, `network har stop`,
//! `screenshot PATH`, `pdf PATH`, `download REF PATH`) answers one code for one fault: a missing
//! directory, a directory that refuses new files, a path that is a directory are all `io_error`
//! naming the user's path (never a temporary file), and nothing is left behind.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;

const PAGE: &str = r#"<!doctype html><title>Writers</title><h1>Writers</h1>
<a href="/file.bin" download="data.bin">Get data</a>
<script>localStorage.setItem('k', 'v'); document.cookie = 'c=1; max-age=3600';</script>"#;

/// A directory no process can create files in, root included: mode 0555 and, for root (whom
/// modes do not stop), the immutable attribute. Checked from this process before use.
struct ReadOnlyDir(TempDir);

impl ReadOnlyDir {
    fn new(tag: &str) -> ReadOnlyDir {
        let d = TempDir::new(tag);
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o555)).expect("chmod");
        let ro = ReadOnlyDir(d);
        if ro.writable() {
            let done = std::process::Command::new("chattr")
                .arg("+i")
                .arg(ro.path())
                .status();
            assert!(
                done.is_ok_and(|s| s.success()),
                "cannot make {} read-only for this user (chattr +i)",
                ro.path().display()
            );
            assert!(!ro.writable(), "{} is still writable", ro.path().display());
        }
        ro
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    /// Whether this process can create a file in it.
    fn writable(&self) -> bool {
        let probe = self.path().join(".probe");
        let made = std::fs::write(&probe, b"x").is_ok();
        let _ = std::fs::remove_file(&probe);
        made
    }
}

impl Drop for ReadOnlyDir {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(self.path())
            .status();
        let _ = std::fs::set_permissions(self.path(), std::fs::Permissions::from_mode(0o755));
    }
}

/// The names in `dir`, sorted (none when it does not exist).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// One command that writes a user path.
struct Writer {
    name: &'static str,
    ext: &'static str,
    /// Whether it creates missing directories (documented for `screenshot` and `pdf`).
    creates_dirs: bool,
}

const WRITERS: &[Writer] = &[
    Writer {
        name: "state save",
        ext: "json",
        creates_dirs: false,
    },
    Writer {
        name: "har stop",
        ext: "har",
        creates_dirs: false,
    },
    Writer {
        name: "screenshot",
        ext: "png",
        creates_dirs: true,
    },
    Writer {
        name: "pdf",
        ext: "pdf",
        creates_dirs: true,
    },
    Writer {
        name: "download",
        ext: "bin",
        creates_dirs: false,
    },
];

/// Runs writer `w` with `path`: the envelope.
fn write(cli: &Cli, w: &Writer, path: &str) -> Value {
    match w.name {
        "state save" => cli.json(&["state", "save", path]),
        "har stop" => cli.json(&["network", "har", "stop", path]),
        "screenshot" => cli.json(&["screenshot", path]),
        "pdf" => cli.json(&["pdf", path]),
        _ => {
            let snap = cli.ok(&["snapshot"]);
            let link = cli.find_ref(&snap, "link", "Get data");
            cli.json(&["download", &link, path])
        }
    }
}

/// Asserts `v` is the `io_error` of writing `shown` (the user's path), with `cause` in its
/// message and no temporary file named.
fn io_error_naming(v: &Value, what: &str, shown: &str, cause: &str) {
    assert_eq!(v["success"], false, "{what}: {v}");
    assert_eq!(v["code"], "io_error", "{what}: {v}");
    let msg = v["error"].as_str().unwrap_or_default();
    assert!(
        msg.contains(shown),
        "{what}: the message does not name {shown}: {msg}"
    );
    assert!(
        msg.contains(cause),
        "{what}: the message does not say {cause:?}: {msg}"
    );
    assert!(
        !msg.contains(".partial") && !msg.contains(".tmp-"),
        "{what}: the message names a temporary file: {msg}"
    );
}

#[test]
fn every_writer_answers_one_code_per_fault_and_names_the_users_path() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    server.route(
        "/file.bin",
        Page::typed("application/octet-stream", b"downloaded bytes".to_vec()),
    );
    let cli = Cli::new("save-errors");
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["network", "har", "start"]);
    let root = TempDir::new("save-errors-out");
    let ro = ReadOnlyDir::new("save-errors-ro");
    let root_path = root.path().to_path_buf();
    let file = |parts: &[&str]| -> PathBuf {
        parts.iter().fold(root_path.clone(), |p, part| p.join(part))
    };

    for w in WRITERS {
        let what = w.name;
        let before = names(root.path());

        // A missing directory: the commands that do not create directories fail on it.
        let missing_dir = file(&["missing"]);
        let missing = missing_dir.join(format!("x.{}", w.ext));
        let v = write(&cli, w, &missing.to_string_lossy());
        if w.creates_dirs {
            assert_eq!(v["success"], true, "{what} creates its directories: {v}");
            assert!(
                missing.is_file(),
                "{what}: {} was not written",
                missing.display()
            );
            std::fs::remove_dir_all(&missing_dir).expect("clean up");
        } else {
            io_error_naming(
                &v,
                what,
                &missing.to_string_lossy(),
                &format!(
                    "no such directory {} (the parent of {})",
                    missing_dir.display(),
                    missing.display()
                ),
            );
            assert!(
                !missing_dir.exists(),
                "{what} created {}",
                missing_dir.display()
            );
        }

        // A directory that refuses new files.
        let refused = ro.path().join(format!("x.{}", w.ext));
        let v = write(&cli, w, &refused.to_string_lossy());
        io_error_naming(&v, what, &refused.to_string_lossy(), "");
        assert_eq!(names(ro.path()), Vec::<String>::new(), "{what} left files");

        // A path that is a directory (for `download`, whose directory argument takes the
        // suggested filename, the file it would write is one).
        let taken = match w.name {
            "download" => {
                std::fs::create_dir_all(file(&["into", "data.bin"])).expect("mkdir");
                file(&["into"])
            }
            _ => {
                std::fs::create_dir_all(file(&["adir"])).expect("mkdir");
                file(&["adir"])
            }
        };
        let v = write(&cli, w, &taken.to_string_lossy());
        io_error_naming(&v, what, &taken.to_string_lossy(), "is a directory");
        let _ = std::fs::remove_dir_all(&taken);

        // A path malformed by itself is bad input, not a fault of writing.
        let v = write(&cli, w, "");
        assert_eq!(v["code"], "invalid_argument", "{what}: {v}");

        // Nothing left behind, and the same command writes a good path.
        assert_eq!(names(root.path()), before, "{what} left files behind");
        let good = file(&[&format!("good.{}", w.ext)]);
        let v = write(&cli, w, &good.to_string_lossy());
        assert_eq!(v["success"], true, "{what}: {v}");
        assert!(good.is_file(), "{what}: {} was not written", good.display());
        if w.name == "har stop" {
            cli.ok(&["network", "har", "start"]);
        }
    }
}

#[test]
fn auth_save_where_no_file_can_be_made_is_an_io_error_naming_the_directory() {
    use std::io::Write;
    let ro = ReadOnlyDir::new("auth-save-ro");
    let key = "ab".repeat(32);
    // The vault directory refuses new files; then it is missing and cannot be created.
    for dir in [ro.path().to_path_buf(), ro.path().join("vault")] {
        let shown = dir.display().to_string();
        let cli = Cli::new("auth-save-ro")
            .with_env("AGENTBROWSER_AUTH_DIR", shown.as_str())
            .with_env("AGENTBROWSER_ENCRYPTION_KEY", key.as_str());
        let mut child = cli
            .command()
            .args([
                "--json",
                "auth",
                "save",
                "site",
                "--url",
                "http://127.0.0.1/login",
            ])
            .args(["--username", "alice", "--password-stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("auth save");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"s3cret\n")
            .expect("password");
        let out = child.wait_with_output().expect("auth save");
        let v: Value = serde_json::from_slice(&out.stdout).expect("envelope");
        io_error_naming(&v, "auth save", &shown, "");
        assert_eq!(
            names(ro.path()),
            Vec::<String>::new(),
            "auth save left files"
        );
    }
}
