//! `get options`: the options of a native select, an ARIA listbox and a combobox's list, end to
//! end on Chromium; each answer is checked against what the page itself holds, and a value it
//! answers is one `select` takes.

use crate::common::*;
use serde_json::{Value, json};

const PAGE: &str = r#"<!doctype html><title>Options</title>
<label>Country <select id="country">
  <option value="">Choose…</option>
  <optgroup label="Europe"><option value="fr">France</option><option value="de" disabled>Germany</option></optgroup>
  <optgroup label="Asia"><option value="jp" selected>Japan</option></optgroup>
</select></label>
<select id="tags" multiple aria-label="Tags"><option selected>red</option><option>green</option><option selected>blue</option></select>
<div role="listbox" id="sizes" aria-label="Size">
  <div role="group" aria-label="Small"><div role="option" data-value="s" aria-selected="true">S</div></div>
  <div role="option" id="size-m">M</div>
  <div role="option" aria-disabled="true">XL</div>
</div>
<button role="combobox" id="fruit" aria-expanded="false" aria-controls="fruit-list" aria-label="Fruit">Pick</button>
<div id="fruit-host"></div>
<button id="who" aria-haspopup="listbox" aria-expanded="true" aria-controls="people">Ann</button>
<ul role="listbox" id="people"><li role="option" aria-selected="true">Ann</li><li role="option">Bo</li></ul>
<input id="city" list="cities" aria-label="City"><datalist id="cities"><option value="Oslo"><option value="Rome"></datalist>
<select id="long" aria-label="Numbers"></select>
<button id="plain">Plain</button>
<script>
  const long = document.getElementById('long');
  for (let i = 0; i < 250; i++) long.add(new Option('n' + i, String(i)));
  // The fruit list exists only while the combobox is open, as in Radix and MUI.
  document.getElementById('fruit').addEventListener('click', (e) => {
    e.currentTarget.setAttribute('aria-expanded', 'true');
    document.getElementById('fruit-host').innerHTML =
      '<ul role="listbox" id="fruit-list"><li role="option" aria-selected="false">Apple</li><li role="option" aria-selected="true">Pear</li></ul>';
  });
</script>"#;

fn labels(out: &Value) -> Vec<String> {
    out["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn options_of_selects_listboxes_and_comboboxes_are_what_the_page_holds() {
    let server = Server::start();
    server.route("/", Page::html(PAGE));
    let cli = Cli::new("options");
    cli.ok(&["open", &server.url("/")]);

    // A native select: every option with its group, the page's own selection and disabled state.
    let out = cli.ok(&["get", "options", "#country"]);
    assert_eq!(out["kind"], "select");
    assert_eq!(out["multiple"], false);
    assert_eq!(
        (out["total"].as_u64(), &out["truncated"]),
        (Some(4), &json!(false))
    );
    assert_eq!(
        out["options"],
        json!([
            {"value": "", "label": "Choose…", "selected": false, "disabled": false},
            {"value": "fr", "label": "France", "selected": false, "disabled": false, "group": "Europe"},
            {"value": "de", "label": "Germany", "selected": false, "disabled": true, "group": "Europe"},
            {"value": "jp", "label": "Japan", "selected": true, "disabled": false, "group": "Asia"},
        ])
    );
    let page: Vec<bool> = serde_json::from_value(
        cli.eval("[...document.getElementById('country').options].map(o => o.selected)"),
    )
    .unwrap();
    let answered: Vec<bool> = out["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["selected"].as_bool().unwrap())
        .collect();
    assert_eq!(answered, page);
    // The text form: one line an option, the selected one marked.
    let text = cli.run(&["get", "options", "#country"]).stdout;
    assert!(
        text.contains("[x] \"Japan\" value=\"jp\" group=\"Asia\""),
        "{text}"
    );
    assert!(text.contains("(disabled)"), "{text}");

    // A value it answers is one `select` takes; the page's selection follows, and so does the answer.
    cli.ok(&[
        "select",
        "#country",
        out["options"][1]["value"].as_str().unwrap(),
    ]);
    assert_eq!(cli.eval("document.getElementById('country').value"), "fr");
    let again = cli.ok(&["get", "options", "#country"]);
    assert_eq!(again["options"][1]["selected"], true);
    assert_eq!(again["options"][3]["selected"], false);

    // By ref, from the snapshot, like an agent does.
    let snap = cli.ok(&["snapshot"]);
    let tags = cli.find_ref(&snap, "listbox", "Tags");
    let out = cli.ok(&["get", "options", &tags]);
    assert_eq!(out["multiple"], true);
    assert_eq!(labels(&out), ["red", "green", "blue"]);
    let selected: Vec<bool> = out["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["selected"].as_bool().unwrap())
        .collect();
    assert_eq!(selected, [true, false, true]);

    // An ARIA listbox: values from data-value or value, else the label (not a generated id);
    // groups and states from ARIA.
    let out = cli.ok(&["get", "options", "#sizes"]);
    assert_eq!(out["kind"], "listbox");
    assert_eq!(
        out["options"],
        json!([
            {"value": "s", "label": "S", "selected": true, "disabled": false, "group": "Small"},
            {"value": "M", "label": "M", "selected": false, "disabled": false},
            {"value": "XL", "label": "XL", "selected": false, "disabled": true},
        ])
    );

    // A closed combobox whose list is not in the page: no options, and the answer says why.
    let out = cli.ok(&["get", "options", "#fruit"]);
    assert_eq!(out["total"], 0);
    assert!(out["note"].as_str().unwrap().contains("open it"), "{out}");
    cli.ok(&["click", "#fruit"]);
    let out = cli.ok(&["get", "options", "#fruit"]);
    assert_eq!(labels(&out), ["Apple", "Pear"]);
    assert_eq!(out["options"][1]["selected"], true);
    assert!(out.get("note").is_none(), "{out}");

    // A button that pops up a listbox (Headless UI's Listbox) reads the list it controls.
    let out = cli.ok(&["get", "options", "#who"]);
    assert_eq!(labels(&out), ["Ann", "Bo"]);

    // An input with a datalist suggests its options.
    let out = cli.ok(&["get", "options", "#city"]);
    assert_eq!(labels(&out), ["Oslo", "Rome"]);

    // Bounded: 200 by default, `--limit` to choose; the total is always told.
    let out = cli.ok(&["get", "options", "#long"]);
    assert_eq!(out["options"].as_array().unwrap().len(), 200);
    assert_eq!(
        (out["total"].as_u64(), &out["truncated"]),
        (Some(250), &json!(true))
    );
    let text = cli.run(&["get", "options", "#long", "--limit", "3"]).stdout;
    assert!(text.contains("3 of 250 options shown"), "{text}");
    let (code, msg, _) = cli.err(&["get", "options", "#long", "--limit", "0"]);
    assert_eq!(code, "invalid_argument");
    assert!(
        msg.contains("`limit`") && msg.contains("1 to 1000"),
        "{msg}"
    );

    // An element that has no options is refused by name, and nothing is touched.
    let (code, msg, _) = cli.err(&["get", "options", "#plain"]);
    assert_eq!(code, "element_not_editable");
    assert!(
        msg.contains("has no options") && msg.contains("Plain"),
        "{msg}"
    );
    let (code, _, _) = cli.err(&["get", "options", "e999"]);
    assert_eq!(code, "unknown_ref");
}
