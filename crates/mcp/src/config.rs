//! `agentbrowser mcp --print-config`: how to register the server with the common MCP clients.

use serde_json::json;

use crate::tools::Cap;

/// The tool groups `--caps` can add (every group but `core`, which is always on), comma-separated.
pub fn optional_caps() -> String {
    let names: Vec<&str> = Cap::ALL
        .iter()
        .filter(|c| **c != Cap::Core)
        .map(|c| c.name())
        .collect();
    names.join(", ")
}

/// The help of `--caps`, from the tool groups themselves.
pub fn caps_help() -> String {
    format!(
        "More tool groups besides `core` (comma-separated: {}; all: every group but code, which runs \
         Python with the server's rights and must be named)",
        optional_caps()
    )
}

/// The groups named in a `--caps` list (`history`, or `all`: every group but `code`, which must
/// be named); `core` is always on.
pub fn parse_caps(list: &[String]) -> Result<Vec<Cap>, String> {
    let mut caps = vec![Cap::Core];
    for name in list.iter().flat_map(|s| s.split(',')).map(str::trim) {
        if name.is_empty() {
            continue;
        }
        if name == "all" {
            let more: Vec<Cap> = Cap::ALL
                .iter()
                .copied()
                .filter(|c| c.in_all() && !caps.contains(c))
                .collect();
            caps.extend(more);
            continue;
        }
        match Cap::ALL.iter().find(|c| c.name() == name) {
            Some(c) if !caps.contains(c) => caps.push(*c),
            Some(_) => {}
            None => {
                let known: Vec<&str> = Cap::ALL.iter().map(|c| c.name()).collect();
                return Err(format!(
                    "unknown capability `{name}` in --caps; known: {}, all",
                    known.join(", ")
                ));
            }
        }
    }
    Ok(caps)
}

/// The configuration snippets for Claude Code, Claude Desktop, Cursor and VS Code, for the
/// server started as `command mcp` (over stdio) or reached at `http://127.0.0.1:PORT/mcp`.
pub fn text(command: &str) -> String {
    let stdio = json!({"command": command, "args": ["mcp"]});
    let servers = json!({"mcpServers": {"agentbrowser": stdio}});
    let vscode = json!({"servers": {"agentbrowser": {"type": "stdio", "command": command, "args": ["mcp"]}}});
    let http = json!({"mcpServers": {"agentbrowser": {"url": "http://127.0.0.1:8931/mcp"}}});
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default();
    format!(
        "# agentbrowser as an MCP server (stdio; one browser per connection, closed when the client disconnects)\n\
         \n\
         ## Claude Code\n\
         claude mcp add agentbrowser -- {command} mcp\n\
         \n\
         ## Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json or .cursor/mcp.json)\n\
         {servers}\n\
         \n\
         ## VS Code (.vscode/mcp.json)\n\
         {vscode}\n\
         \n\
         ## Over HTTP: start `{command} mcp --port 8931`, then\n\
         claude mcp add --transport http agentbrowser http://127.0.0.1:8931/mcp\n\
         {http}\n\
         \n\
         ## Options (after `mcp`)\n\
         --caps LIST           more tool groups: {caps} (`all`: every group but `code`)\n\
         --session NAME        share the CLI session NAME (watch it with `{command} --session NAME snapshot`)\n\
         --headed, --executable-path PATH, --cdp URL|PORT, --cdp-headers JSON, --ca-cert PEM, --browser-arg ARG, --window-size WxH (before `mcp`)\n",
        servers = pretty(&servers),
        vscode = pretty(&vscode),
        http = pretty(&http),
        caps = optional_caps(),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_snippets_name_the_command_and_are_json() {
        let t = super::text("/usr/local/bin/agentbrowser");
        assert!(t.contains("claude mcp add agentbrowser -- /usr/local/bin/agentbrowser mcp"));
        let start = t.find("{\n  \"mcpServers\"").expect("a JSON snippet");
        let end = start + t[start..].find("\n}\n").expect("its end") + 2;
        let v: serde_json::Value = serde_json::from_str(&t[start..end]).expect("valid JSON");
        assert_eq!(v["mcpServers"]["agentbrowser"]["args"][0], "mcp");
    }

    #[test]
    fn all_leaves_out_code_which_must_be_named() {
        use crate::Cap;
        let all = super::parse_caps(&["all".into()]).unwrap();
        assert!(all.contains(&Cap::Testing) && !all.contains(&Cap::Code));
        let both = super::parse_caps(&["all,code".into()]).unwrap();
        assert!(both.contains(&Cap::Code) && both.contains(&Cap::Vision));
        assert_eq!(both.len(), Cap::ALL.len());
        assert_eq!(
            super::parse_caps(&["code".into()]).unwrap(),
            [Cap::Core, Cap::Code]
        );
    }

    #[test]
    fn the_caps_help_names_every_optional_group() {
        let help = super::caps_help();
        let text = super::text("agentbrowser");
        for cap in crate::Cap::ALL.iter().filter(|c| **c != crate::Cap::Core) {
            assert!(help.contains(cap.name()), "{help}");
            assert!(text.contains(cap.name()), "{text}");
        }
    }
}
