//! What a command line needs of the protocol's types besides the arguments their parameter
//! structs derive (the `clap` feature): the after-action flags that make `wait` and
//! `evidence`, and whole numbers kept for the protocol's own refusal.

use std::cell::RefCell;
use std::marker::PhantomData;

use clap::builder::TypedValueParser;
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Args, FromArgMatches};

use crate::{Evidence, LoadState, SelectorState, WaitCondition};

/// The help of a positional target that is a ref, a CSS selector or an XPath.
pub const REF_HELP: &str =
    "Ref (e3, @e3), CSS selector (`css=` optional) or XPath (`//...`, `xpath=...`)";

/// The help of `--key-file`: the file holding a state or vault encryption key.
pub const KEY_FILE_HELP: &str = "A file holding the encryption key (64 hex characters)";

/// The help of a state file argument, a path or a name in the state directory.
pub const STATE_FILE_HELP: &str =
    "A file path (with a `/`, or from `.` or `~`), or a name in the state directory";

/// The after-action wait of a mutation: `--wait-text`, `--wait-url`, `--wait-load`,
/// `--wait-selector` (with `--wait-state`) and `--wait-fn`; several: all of them, in the order
/// selector, function, text, URL, load state.
impl Args for WaitCondition {
    fn group_id() -> Option<clap::Id> {
        Some("wait".into())
    }

    fn augment_args(cmd: clap::Command) -> clap::Command {
        let value =
            |id: &'static str, long: &'static str, name: &'static str, help: &'static str| {
                Arg::new(id).long(long).value_name(name).help(help)
            };
        cmd.arg(
            value(
                "wait_text",
                "wait-text",
                "TEXT",
                "After the action, wait for this text to appear",
            )
            .allow_hyphen_values(true),
        )
        .arg(value(
            "wait_url",
            "wait-url",
            "URL",
            "After the action, wait for the URL to match (exact or glob)",
        ))
        .arg(
            value(
                "wait_load",
                "wait-load",
                "STATE",
                "After the action, wait for a load state",
            )
            .value_parser(clap::value_parser!(LoadState)),
        )
        .arg(value(
            "wait_selector",
            "wait-selector",
            "SELECTOR",
            "After the action, wait for this selector's matches to reach --wait-state",
        ))
        .arg(
            value(
                "wait_state",
                "wait-state",
                "STATE",
                "With --wait-selector: visible (default), hidden, attached or detached",
            )
            .value_parser(clap::value_parser!(SelectorState))
            .requires("wait_selector"),
        )
        .arg(
            value(
                "wait_fn",
                "wait-fn",
                "JS",
                "After the action, wait for this JavaScript function to return a truthy value",
            )
            .allow_hyphen_values(true),
        )
        .group(
            ArgGroup::new("wait")
                .args([
                    "wait_text",
                    "wait_url",
                    "wait_load",
                    "wait_selector",
                    "wait_fn",
                ])
                .multiple(true),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for WaitCondition {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let text = |id: &str| m.get_one::<String>(id).cloned();
        let mut list: Vec<WaitCondition> = text("wait_selector")
            .map(|s| WaitCondition::Selector {
                selector: s.into(),
                state: m.get_one("wait_state").copied().unwrap_or_default(),
                timeout_ms: None,
            })
            .into_iter()
            .collect();
        list.extend(text("wait_fn").map(|function| WaitCondition::Function {
            function,
            timeout_ms: None,
        }));
        list.extend(text("wait_text").map(|text| WaitCondition::Text {
            text,
            timeout_ms: None,
        }));
        list.extend(text("wait_url").map(|url| WaitCondition::Url {
            url,
            timeout_ms: None,
        }));
        list.extend(m.get_one("wait_load").map(|&state| WaitCondition::Load {
            state,
            timeout_ms: None,
        }));
        WaitCondition::all_of(list, None).ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                "a --wait-* option is required",
            )
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The evidence switch of a mutation: `--no-evidence` (none) or `--delta` (delta snapshots).
impl Args for Evidence {
    fn group_id() -> Option<clap::Id> {
        Some("evidence".into())
    }

    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("no_evidence")
                .long("no-evidence")
                .action(ArgAction::SetTrue)
                .help("Skip the before/after snapshots and diff (faster)"),
        )
        .arg(
            Arg::new("delta")
                .long("delta")
                .action(ArgAction::SetTrue)
                .conflicts_with("no_evidence")
                .help(
                    "Evidence as delta snapshots: `before` as unchanged from the snapshot it \
                     is, `after` as the changed lines and their refs (what `--json` carries; \
                     the diff is the same)",
                ),
        )
        .group(
            ArgGroup::new("evidence")
                .args(["no_evidence", "delta"])
                .multiple(true),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for Evidence {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(if m.get_flag("no_evidence") {
            Evidence::Off
        } else if m.get_flag("delta") {
            Evidence::Delta
        } else {
            Evidence::Full
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

thread_local! {
    /// The numbers [`Fit`] read that their wire field cannot hold, by wire field name.
    static UNFIT: RefCell<Vec<(String, i64)>> = const { RefCell::new(Vec::new()) };
}

/// A whole number for a wire field of type `T`, read as any `i64`: one that `T` cannot hold
/// (negative, too large) is no usage error but noted for [`take_unfit`], so that the protocol
/// refuses it in its own words as the daemon would; the field reads `T`'s default meanwhile.
/// The wire field's name is the argument's id in camelCase.
pub struct Fit<T>(PhantomData<fn() -> T>);

/// A [`Fit`] parser for `T`.
pub fn fit<T>() -> Fit<T> {
    Fit(PhantomData)
}

impl<T> Clone for Fit<T> {
    fn clone(&self) -> Self {
        fit()
    }
}

impl<T> TypedValueParser for Fit<T>
where
    T: TryFrom<i64> + Default + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let n = clap::value_parser!(i64).parse_ref(cmd, arg, value)?;
        Ok(T::try_from(n).unwrap_or_else(|_| {
            unfit(&camel_case(arg.map_or("", |a| a.get_id().as_str())), n);
            T::default()
        }))
    }
}

/// Notes `n`, given for the wire field `field`, as one that field cannot hold (for a number the
/// command line reads itself, as [`Fit`] does).
pub fn unfit(field: &str, n: i64) {
    UNFIT.with(|u| u.borrow_mut().push((field.to_string(), n)));
}

/// The numbers [`Fit`] noted since the last call, by wire field name, in the order read.
pub fn take_unfit() -> Vec<(String, i64)> {
    UNFIT.with(|u| std::mem::take(&mut *u.borrow_mut()))
}

/// `snake_case` as `camelCase`.
fn camel_case(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    let mut upper = false;
    for c in id.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_ids_read_as_wire_names() {
        assert_eq!(camel_case("max_depth"), "maxDepth");
        assert_eq!(camel_case("click_count"), "clickCount");
        assert_eq!(camel_case("limit"), "limit");
    }
}
