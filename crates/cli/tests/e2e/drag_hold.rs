//! A pointer drag rests at its drop point before letting go: a list that checks where the
//! pointer is on a 50 ms timer (as SortableJS's fallback mode does) sees it over the target and
//! moves the item there; the order is read from the page.

use crate::common::*;
use serde_json::json;

const TIMED: &str = "<title>Timed list</title>\
<ul id=list style='list-style:none;padding:0;width:200px'>\
<li style='height:40px'>Apples</li><li style='height:40px'>Bananas</li><li style='height:40px'>Cherries</li></ul>\
<script>\
let dragging = null, y = 0, loop = 0;\
const items = () => [...list.children];\
list.addEventListener('mousedown', (e) => { dragging = e.target.closest('li'); y = e.clientY;\
  loop = setInterval(() => { const over = items().find((li) => { const r = li.getBoundingClientRect(); return y >= r.top && y < r.bottom; });\
    if (over && over !== dragging) { over.after(dragging); } }, 50); });\
document.addEventListener('mousemove', (e) => { y = e.clientY; });\
document.addEventListener('mouseup', () => { clearInterval(loop); dragging = null; });\
window.order = () => items().map((li) => li.textContent);\
</script>";

#[test]
fn a_drag_rests_at_the_drop_point_until_a_timed_list_takes_it() {
    let server = Server::start();
    server.route("/", Page::html(TIMED));
    let cli = Cli::new(&format!("drag-hold-{}", std::process::id()));
    cli.ok(&["open", &server.url("/")]);
    let snap = cli.ok(&["snapshot", "--full"]);
    // The items have no name: the first and the last list item, as the snapshot shows them.
    let text = snap["text"].as_str().unwrap_or_default();
    let item = |label: &str| {
        let line = text
            .lines()
            .find(|l| l.contains("listitem") && l.ends_with(label))
            .unwrap_or_else(|| panic!("no item {label} in {text}"));
        let at = line.find("ref=").expect("a ref") + 4;
        line[at..].split(']').next().unwrap_or_default().to_string()
    };
    let (apples, cherries) = (item("Apples"), item("Cherries"));
    let d = cli.ok(&["drag", &apples, &cherries]);
    assert_eq!(
        cli.eval("order()"),
        json!(["Bananas", "Cherries", "Apples"]),
        "{d}"
    );
}
