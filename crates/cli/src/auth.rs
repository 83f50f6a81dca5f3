//! `auth ...` as its command: the password of `auth save` comes from stdin (never from the
//! command line, where other processes and shell histories see it).

use std::io::BufRead;

use agentbrowser_protocol::{
    AuthListParams, AuthLoginParams, AuthNameParams, AuthSaveParams, Command,
};

use crate::command::absolute;
use crate::failure::Failure;

/// The password on stdin's first line, without its line end.
fn password_from_stdin() -> Result<String, Failure> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).map_err(|e| {
        Failure::invalid(
            "auth_save",
            format!("cannot read the password from stdin: {e}"),
        )
    })?;
    let pw = line.strip_suffix('\n').unwrap_or(&line);
    let pw = pw.strip_suffix('\r').unwrap_or(pw).to_string();
    if pw.is_empty() {
        return Err(Failure::invalid(
            "auth_save",
            "invalid parameter `password`: stdin gave an empty line; pipe the password in (`printf %s \"$PW\" | agentbrowser auth save ...`)",
        ));
    }
    Ok(pw)
}

/// `auth save`: the password from stdin, the key file made absolute.
pub fn save(mut p: AuthSaveParams) -> Result<Command, Failure> {
    p.password = password_from_stdin()?;
    p.key_file = key_file("auth_save", p.key_file)?;
    Ok(Command::AuthSave(p))
}

/// `auth login NAME`: the key file made absolute.
pub fn login(mut p: AuthLoginParams) -> Result<Command, Failure> {
    p.key_file = key_file("auth_login", p.key_file)?;
    Ok(Command::AuthLogin(p))
}

/// `auth list`: the key file made absolute.
pub fn list(mut p: AuthListParams) -> Result<Command, Failure> {
    p.key_file = key_file("auth_list", p.key_file)?;
    Ok(Command::AuthList(p))
}

/// `auth show NAME`: the key file made absolute.
pub fn show(mut p: AuthNameParams) -> Result<Command, Failure> {
    p.key_file = key_file("auth_show", p.key_file)?;
    Ok(Command::AuthShow(p))
}

/// A `--key-file` made absolute (the daemon reads it).
fn key_file(action: &str, key: Option<String>) -> Result<Option<String>, Failure> {
    key.map(|k| absolute(action, &k)).transpose()
}
