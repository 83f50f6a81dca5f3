//! `agentbrowser-engine`: runs any agentbrowser command line itself, the session's daemon,
//! `serve --stdio`, `mcp` and code mode included (the `agentbrowser` client hands it those).

fn main() -> std::process::ExitCode {
    agentbrowser_cli::main_engine()
}
