//! Labels and styled controls, the way pages really build them: a click on a `<label>` reaches
//! its control through the browser's own label activation (the hit-target guard lets that
//! consequence through), and `check` of a control the user cannot press itself (a CSS switch's
//! zero-size input, an sr-only box under decoration, Bootstrap's `.btn-check`) presses its label
//! and says so. Every outcome is read from the page, never from the answer alone.

use crate::common::*;
use serde_json::{Value, json};

const LABELS: &str = "<title>Labels</title>\
<style>\
.switch{position:relative;display:inline-block;width:40px;height:20px;background:#ccc;border-radius:10px}\
.switch input{opacity:0;width:0;height:0}\
.sr{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}\
.btn-check{position:absolute;clip:rect(0,0,0,0);pointer-events:none}\
.deco{position:absolute;left:0;top:0;width:20px;height:20px;background:#36c;z-index:2}\
</style>\
<p><input type=checkbox id=news><label for=news>Subscribe to newsletter</label></p>\
<p><input type=radio name=size id=s value=s checked><label for=s>Small</label>\
<input type=radio name=size id=l value=l><label for=l>Large</label></p>\
<p><label class=switch><input type=checkbox id=dark><span></span> Dark mode</label></p>\
<p style='position:relative;padding-left:30px'><input type=checkbox id=promo style='position:absolute;left:4px;top:4px;margin:0'>\
<span class=deco></span><label for=promo>Promotions</label></p>\
<p><input type=checkbox class=btn-check id=bold autocomplete=off><label for=bold style='padding:4px 12px;border:1px solid #888'>Bold</label></p>\
<p><label for=file style='border:1px solid #888'>Upload a file</label><input type=file id=file style=display:none></p>\
<p><label class=switch><input type=checkbox id=locked disabled><span></span> Locked</label></p>\
<form id=f><input id=q aria-label=Query><button>Go</button></form>\
<script>\
window.changes=[];\
for (const i of document.querySelectorAll('input')) i.addEventListener('change', () => changes.push(i.id));\
window.submits=0; f.addEventListener('submit', (e) => { e.preventDefault(); submits++; });\
</script>";

fn labels() -> (Server, Cli, Value) {
    let server = Server::start();
    server.route("/", Page::html(LABELS));
    let cli = Cli::new(&format!("labels-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot"]);
    (server, cli, snap)
}

#[test]
fn a_click_on_a_label_for_a_checkbox_checks_it_and_says_the_label_passed_it_on() {
    let (_server, cli, _) = labels();
    let d = cli.ok(&["click", "label[for=news]"]);
    assert_eq!(cli.eval("news.checked"), true, "{d}");
    assert_eq!(cli.eval("changes"), json!(["news"]));
    let note = d["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("passed the click on to its control input#news"),
        "{d}"
    );
    assert!(!note.contains("stray"), "nothing was stopped: {d}");
    // By its text, as an agent finds it: unchecks it again.
    cli.ok(&["find", "text", "Subscribe to newsletter", "click"]);
    assert_eq!(cli.eval("news.checked"), false);
    assert_eq!(cli.eval("changes"), json!(["news", "news"]));
}

#[test]
fn a_click_on_a_radio_label_selects_that_radio() {
    let (_server, cli, _) = labels();
    cli.ok(&["click", "label[for=l]"]);
    assert_eq!(cli.eval("[s.checked, l.checked]"), json!([false, true]));
}

#[test]
fn a_click_on_the_label_of_a_hidden_file_input_opens_its_chooser() {
    let (_server, cli, _) = labels();
    let d = cli.ok(&["click", "label[for=file]"]);
    assert_eq!(
        d["fileChooser"]["multiple"], false,
        "the chooser was reported: {d}"
    );
}

#[test]
fn a_click_on_a_btn_check_label_toggles_the_hidden_input() {
    let (_server, cli, _) = labels();
    cli.ok(&["click", "label[for=bold]"]);
    assert_eq!(cli.eval("bold.checked"), true);
    cli.ok(&["click", "label[for=bold]"]);
    assert_eq!(cli.eval("bold.checked"), false);
}

#[test]
fn check_of_a_css_switch_presses_its_label_and_reports_the_new_state() {
    let (_server, cli, snap) = labels();
    let dark = cli.find_ref(&snap, "checkbox", "Dark mode");
    let d = cli.ok(&["check", &dark]);
    assert_eq!(cli.eval("dark.checked"), true, "{d}");
    assert_eq!(d["checked"], true, "{d}");
    assert_eq!(d["changed"], true, "{d}");
    let note = d["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("pressed its label"),
        "the answer says how: {d}"
    );
    let d = cli.ok(&["uncheck", &dark]);
    assert_eq!(cli.eval("dark.checked"), false, "{d}");
    assert_eq!(cli.eval("changes"), json!(["dark", "dark"]));
}

#[test]
fn check_of_a_box_under_decoration_presses_its_label() {
    let (_server, cli, snap) = labels();
    let promo = cli.find_ref(&snap, "checkbox", "Promotions");
    let d = cli.ok(&["check", &promo]);
    assert_eq!(cli.eval("promo.checked"), true, "{d}");
    assert!(
        d["note"].as_str().unwrap_or_default().contains("label"),
        "{d}"
    );
}

#[test]
fn check_of_a_disabled_styled_switch_fails_and_changes_nothing() {
    let (_server, cli, snap) = labels();
    let locked = cli.find_ref(&snap, "checkbox", "Locked");
    let (code, msg, _) = cli.err(&["check", &locked, "--timeout", "2000"]);
    assert_eq!(code, "element_disabled", "{msg}");
    assert_eq!(
        cli.eval("[locked.checked, changes.length]"),
        json!([false, 0])
    );
}

#[test]
fn enter_in_a_form_field_submits_the_form_once() {
    let (_server, cli, snap) = labels();
    let q = cli.find_ref(&snap, "textbox", "Query");
    cli.ok(&["fill", &q, "hello"]);
    cli.ok(&["press", "Enter"]);
    assert_eq!(cli.eval("submits"), 1);
}
