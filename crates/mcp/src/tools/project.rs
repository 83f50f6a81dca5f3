//! Tools that are one protocol command as it is. Its input schema is the command's parameter
//! schema (the fields' doc comments, ranges and enums) under the tool's argument names, its call
//! is `Command::from_parts` (the protocol's own parsing and checks, with the messages in the
//! tool's words), and its answer is the command's presenter text; an action answers what changed
//! on the page, as the hand-written action tools do.

use std::collections::HashMap;
use std::sync::OnceLock;

use agentbrowser_protocol::{ActionOutput, Command, CommandDoc, Kind};
use serde_json::{Map, Value, json};

use super::{Ctx, drop_null, generator, page};
use crate::answer::{ANSWER_BUDGET, Answer, ToolError};

/// How a projected tool answers (by default, as its command is: [`Projection::shape`]).
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// An action on the page: its line, the tabs it opened and what changed on the page (a diff
    /// against the snapshot the model saw). The command runs without its own evidence, and its
    /// `wait` is no argument.
    Acted,
    /// A navigation: where it landed, then a snapshot of the page.
    Landed,
    /// The presenter's text as one section with this title.
    Section(&'static str),
    /// The presenter's text as one section (title, then what to do when it is cut to fit).
    Cut(&'static str, &'static str),
}

/// One protocol command as a tool: where the tool's arguments differ from the command's
/// parameters (Playwright MCP's names, what the tool sets itself, leaves out or bounds). The
/// parameters are named as on the wire, except in `notes`.
#[derive(Debug, Clone, Copy)]
pub struct Projection {
    /// The command's action.
    pub action: &'static str,
    /// How the tool answers, where it is not as its command is (`None`: [`Projection::shape`]).
    pub answer: Option<Shape>,
    /// (tool argument, parameter) where the tool names a parameter otherwise; a later pair of
    /// the same parameter is an older name the tool still takes (not listed).
    pub renames: &'static [(&'static str, &'static str)],
    /// Parameters the tool sets itself, as a JSON object (`{"area": "local"}`).
    pub fixed: &'static str,
    /// Parameters the tool leaves out.
    pub hidden: &'static [&'static str],
    /// Optional parameters the tool requires.
    pub required: &'static [&'static str],
    /// (parameter, description) where the protocol's text does not fit the tool's argument (it
    /// is required, or bounded by the answer budget).
    pub describe: &'static [(&'static str, &'static str)],
    /// (parameter, default, most) bounded by the answer budget: the default when absent, more
    /// than the most refused.
    pub limits: &'static [(&'static str, u64, u64)],
    /// Playwright MCP's descriptive string arguments (`element`): (name, description); taken
    /// and not sent.
    pub notes: &'static [(&'static str, &'static str)],
}

/// `target` is the wire's `ref` (Playwright MCP's name for the element to act on).
pub const TARGET: &[(&str, &str)] = &[("target", "ref")];

/// Playwright MCP's `element`, said of the element a tool acts on.
pub const ELEMENT: &[(&str, &str)] = &[(
    "element",
    "Human-readable element description used to obtain permission to interact with the element.",
)];

impl Projection {
    /// The command `action` as it is.
    pub const fn of(action: &'static str) -> Projection {
        Projection {
            action,
            answer: None,
            renames: &[],
            fixed: "{}",
            hidden: &[],
            required: &[],
            describe: &[],
            limits: &[],
            notes: &[],
        }
    }

    /// How the tool answers: as the table says, else as its command is: an action (its
    /// parameters take `evidence`: its result is an `ActionOutput`) answers what changed, a
    /// navigation where it landed, a read its text cut to fit, any other command its text.
    pub fn shape(&self) -> Shape {
        let params = doc(self.action).map(|d| &d.params["properties"]);
        let action = params.is_some_and(|p| p.get("evidence").is_some());
        match (self.answer, Command::kind_of(self.action)) {
            (Some(shape), _) => shape,
            _ if action => Shape::Acted,
            (_, Some(Kind::Navigate)) => Shape::Landed,
            (_, Some(Kind::Read)) => Shape::Cut("Result", "ask for less with the tool's arguments"),
            _ => Shape::Section("Result"),
        }
    }

    /// The tool's name for the parameter `wire`.
    fn argument<'a>(&self, wire: &'a str) -> &'a str {
        let rename = self.renames.iter().find(|(_, w)| *w == wire);
        rename.map_or(wire, |(tool, _)| tool)
    }

    /// The parameter of the tool's argument `name`.
    fn wire<'a>(&self, name: &'a str) -> &'a str {
        let rename = self.renames.iter().find(|(tool, _)| *tool == name);
        rename.map_or(name, |(_, wire)| wire)
    }

    /// The parameters the tool sets itself.
    fn fixed(&self) -> Map<String, Value> {
        let mut fixed: Map<String, Value> = serde_json::from_str(self.fixed).unwrap_or_default();
        if let Shape::Acted = self.shape() {
            // `Evidence::Off`: the answer diffs against the model's view instead.
            fixed.insert("evidence".into(), false.into());
            fixed.insert("wait".into(), Value::Null);
        }
        fixed
    }

    /// The command's summary (the tool's description when the table gives none).
    pub fn summary(&self) -> &'static str {
        doc(self.action).map_or("", |d| d.summary)
    }

    /// The tool's input schema: Playwright MCP's descriptive arguments, then the command's
    /// parameters the tool offers under its names; unknown keys refused.
    pub fn schema(&self) -> Map<String, Value> {
        let params = doc(self.action).map_or(&Value::Null, |d| &d.params);
        let fixed = self.fixed();
        let mut properties = Map::new();
        for (name, description) in self.notes {
            let note = json!({"type": "string", "description": description});
            properties.insert(name.to_string(), note);
        }
        let mut required = Vec::new();
        let empty = Map::new();
        let props = params["properties"].as_object().unwrap_or(&empty);
        for (wire, schema) in props {
            if self.hidden.contains(&wire.as_str()) || fixed.contains_key(wire) {
                continue;
            }
            let mut schema = schema.clone();
            if let Some((_, text)) = self.describe.iter().find(|(w, _)| w == wire) {
                schema["description"] = json!(text);
            }
            if let Some((_, _, most)) = self.limits.iter().find(|(w, ..)| w == wire) {
                schema["minimum"] = json!(1);
                schema["maximum"] = json!(most);
            }
            let name = self.argument(wire);
            let wire_required = params["required"]
                .as_array()
                .map(|r| r.contains(&json!(wire)));
            if wire_required == Some(true) || self.required.contains(&wire.as_str()) {
                required.push(json!(name));
            }
            properties.insert(name.to_string(), schema);
        }
        let mut schema =
            json!({"$schema": super::DRAFT, "type": "object", "properties": properties});
        if !required.is_empty() {
            schema["required"] = Value::Array(required);
        }
        schema["additionalProperties"] = false.into();
        drop_null(&mut schema);
        match schema {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// The command's parameters from the tool's arguments: known names only, the notes taken
    /// out, the limits applied, renamed to the wire's, with what the tool sets itself.
    fn params(&self, args: Value) -> Result<Value, ToolError> {
        let mut args = match args {
            Value::Null => Map::new(),
            Value::Object(map) => map,
            other => {
                let message = format!("invalid arguments: {other} is not an object");
                return Err(ToolError::invalid(message));
            }
        };
        let schema = self.schema();
        let listed: Vec<&str> = schema["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        // Our older names of renamed arguments stay accepted (not listed).
        let older = self.renames.iter().map(|(tool, _)| *tool);
        let known: Vec<&str> = listed.iter().copied().chain(older).collect();
        if let Some(unknown) = args.keys().find(|k| !known.contains(&k.as_str())) {
            let message = format!("unknown field `{unknown}`, {}", expected(&listed));
            return Err(ToolError::invalid(format!("invalid arguments: {message}")));
        }
        let absent = |name: &str| args.get(name).is_none_or(Value::is_null);
        if let Some(wire) = self.required.iter().find(|w| absent(self.argument(w))) {
            let message = format!("invalid arguments: missing field `{}`", self.argument(wire));
            return Err(ToolError::invalid(message));
        }
        for (wire, default, most) in self.limits {
            let name = self.argument(wire);
            match args.get(name).filter(|v| !v.is_null()) {
                None => {
                    args.insert(name.to_string(), json!(default));
                }
                Some(n) if n.as_u64().is_some_and(|n| (1..=*most).contains(&n)) => {}
                Some(n) => {
                    return Err(ToolError::invalid(format!(
                        "invalid argument `{name}`: {n}; use 1 to {most} (answers stay under \
                         {ANSWER_BUDGET} bytes)"
                    )));
                }
            }
        }
        let mut params = self.fixed();
        for (name, value) in args {
            if self.notes.iter().all(|(note, _)| *note != name) {
                params.insert(self.wire(&name).to_string(), value);
            } else if !(value.is_string() || value.is_null()) {
                let message = format!("invalid argument `{name}`: {value} is not a string");
                return Err(ToolError::invalid(message));
            }
        }
        Ok(Value::Object(params))
    }

    /// A message of the protocol's checks in the tool's words (its argument names).
    fn in_tool_words(&self, message: &str) -> String {
        let message = message
            .replace("invalid parameter `", "invalid argument `")
            .replace("invalid parameters:", "invalid arguments:");
        let parts = message.split('`').enumerate();
        let parts = parts.map(|(i, part)| {
            if i % 2 == 1 {
                self.argument(part)
            } else {
                part
            }
        });
        parts.collect::<Vec<_>>().join("`")
    }

    /// Runs the command with the tool's arguments and answers.
    pub async fn run(&self, cx: Ctx, args: Value) -> Result<Answer, ToolError> {
        let command = match Command::parse(self.action, self.params(args)?) {
            Some(Ok(command)) => command,
            Some(Err(message)) => return Err(ToolError::invalid(self.in_tool_words(&message))),
            None => {
                let message = format!("the engine has no command `{}`", self.action);
                return Err(ToolError::new("unknown_action", message));
            }
        };
        let shape = self.shape();
        if let Shape::Acted = shape {
            let out: ActionOutput = cx.get(command).await?;
            return page::after_actions(&cx, &[out]).await;
        }
        let data = cx.run(command).await?;
        let text = Command::present(self.action, &data).ok_or_else(|| {
            let message = format!("the answer to `{}` is not its result type", self.action);
            ToolError::new("internal", message)
        })?;
        let mut answer = Answer::new();
        match shape {
            Shape::Section(title) => {
                answer.add(title, text);
            }
            Shape::Cut(title, hint) => {
                answer.add_cuttable(title, text, hint);
            }
            // Landed (an action answered above).
            _ => {
                answer.add("Result", text);
                page::add_snapshot(&cx, &mut answer).await?;
            }
        }
        Ok(answer)
    }
}

/// What serde says is expected in place of an unknown field.
fn expected(known: &[&str]) -> String {
    let quoted: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    match quoted.as_slice() {
        [] => "there are no fields".into(),
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        all => format!("expected one of {}", all.join(", ")),
    }
}

/// The documentation of the command `action` (its summary and its parameter schema with every
/// subschema inlined), built once for every command.
fn doc(action: &str) -> Option<&'static CommandDoc> {
    static DOCS: OnceLock<HashMap<&'static str, CommandDoc>> = OnceLock::new();
    let docs = DOCS.get_or_init(|| {
        let docs = Command::shared_schemas(&mut generator());
        docs.into_iter().map(|d| (d.name, d)).collect()
    });
    docs.get(action)
}

#[cfg(test)]
mod tests {
    use super::super::{Body, TOOLS};
    use super::*;
    use serde_json::json;

    /// The projection of the tool `name`.
    fn projection(name: &str) -> &'static Projection {
        match &TOOLS.iter().find(|t| t.name == name).expect("a tool").body {
            Body::Command(p) => p,
            Body::Hand { .. } => panic!("{name} is written by hand"),
        }
    }

    #[test]
    fn every_projection_names_parameters_its_command_has() {
        for t in TOOLS.iter() {
            let Body::Command(p) = &t.body else { continue };
            let params = &doc(p.action).expect("a command").params;
            let has = |wire: &str| params["properties"].get(wire).is_some();
            let fixed: Map<String, Value> =
                serde_json::from_str(p.fixed).expect("`fixed` is a JSON object");
            let named = p.renames.iter().map(|(_, w)| w);
            let named = named.chain(p.hidden).chain(p.required);
            for wire in named.chain(p.describe.iter().map(|(w, _)| w)) {
                assert!(
                    has(wire),
                    "{}: `{}` has no parameter `{wire}`",
                    t.name,
                    p.action
                );
            }
            for wire in fixed.keys() {
                assert!(
                    has(wire),
                    "{}: `{}` has no parameter `{wire}`",
                    t.name,
                    p.action
                );
            }
            // What the tool leaves out, the command must do without.
            let required = params["required"].as_array().cloned().unwrap_or_default();
            for wire in p.hidden {
                assert!(!required.contains(&json!(wire)), "{}: `{wire}`", t.name);
            }
            for (note, _) in p.notes {
                assert!(!has(note), "{}: `{note}` is a parameter", t.name);
            }
        }
    }

    #[test]
    fn arguments_become_parameters_in_the_wire_s_names() {
        let drag = projection("browser_drag");
        let params = drag
            .params(json!({"startElement": "card", "startRef": "e1", "endRef": "#zone"}))
            .unwrap();
        assert_eq!(
            params,
            json!({"evidence": false, "wait": null, "source": "e1", "target": "#zone"})
        );
        // Playwright MCP's names are listed; our older ones (above) are still taken.
        let schema = drag.schema();
        assert_eq!(schema["required"], json!(["startTarget", "endTarget"]));
        assert!(schema["properties"].get("startRef").is_none());
        assert!(schema["properties"].get("steps").is_none());
        let params = drag.params(json!({"startTarget": "e1", "endTarget": "#zone"}));
        assert_eq!(params.unwrap()["source"], "e1");
        let e = drag
            .params(json!({"startRef": "e1", "steps": 3}))
            .unwrap_err();
        assert!(
            e.message
                .contains("unknown field `steps`, expected one of `startElement`"),
            "{}",
            e.message
        );
        let get = projection("browser_localstorage_get");
        assert_eq!(
            get.params(json!({"key": "k"})).unwrap(),
            json!({"area": "local", "showValues": true, "key": "k"})
        );
        assert!(
            get.params(Value::Null)
                .unwrap_err()
                .message
                .contains("`key`")
        );
        assert_eq!(get.schema()["properties"]["key"]["description"], "The key.");
        let e = projection("browser_hover")
            .params(json!({"target": "e1", "element": 5}))
            .unwrap_err();
        assert!(e.message.contains("`element`"), "{}", e.message);
    }

    #[test]
    fn protocol_messages_name_the_tool_s_arguments() {
        let hover = projection("browser_hover");
        assert_eq!(
            hover.in_tool_words("invalid parameter `ref`: empty; give a ref (`e3`)"),
            "invalid argument `target`: empty; give a ref (`e3`)"
        );
        let Some(Err(message)) = Command::from_parts("hover", json!({"evidence": false})) else {
            panic!("a missing ref is refused")
        };
        assert_eq!(
            hover.in_tool_words(&message),
            "invalid arguments: missing field `target`"
        );
        assert_eq!(expected(&[]), "there are no fields");
        assert_eq!(expected(&["a", "b"]), "expected `a` or `b`");
    }
}
