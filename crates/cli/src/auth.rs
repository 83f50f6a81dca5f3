//! `auth ...` as its command: the password of `auth save` comes from stdin (never from the
//! command line, where other processes and shell histories see it).

use std::io::BufRead;

use agentbrowser_protocol::{
    AuthListParams, AuthLoginParams, AuthNameParams, AuthSaveParams, Command,
};

use crate::args::AuthCmd;
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

/// `auth ...` as its protocol command.
pub fn command(c: AuthCmd) -> Result<Command, Failure> {
    let key = |a: &str, k: Option<String>| k.map(|k| absolute(a, &k)).transpose();
    Ok(match c {
        AuthCmd::Save {
            name,
            url,
            username,
            password_stdin: _,
            username_selector,
            password_selector,
            submit_selector,
            key_file,
        } => Command::AuthSave(AuthSaveParams {
            name,
            url,
            username,
            password: password_from_stdin()?,
            username_selector,
            password_selector,
            submit_selector,
            key_file: key("auth_save", key_file)?,
        }),
        AuthCmd::Login {
            name,
            no_navigate,
            key_file,
        } => Command::AuthLogin(AuthLoginParams {
            name,
            navigate: no_navigate.then_some(false),
            key_file: key("auth_login", key_file)?,
        }),
        AuthCmd::List { key_file } => Command::AuthList(AuthListParams {
            key_file: key("auth_list", key_file)?,
        }),
        AuthCmd::Show { name, key_file } => Command::AuthShow(AuthNameParams {
            name,
            key_file: key("auth_show", key_file)?,
        }),
        AuthCmd::Delete { name } => Command::AuthDelete(AuthNameParams {
            name,
            key_file: None,
        }),
    })
}
