//! The command syntax the docs and the help texts show, checked against the command line's
//! definition: every `--flag a|b|c` of a code span (`\|` inside a table) or of a help text lists
//! exactly the values the flag takes, as clap gives them to `--help` and shell completion.

use std::collections::BTreeSet;

use clap::CommandFactory;

/// The sets of values the options called `--long` take (one per option of that name that has
/// a fixed set, over every subcommand).
fn value_sets(long: &str) -> Vec<BTreeSet<String>> {
    fn walk(cmd: &clap::Command, long: &str, out: &mut Vec<BTreeSet<String>>) {
        for arg in cmd.get_arguments() {
            if arg.get_long() != Some(long) {
                continue;
            }
            let values: BTreeSet<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() && !out.contains(&values) {
                out.push(values);
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, long, out);
        }
    }
    let mut out = Vec::new();
    walk(&crate::args::Cli::command(), long, &mut out);
    out
}

/// The code spans of a Markdown text outside fenced blocks, with their lines.
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        out.extend(
            line.split('`')
                .skip(1)
                .step_by(2)
                .map(|span| (n + 1, span.replace("\\|", "|"))),
        );
    }
    out
}

/// The `--flag a|b|c` of a text whose values are not the flag's: (flag, list, what it takes).
fn wrong_lists(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    for pair in words.windows(2) {
        let Some(long) = pair[0].strip_prefix("--") else {
            continue;
        };
        let list = pair[1]
            .trim_start_matches(['[', '('])
            .trim_end_matches([']', ')', ',', ';', '.']);
        if !list.contains('|') {
            continue;
        }
        let listed: BTreeSet<String> = list.split('|').map(str::to_string).collect();
        // Placeholders in capitals (`--cdp URL|PORT`) name no values.
        if listed
            .iter()
            .any(|v| v.is_empty() || v.chars().all(|c| !c.is_ascii_lowercase()))
        {
            continue;
        }
        let sets = value_sets(long);
        if sets.is_empty() || sets.contains(&listed) {
            continue;
        }
        let takes: Vec<String> = sets
            .iter()
            .map(|s| s.iter().cloned().collect::<Vec<_>>().join("|"))
            .collect();
        out.push((long.to_string(), list.to_string(), takes.join(" or ")));
    }
    out
}

/// What a Markdown text claims wrongly: `LINE: --flag a|b lists ...; it takes ...`, one a
/// claim.
pub fn wrong_claims(text: &str) -> Vec<String> {
    code_spans(text)
        .into_iter()
        .flat_map(|(line, span)| {
            wrong_lists(&span).into_iter().map(move |(long, list, takes)| {
                format!(
                    "{line}: `--{long} {list}` lists values that are not the option's; it takes {takes}"
                )
            })
        })
        .collect()
}

/// What the command line's own help texts claim wrongly, as `wrong_claims` does for docs.
pub fn wrong_help_claims() -> Vec<String> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        let mut texts: Vec<String> = [cmd.get_about(), cmd.get_long_about()]
            .into_iter()
            .flatten()
            .map(|t| t.to_string())
            .collect();
        for arg in cmd.get_arguments() {
            texts.extend(
                [arg.get_help(), arg.get_long_help()]
                    .into_iter()
                    .flatten()
                    .map(|t| t.to_string()),
            );
        }
        for text in texts {
            for (long, list, takes) in wrong_lists(&text.replace('`', " ")) {
                out.push(format!(
                    "`{path} --help`: `--{long} {list}` lists values that are not the option's; it takes {takes}"
                ));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }
    let mut out = Vec::new();
    walk(&crate::args::Cli::command(), "agentbrowser", &mut out);
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_s_values_are_checked_against_the_command_line() {
        assert!(
            wrong_claims("`open URL [--wait-until load\\|domcontentloaded\\|networkidle]`")
                .is_empty()
        );
        let wrong = wrong_claims("a\n`click e1 --button left|right`\n");
        assert_eq!(wrong.len(), 1, "{wrong:?}");
        assert!(
            wrong[0].starts_with("2: `--button left|right`"),
            "{wrong:?}"
        );
        assert!(wrong[0].contains("left|middle|right"), "{wrong:?}");
        // Placeholders and free-form options are not value lists.
        assert!(wrong_claims("`--cdp URL|PORT` `--session a|b`").is_empty());
        assert!(wrong_claims("```\nagentbrowser click e1 --button left|up\n```").is_empty());
    }

    #[test]
    fn the_help_texts_list_the_values_their_options_take() {
        let wrong = wrong_help_claims();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}
