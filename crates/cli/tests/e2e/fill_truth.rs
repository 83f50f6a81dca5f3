//! `fill` says whether the text really replaced the old: an editor that keeps its own cursor and
//! puts the new text in front of the old is an `action_failed` naming what the field holds,
//! never a success; a field that reformats its value (a mask) is a success with the value.

use crate::common::*;

const EDITORS: &str = "<title>Editors</title>\
<div id=stubborn contenteditable=true role=textbox aria-label=Stubborn>old text</div>\
<input id=phone aria-label=Phone>\
<div id=plain contenteditable=true role=textbox aria-label=Plain>before</div>\
<script>\
stubborn.addEventListener('beforeinput', (e) => {\
  e.preventDefault();\
  stubborn.textContent = e.data + stubborn.textContent;\
});\
phone.addEventListener('input', () => {\
  const d = phone.value.replace(/\\D/g, '');\
  phone.value = d.length > 3 ? '(' + d.slice(0, 3) + ') ' + d.slice(3) : d;\
});\
</script>";

#[test]
fn fill_reports_an_editor_that_kept_its_old_text_and_accepts_a_mask() {
    let server = Server::start();
    server.route("/", Page::html(EDITORS));
    let cli = Cli::new(&format!("fill-truth-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    let (code, msg, data) = cli.err(&["fill", "#stubborn", "new"]);
    assert_eq!(code, "action_failed", "{msg}");
    assert!(msg.contains("old text is still there"), "{msg}");
    assert_eq!(data["value"], "newold text", "{data}");
    assert_eq!(cli.eval("stubborn.textContent"), "newold text");
    let d = cli.ok(&["fill", "#phone", "5551234"]);
    assert_eq!(d["value"], "(555) 1234", "{d}");
    let d = cli.ok(&["fill", "#plain", "after"]);
    assert_eq!(cli.eval("plain.innerText"), "after", "{d}");
}
