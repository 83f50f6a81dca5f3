//! Values that start with `-` (a negative number, text like `-abc`) reach the page as given,
//! without `--` before them, end to end on Chromium.

use crate::common::*;
use serde_json::json;

const FORM: &str = r#"<!doctype html><title>Hyphens</title>
<label>Quantity <input id="num" type="number"></label>
<label>Note <input id="t"></label>
<p id="out"></p>
<script>
  document.getElementById('t').addEventListener('input', (e) => {
    document.getElementById('out').textContent = 'note is ' + e.target.value;
  });
</script>"#;

#[test]
fn fill_and_type_take_values_that_start_with_a_hyphen() {
    let server = Server::start();
    server.route("/", Page::html(FORM));
    let cli = Cli::new("hyphen-values");
    cli.ok(&["open", &server.url("/")]);

    // A negative number into a number input: the page holds -5.
    cli.ok(&["fill", "#num", "-5"]);
    assert_eq!(
        cli.eval(
            "[document.getElementById('num').value, document.getElementById('num').valueAsNumber]"
        ),
        json!(["-5", -5])
    );
    // With flags after the value, which stay flags.
    cli.ok(&["fill", "#num", "-12.5", "--no-evidence"]);
    assert_eq!(
        cli.eval("document.getElementById('num').valueAsNumber"),
        json!(-12.5)
    );

    // Text that starts with a hyphen (and looks like an option), typed key by key.
    cli.ok(&["type", "#t", "-abc", "--wait-text", "note is -abc"]);
    assert_eq!(
        cli.eval("document.getElementById('t').value"),
        json!("-abc")
    );
    cli.ok(&["fill", "#t", "--verbose"]);
    assert_eq!(
        cli.eval("document.getElementById('t').value"),
        json!("--verbose")
    );

    // A locator's action value, and a wait's text.
    cli.ok(&["find", "label", "Quantity", "fill", "-7"]);
    assert_eq!(
        cli.eval("document.getElementById('num').value"),
        json!("-7")
    );
    cli.ok(&["wait", "--text", "--verbose"]);
    assert_eq!(cli.ok(&["eval", "-1"])["result"], json!(-1));
}
