//! An element still sliding or fading in (a modal's transition) is clicked once it settles, as
//! Bootstrap's modal needs (it ignores a dismiss while it transitions); an endless spinner on a
//! container is no movement to wait for; an element that never settles within the timeout is
//! `element_not_stable` and nothing is clicked.

use crate::common::*;
use serde_json::json;

const MODAL: &str = "<title>Modal</title>\
<style>\
#dlg{position:fixed;left:480px;top:60px;z-index:5;transform:translateY(-80px);opacity:0;transition:transform .4s ease-out,opacity .4s}\
#dlg.show{transform:none;opacity:1}\
#long{transition:transform 20s linear}\
#long.go{transform:translateX(300px)}\
@keyframes spin{to{transform:rotate(360deg)}}\
#spinner{animation:spin 1s linear infinite;width:200px;padding:20px}\
</style>\
<button id=launch>Launch</button>\
<div id=dlg role=dialog aria-label=Confirm><button id=save>Save changes</button></div>\
<div id=spinner><button id=inside>Inside spinner</button></div>\
<button id=long>Drifting</button>\
<script>\
window.log=[];let moving=false;\
launch.onclick=()=>{moving=true;dlg.classList.add('show');};\
dlg.addEventListener('transitionend',(e)=>{if(e.propertyName==='transform')moving=false;});\
save.onclick=()=>log.push(moving?'ignored while moving':'saved');\
inside.onclick=()=>log.push('inside');\
long.onclick=()=>log.push('drifting');\
</script>";

#[test]
fn a_click_waits_until_the_element_stops_moving() {
    let server = Server::start();
    server.route("/", Page::html(MODAL));
    let cli = Cli::new(&format!("stable-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    cli.ok(&["click", "#launch"]);
    // Right after the launch the dialog is still sliding in.
    cli.ok(&["click", "#save"]);
    assert_eq!(cli.eval("log"), json!(["saved"]));
    // An endless animation of a container is not movement to wait for.
    cli.ok(&["click", "#inside", "--timeout", "3000"]);
    assert_eq!(cli.eval("log"), json!(["saved", "inside"]));
    // An element that keeps moving past the timeout: an error, and nothing was clicked.
    cli.eval("long.classList.add('go'); 0");
    let (code, msg, _) = cli.err(&["click", "#long", "--timeout", "1500"]);
    assert_eq!(code, "element_not_stable", "{msg}");
    assert!(msg.contains("still moving"), "{msg}");
    assert_eq!(cli.eval("log"), json!(["saved", "inside"]));
}
