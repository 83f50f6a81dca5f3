//! `agentbrowser`: the command line's client. A command the session's daemon answers is sent
//! to it (the daemon started on first use) and its answer printed; any other is handed to
//! `agentbrowser-engine`, next to this binary.

fn main() -> std::process::ExitCode {
    agentbrowser_cli::main_client()
}
