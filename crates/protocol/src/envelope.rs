//! The request line and the response envelope every front end speaks.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::codes::ErrorCode;
use crate::commands::Command;
use crate::validate::Checked;

/// One request: an optional caller id, an optional timeout and the command. A front end builds
/// a `Request` (its command unchecked) to send; parsing one gives a [`CheckedRequest`], which
/// is what the engine runs.
#[derive(Debug, Clone)]
pub struct Request<C = Command> {
    /// Caller-chosen id echoed in the response (string or number).
    pub id: Value,
    /// Timeout for the whole command in milliseconds (non-negative).
    pub timeout_ms: Option<u64>,
    /// The command to run.
    pub command: C,
    /// Scope: the tab (`tN` id or label) this one command runs in, without making it active.
    pub tab: Option<String>,
    /// Scope: the frame (an id from `frames`) this one command runs in.
    pub frame: Option<String>,
}

/// A request whose command passed its parameters' checks ([`Checked`]): parsed from the wire, or
/// built in Rust and checked ([`Request::check`]).
pub type CheckedRequest = Request<Checked>;

/// A request the engine can run: one parsed (checked already) or one built in Rust (checked on
/// its way in, once).
pub trait IntoChecked {
    /// The request's command, checked or not.
    fn command(&self) -> &Command;

    /// The request checked, or the failure (`invalid_argument`) that answers it.
    fn into_checked(self) -> Result<CheckedRequest, Box<RequestError>>;
}

impl IntoChecked for Request {
    fn command(&self) -> &Command {
        &self.command
    }

    fn into_checked(self) -> Result<CheckedRequest, Box<RequestError>> {
        self.check()
    }
}

impl IntoChecked for CheckedRequest {
    fn command(&self) -> &Command {
        &self.command
    }

    fn into_checked(self) -> Result<CheckedRequest, Box<RequestError>> {
        Ok(self)
    }
}

/// A request that could not be parsed, with the envelope to answer it with.
#[derive(Debug, Clone)]
pub struct RequestError {
    /// Id of the request when it could be read, else null.
    pub id: Value,
    /// Action name when it could be read.
    pub action: Option<String>,
    /// Why the request was refused.
    pub code: ErrorCode,
    /// Message naming the field, the value and what is allowed.
    pub message: String,
}

impl RequestError {
    /// Turns this parse failure into the response envelope that answers it.
    pub fn into_response(self) -> Response {
        Response::failure(
            self.id,
            self.action.unwrap_or_default(),
            self.code,
            self.message,
        )
    }
}

/// Longest timeout a request may set, in milliseconds (24 hours).
pub const MAX_TIMEOUT_MS: u64 = 86_400_000;

/// What a session name may be: 1 to 64 of A-Z, a-z, 0-9, `_` and `-` (the CLI checks it).
pub const SESSION_NAME_PATTERN: &str = "^[A-Za-z0-9_-]{1,64}$";

/// Longest error message sent (it may quote input: a 10 MB URL is not echoed whole).
pub const MAX_MESSAGE: usize = 2048;

/// `s` cut to at most `max` bytes at a character boundary, saying how long it was.
pub fn bounded(s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… (cut at {max} of {} bytes)", &s[..cut], s.len())
}

impl Request {
    /// This request with its command checked, or the failure (`invalid_argument`) that answers
    /// it, worded as the parser words it.
    pub fn check(self) -> Result<CheckedRequest, Box<RequestError>> {
        let Request {
            id,
            timeout_ms,
            command,
            tab,
            frame,
        } = self;
        let action = command.action();
        match Checked::new(command) {
            Ok(command) => Ok(Request {
                id,
                timeout_ms,
                command,
                tab,
                frame,
            }),
            Err(message) => Err(Box::new(RequestError {
                id,
                action: Some(action.to_string()),
                code: ErrorCode::InvalidArgument,
                message,
            })),
        }
    }
}

impl CheckedRequest {
    /// Parses one JSON line into a request, or the coded error that answers it.
    pub fn parse_line(line: &str) -> Result<CheckedRequest, Box<RequestError>> {
        let value: Value = crate::strict::parse(line).map_err(|e| {
            Box::new(RequestError {
                id: Value::Null,
                action: None,
                code: ErrorCode::InvalidJson,
                message: format!("invalid JSON: {e}"),
            })
        })?;
        Request::from_value(value)
    }

    /// Parses an already decoded JSON value into a request.
    pub fn from_value(value: Value) -> Result<CheckedRequest, Box<RequestError>> {
        let Value::Object(mut map) = value else {
            return Err(Box::new(RequestError {
                id: Value::Null,
                action: None,
                code: ErrorCode::InvalidJson,
                message: "a request must be a JSON object like {\"action\": \"title\"}".into(),
            }));
        };
        let id = map.remove("id").unwrap_or(Value::Null);
        let fail = |action: Option<String>, code, message: String| {
            Box::new(RequestError {
                id: id.clone(),
                action,
                code,
                message,
            })
        };
        let action = match map.remove("action") {
            Some(Value::String(a)) => a,
            Some(other) => {
                return Err(fail(
                    None,
                    ErrorCode::InvalidArgument,
                    format!("field `action` must be a string, got {other}"),
                ));
            }
            None => {
                return Err(fail(
                    None,
                    ErrorCode::InvalidArgument,
                    "missing field `action`".into(),
                ));
            }
        };
        let timeout_ms = match map.remove("timeout") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.as_u64().is_some_and(|t| t <= MAX_TIMEOUT_MS) => n.as_u64(),
            Some(Value::Number(n)) if n.as_u64().is_some() => {
                return Err(fail(
                    Some(action),
                    ErrorCode::InvalidArgument,
                    format!(
                        "field `timeout` is {n} ms, out of range; use 0 to {MAX_TIMEOUT_MS} ms (24 hours)"
                    ),
                ));
            }
            Some(other) => {
                return Err(fail(
                    Some(action),
                    ErrorCode::InvalidArgument,
                    format!(
                        "field `timeout` must be a non-negative integer of milliseconds, got {other}"
                    ),
                ));
            }
        };
        // A command can take `tab` as its own parameter (the tab it acts on: `tab_switch`).
        let tab = if Command::facts_of(&action).is_some_and(|f| f.tab_param) {
            None
        } else {
            match scope_field(&mut map, "tab") {
                Ok(t) => t,
                Err(m) => return Err(fail(Some(action), ErrorCode::InvalidArgument, m)),
            }
        };
        let frame = match scope_field(&mut map, "frame") {
            Ok(f) => f,
            Err(m) => return Err(fail(Some(action), ErrorCode::InvalidArgument, m)),
        };
        match Command::parse(&action, Value::Object(map)) {
            None => Err(fail(
                Some(action.clone()),
                ErrorCode::UnknownAction,
                format!(
                    "unknown action `{action}`; known actions: {}",
                    Command::ACTIONS.join(", ")
                ),
            )),
            Some(Err(message)) => Err(fail(Some(action), ErrorCode::InvalidArgument, message)),
            Some(Ok(command)) => Ok(Request {
                id,
                timeout_ms,
                command,
                tab,
                frame,
            }),
        }
    }

    /// This request, its command no longer marked as checked.
    pub fn unchecked(self) -> Request {
        Request {
            id: self.id,
            timeout_ms: self.timeout_ms,
            command: self.command.into_inner(),
            tab: self.tab,
            frame: self.frame,
        }
    }
}

impl<C: Serialize> Request<C> {
    /// Serializes this request back to its wire form.
    pub fn to_value(&self) -> Value {
        let mut value = serde_json::to_value(&self.command).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            if !self.id.is_null() {
                map.insert("id".into(), self.id.clone());
            }
            if let Some(t) = self.timeout_ms {
                map.insert("timeout".into(), t.into());
            }
            if let Some(t) = &self.tab {
                map.insert("tab".into(), t.clone().into());
            }
            if let Some(f) = &self.frame {
                map.insert("frame".into(), f.clone().into());
            }
        }
        value
    }
}

/// Takes the optional scope field `key` (a non-empty string of at most 256 bytes) out of a request.
fn scope_field(map: &mut Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() && s.len() <= 256 => Ok(Some(s)),
        Some(other) => Err(format!(
            "envelope field `{key}` must be a non-empty string of at most 256 bytes (a {}), got {}",
            if key == "tab" {
                "tab id such as `t2` or a tab label"
            } else {
                "frame id from `frames`"
            },
            bounded(other.to_string(), 80)
        )),
    }
}

/// The response envelope: `{id, action, success, data, error, code, warning}`. Its `data` is a
/// JSON value (`D = Value`), or JSON text already written (`D = Box<RawValue>`, how the daemon
/// sends large typed results without building a value first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response<D = Value> {
    /// The request's id, echoed.
    #[serde(default)]
    pub id: Value,
    /// The request's action, echoed.
    #[serde(default)]
    pub action: String,
    /// Whether the command succeeded.
    pub success: bool,
    /// Result data on success; structured details (if any) on failure.
    #[serde(default)]
    pub data: D,
    /// Human-readable error message on failure.
    #[serde(default)]
    pub error: Option<String>,
    /// Stable error code on failure.
    #[serde(default)]
    pub code: Option<ErrorCode>,
    /// A non-fatal note about the result (for example a truncation).
    #[serde(default)]
    pub warning: Option<String>,
    /// With content boundaries on, for an answer of page content: the nonce and origin its
    /// text is wrapped with (every string in `data` has the marker word neutralised).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary: Option<crate::boundary::Boundary>,
    /// With a maximum output size: the size and how many characters of `data` were cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<crate::boundary::OutputLimit>,
}

impl Response {
    /// A failed envelope with a code and a message.
    pub fn failure(
        id: Value,
        action: impl Into<String>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Response {
        let action: String = action.into();
        Response {
            id,
            action: bounded(action, 64),
            success: false,
            data: Value::Null,
            error: Some(bounded(message.into(), MAX_MESSAGE)),
            code: Some(code),
            warning: None,
            boundary: None,
            limit: None,
        }
    }

    /// Parses a response line (data may nest however deeply).
    pub fn parse_line(line: &str) -> Result<Response, serde_json::Error> {
        crate::strict::parse_deep(line)
    }
}

impl<D> Response<D> {
    /// A successful envelope carrying `data`.
    pub fn success(id: Value, action: impl Into<String>, data: D) -> Response<D> {
        Response {
            id,
            action: action.into(),
            success: true,
            data,
            error: None,
            code: None,
            warning: None,
            boundary: None,
            limit: None,
        }
    }

    /// This envelope with its data replaced by `f(data)`.
    pub fn map_data<E>(self, f: impl FnOnce(D) -> E) -> Response<E> {
        Response {
            id: self.id,
            action: self.action,
            success: self.success,
            data: f(self.data),
            error: self.error,
            code: self.code,
            warning: self.warning,
            boundary: self.boundary,
            limit: self.limit,
        }
    }
}

impl<D: Serialize> Response<D> {
    /// Serializes this envelope as one JSON line (without the newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                "{{\"id\":null,\"action\":\"\",\"success\":false,\"data\":null,\"error\":\"response not serializable: {e}\",\"code\":\"internal\",\"warning\":null}}"
            )
        })
    }
}

/// Builds a JSON object from key/value pairs; a small helper for response data.
pub fn object<I, K>(pairs: I) -> Value
where
    I: IntoIterator<Item = (K, Value)>,
    K: Into<String>,
{
    Value::Object(
        pairs
            .into_iter()
            .map(|(k, v)| (k.into(), v))
            .collect::<Map<_, _>>(),
    )
}
