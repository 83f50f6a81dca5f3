//! A web component's button whose text is light-DOM content rendered through a slot (as
//! Shoelace's `<sl-button>` is): `elementFromPoint` names the host at the button's centre, yet a
//! press there reaches the inner button. The click lands, and the page's handler ran once.

use crate::common::*;
use serde_json::json;

const SLOTTED: &str = "<title>Slots</title>\
<x-button id=send>Send message</x-button>\
<script>\
customElements.define('x-button', class extends HTMLElement {\
  constructor() {\
    super();\
    const root = this.attachShadow({ mode: 'open' });\
    root.innerHTML = '<button part=base style=\"padding:10px 30px\"><slot></slot></button>';\
    root.querySelector('button').addEventListener('click', () => window.log.push('sent'));\
  }\
});\
window.log = [];\
</script>";

#[test]
fn a_click_on_a_web_component_button_with_slotted_text_lands() {
    let server = Server::start();
    server.route("/", Page::html(SLOTTED));
    let cli = Cli::new(&format!("slotted-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let send = cli.find_ref(&snap, "button", "Send message");
    let d = cli.ok(&["click", &send]);
    assert_eq!(cli.eval("log"), json!(["sent"]), "{d}");
}
