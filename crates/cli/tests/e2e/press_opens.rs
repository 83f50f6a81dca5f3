//! A press the element answers by changing the page (a menu with a backdrop opened on
//! `pointerdown`, `pointer-events: none` on the body, as Radix and MUI do): the release lands on
//! what the press opened, as a user's would, and the click is a success that says so. A page
//! that moves another element under the pointer without answering the press is still stopped
//! (`under_fire`).

use crate::common::*;
use serde_json::json;

const MENU: &str = "<title>Menu</title>\
<button id=opts style='margin:40px;padding:8px 20px'>Options</button>\
<script>\
window.log=[];\
opts.addEventListener('pointerdown', (e) => {\
  e.preventDefault();\
  log.push('open');\
  const back = document.createElement('div');\
  back.id = 'backdrop';\
  back.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.1);pointer-events:auto';\
  back.addEventListener('click', () => log.push('backdrop click'));\
  const menu = document.createElement('div');\
  menu.setAttribute('role', 'menu');\
  menu.innerHTML = '<div role=menuitem tabindex=0 style=\"position:fixed;left:40px;top:120px\">Rename</div>';\
  menu.firstChild.addEventListener('click', () => log.push('rename'));\
  document.body.append(back, menu);\
  document.body.style.pointerEvents = 'none';\
  menu.style.pointerEvents = 'auto';\
});\
</script>";

#[test]
fn a_press_that_opens_a_menu_over_the_element_is_a_click_that_says_where_the_release_went() {
    let server = Server::start();
    server.route("/", Page::html(MENU));
    let cli = Cli::new(&format!("press-opens-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    let options = cli.find_ref(&snap, "button", "Options");
    let d = cli.ok(&["click", &options]);
    // Opened once: the click was not repeated (a second press would open a second menu).
    assert_eq!(cli.eval("log"), json!(["open"]), "{d}");
    let note = d["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("changed the page; the release landed on"),
        "{d}"
    );
    // The menu is usable afterwards.
    let snap = cli.ok(&["snapshot"]);
    let rename = cli.find_ref(&snap, "menuitem", "Rename");
    cli.ok(&["click", &rename]);
    assert_eq!(cli.eval("log"), json!(["open", "rename"]));
}
