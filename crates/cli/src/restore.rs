//! The `--restore` options of the command line, checked, as the engine's restore option.

use agentbrowser_engine::RestoreOptions;
use agentbrowser_protocol::{DEFAULT_AUTOSAVE_INTERVAL_MS, valid_restore_key};

use crate::failure::Failure;
use crate::launch::LaunchArgs;

/// The restore option of `args` (None without `--restore`); a bad key or an empty check is
/// refused here, naming the option and what is allowed; so is a key file that holds no key.
pub fn options(args: &LaunchArgs) -> Result<Option<RestoreOptions>, Failure> {
    let Some(key) = &args.restore else {
        return Ok(None);
    };
    if !key.is_empty() && !valid_restore_key(key) {
        return Err(Failure::invalid(
            "launch",
            format!(
                "invalid option `--restore`: {key:?}; a restore key is 1 to 64 letters, digits, `-` or `_` (it names the state file)"
            ),
        ));
    }
    for (flag, v) in [
        ("--restore-check-url", &args.restore_check_url),
        ("--restore-check-text", &args.restore_check_text),
        ("--restore-check-fn", &args.restore_check_fn),
    ] {
        if v.as_deref().is_some_and(|v| v.trim().is_empty()) {
            return Err(Failure::invalid(
                "launch",
                format!("invalid option `{flag}`: empty; give what the restored page must show"),
            ));
        }
    }
    let key_file = match &args.restore_key_file {
        None => None,
        Some(f) => {
            let abs = std::path::absolute(f).map_err(|e| {
                Failure::invalid(
                    "launch",
                    format!("invalid option `--restore-key-file`: {f:?}: {e}"),
                )
            })?;
            let abs = abs.display().to_string();
            agentbrowser_engine::check_key_file(&abs).map_err(|e| {
                Failure::invalid(
                    "launch",
                    format!("invalid option `--restore-key-file`: {}", e.message),
                )
            })?;
            Some(abs)
        }
    };
    if let Some(u) = &args.restore_check_url
        && let Err(e) = agentbrowser_protocol::UrlPattern::parse(u)
    {
        return Err(Failure::invalid(
            "launch",
            format!("invalid option `--restore-check-url`: {e}"),
        ));
    }
    Ok(Some(RestoreOptions {
        key: (!key.is_empty()).then(|| key.clone()),
        save: args.restore_save.clone(),
        autosave_interval_ms: args
            .autosave_interval
            .unwrap_or(DEFAULT_AUTOSAVE_INTERVAL_MS),
        check_url: args.restore_check_url.clone(),
        check_text: args.restore_check_text.clone(),
        check_fn: args.restore_check_fn.clone(),
        key_file,
    }))
}
