//! URL patterns that can never match are refused by every command that takes one (`network
//! route`, `network unroute`, `network requests --filter`, `wait --url`, `--wait-url`), with an
//! `invalid_argument` naming the pattern, what is wrong and the shapes allowed; a pattern the
//! browser's URLs can equal still works (issue 35).

use crate::common::*;

/// Asserts `args` is refused as `invalid_argument` naming `pattern` and `what`, and the shapes.
fn refused(cli: &Cli, args: &[&str], pattern: &str, what: &str) {
    let (code, msg, _) = cli.err(args);
    assert_eq!(code, "invalid_argument", "{args:?}: {msg}");
    assert!(
        msg.contains(&format!("{pattern:?}")) && msg.contains(what),
        "{args:?}: the error names the pattern and what is wrong: {msg}"
    );
    assert!(
        msg.contains("a glob with `*`") && msg.contains("a whole URL as the browser writes it"),
        "{args:?}: the error says which shapes are allowed: {msg}"
    );
}

#[test]
fn patterns_that_can_never_match_are_refused_everywhere() {
    let s = Server::start();
    s.route(
        "/",
        Page::html("<title>Home</title><a href='/next'>next</a>"),
    );
    s.route("/next", Page::html("<title>Next</title>"));
    let cli = Cli::new("url-patterns");
    cli.ok(&["open", &s.url("/")]);

    let broken = "http://[";
    let invalid = "is not a valid URL";
    refused(
        &cli,
        &["network", "route", broken, "--body", "x"],
        broken,
        invalid,
    );
    refused(&cli, &["network", "unroute", broken], broken, invalid);
    refused(
        &cli,
        &["network", "requests", "--filter", broken],
        broken,
        invalid,
    );
    refused(&cli, &["wait", "--url", broken], broken, invalid);
    refused(&cli, &["click", "a", "--wait-url", broken], broken, invalid);
    assert_eq!(
        cli.eval("document.title"),
        "Home",
        "a refused click does not act"
    );
    let routes = cli.ok(&["network", "routes"]);
    assert_eq!(
        routes["routes"].as_array().map(Vec::len),
        Some(0),
        "a refused route is not added: {routes}"
    );

    // A glob whose host part is no host, and URLs the browser never writes so (each error gives
    // the form that matches).
    let port = s.port();
    let bad_glob = "http://[/**";
    refused(
        &cli,
        &["network", "route", bad_glob, "--abort"],
        bad_glob,
        "not a valid URL's beginning",
    );
    let upper = format!("HTTP://127.0.0.1:{port}/api/*");
    refused(
        &cli,
        &["network", "route", &upper, "--abort"],
        &upper,
        &format!("write \"http://127.0.0.1:{port}/api/*\""),
    );
    let no_slash = format!("http://127.0.0.1:{port}");
    refused(
        &cli,
        &["wait", "--url", &no_slash],
        &no_slash,
        &format!("write \"http://127.0.0.1:{port}/\""),
    );

    // What the browser writes is still taken, and matches.
    cli.ok(&["wait", "--url", &s.url("/")]);
    cli.ok(&[
        "network",
        "route",
        &s.url("/next"),
        "--body",
        "<title>Routed</title>",
        "--content-type",
        "text/html",
    ]);
    cli.ok(&["open", &s.url("/next")]);
    assert_eq!(cli.eval("document.title"), "Routed");
    assert!(
        s.requests_for("/next").is_empty(),
        "the routed page never reached the server"
    );
}
