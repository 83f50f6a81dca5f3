//! Stable error codes carried in the response envelope's `code` field.

use serde::{Deserialize, Serialize};

macro_rules! error_codes {
    ($( $(#[doc = $doc:literal])* $variant:ident => $name:literal ),+ $(,)?) => {
        /// One stable, snake_case error code. The list is the contract: codes are added, never renamed.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $( $(#[doc = $doc])* $variant, )+
        }

        impl ErrorCode {
            /// Every code, in documentation order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),+];

            /// The wire spelling of this code.
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $name,)+ }
            }

            /// One-line meaning of this code, for the reference page.
            pub fn describe(self) -> &'static str {
                match self { $(ErrorCode::$variant => concat!($($doc),+).trim_ascii(),)+ }
            }
        }
    };
}

error_codes! {
    /// The request line is not valid JSON or not a JSON object.
    InvalidJson => "invalid_json",
    /// The `action` field names no known command.
    UnknownAction => "unknown_action",
    /// A parameter is missing, has the wrong type, or a value outside what is allowed.
    InvalidArgument => "invalid_argument",
    /// The command did not finish within its timeout.
    Timeout => "timeout",
    /// Chromium could not load the URL (its error text is in the message).
    NavigationFailed => "navigation_failed",
    /// JavaScript threw; the message carries the JavaScript error.
    JsError => "js_error",
    /// No Chromium executable was found.
    BrowserNotFound => "browser_not_found",
    /// The browser went away (closed, crashed or disconnected).
    BrowserClosed => "browser_closed",
    /// No tab has the given id, or the tab the command ran in is gone (closed by its page or elsewhere).
    TabNotFound => "tab_not_found",
    /// No frame of the tab has the given id, or the frame was detached (a navigation replaced it); `data` has `reason` (`not_found` or `detached`) and a few `candidates`. Nothing was done.
    FrameNotFound => "frame_not_found",
    /// The session is busy with another command and the wait for it timed out.
    SessionBusy => "session_busy",
    /// No element matched a selector.
    NotFound => "not_found",
    /// A selector or locator matched several elements (the message and `data` list the count and a few candidates); nothing was done.
    AmbiguousTarget => "ambiguous_target",
    /// The ref's element is gone or its document was replaced.
    StaleRef => "stale_ref",
    /// The ref id was never issued in this tab.
    UnknownRef => "unknown_ref",
    /// Another element covers the point where the action would land.
    ElementCovered => "element_covered",
    /// The element is disabled.
    ElementDisabled => "element_disabled",
    /// The element is not visible (no box, hidden, or zero size).
    ElementNotVisible => "element_not_visible",
    /// The element is still moving (an animation or transition of it or of a container runs), so the action waited and it never settled.
    ElementNotStable => "element_not_stable",
    /// The action cannot apply to this kind of element (for example fill on a button).
    ElementNotEditable => "element_not_editable",
    /// The action ran but the element did not reach the state it should have (for example still unchecked).
    ActionFailed => "action_failed",
    /// `drop` found no drop zone: the page did not cancel `dragover` on the element (nor is it an editable field that takes the data), so the browser fired no `drop` there when the drag let go, as for a user (the page saw the drag enter and move over it, perhaps leave); nothing was dropped.
    DropNotAccepted => "drop_not_accepted",
    /// The mutation happened, then the wait, after-snapshot or diff failed.
    ActionTransitionFailed => "action_transition_failed",
    /// A result over its size limit (an eval result); nothing was kept.
    ResultTooLarge => "result_too_large",
    /// A file could not be written (its path and the system's reason are in the message).
    IoError => "io_error",
    /// An HTTP fetch of `read` failed: no connection, TLS, a redirect loop, or an unreadable answer.
    FetchFailed => "fetch_failed",
    /// `read` found nothing of the kind asked for (no Markdown with `requireMarkdown`, a body that is not text).
    ContentUnavailable => "content_unavailable",
    /// A JavaScript `confirm` or `prompt` is open in the tab and blocks its page; answer it with `dialog accept [text]` or `dialog dismiss` (the error names its type and message).
    DialogOpen => "dialog_open",
    /// `dialog accept` or `dialog dismiss` found no dialog open in the active tab.
    NoDialog => "no_dialog",
    /// The active page cannot use the clipboard: it is not a secure context (https, localhost or 127.0.0.1), or the browser refused the clipboard.
    ClipboardUnavailable => "clipboard_unavailable",
    /// `a11y` found no copy of axe-core's `axe.min.js` (searched: `AGENTBROWSER_AXE_PATH`, `node_modules/axe-core` next to the binary and its parents and the working directory, `/usr/share/agentbrowser/axe.min.js`, `/usr/share/javascript/axe-core/axe.min.js`); install it with `npm install axe-core` (or run `scripts/setup.sh`) or set `AGENTBROWSER_AXE_PATH`.
    AxeNotFound => "axe_not_found",
    /// The persistent profile directory asked for is held by another running browser (its `SingletonLock`); the message names the directory and the holder's pid.
    ProfileInUse => "profile_in_use",
    /// A state file is encrypted and could not be decrypted: the key is wrong, or the file was changed or cut.
    StateDecryptFailed => "state_decrypt_failed",
    /// `network request ID` names no request of the log (never logged, cleared, or dropped from the bounded log); `network requests` lists the ids.
    RequestNotFound => "request_not_found",
    /// `network har stop` with no HAR recording running; `network har start` begins one.
    HarNotStarted => "har_not_started",
    /// `network har start` while a HAR recording runs; `network har stop [path]` writes it first.
    HarAlreadyStarted => "har_already_started",
    /// `profiler stop` with no profile running in the session's browser; `profiler start` begins one.
    ProfilerNotStarted => "profiler_not_started",
    /// `profiler start` while a profile (ours or another DevTools client's) traces the browser; `profiler stop [path]` writes ours first.
    ProfilerAlreadyStarted => "profiler_already_started",
    /// `record stop` or `record chapter` with no video being recorded; `record start PATH` begins one.
    RecordNotStarted => "record_not_started",
    /// `record start` while a video is being recorded; `record stop` finishes it first.
    RecordAlreadyStarted => "record_already_started",
    /// Recording a video needs `ffmpeg` on the daemon's PATH (Debian: `apt-get install ffmpeg`).
    FfmpegNotFound => "ffmpeg_not_found",
    /// `ffmpeg` failed to encode the video (its error output is in the message).
    RecordFailed => "record_failed",
    /// `trace stop` with no trace running in the session; `trace start` begins one.
    TraceNotStarted => "trace_not_started",
    /// `trace start` while a trace runs; `trace stop [path.zip]` writes it first.
    TraceAlreadyStarted => "trace_already_started",
    /// A command that never launches a browser (`get cdp-url`) found none running in the session; `open URL` starts one.
    NoBrowser => "no_browser",
    /// `doctor` found a failing check; each check says how to fix it.
    SetupBroken => "setup_broken",
    /// The session has allowed domains and the command names a host outside them (or a scheme that reaches no allowed host); the message names the host and the list. Nothing was done.
    DomainNotAllowed => "domain_not_allowed",
    /// The auth vault has no entry of that name; `auth list` lists them, `auth save` adds one.
    AuthNotFound => "auth_not_found",
    /// The auth vault needs an encryption key: set `AGENTBROWSER_ENCRYPTION_KEY` (64 hex characters, `openssl rand -hex 32`) for the session, or pass a key file.
    AuthKeyMissing => "auth_key_missing",
    /// `auth login` found the login fields changed under it (a field replaced, swapped for another element, or a password field that is not `type=password`); nothing was submitted.
    AuthFieldsChanged => "auth_fields_changed",
    /// `auth login` filled the fields but the form was not submitted (the submit click or Enter started no submission or navigation).
    AuthNotSubmitted => "auth_not_submitted",
    /// The session's action policy refuses this action (`deny` list, or not allowed); the message names the rule. Nothing was done.
    ActionDenied => "action_denied",
    /// The action policy asks a person first: nothing was done; `data` has the `confirmationId`, the action, its target (a ref's role and name) and when it expires. Answer with `confirm ID` or `deny ID`.
    ConfirmationRequired => "confirmation_required",
    /// `confirm` or `deny` with an id this session never issued (a typo, or another session's id).
    ConfirmationNotFound => "confirmation_not_found",
    /// `confirm` or `deny` with an id already confirmed, denied or refused: each pause is answered once.
    ConfirmationConsumed => "confirmation_consumed",
    /// `confirm` or `deny` after the confirmation's timeout: the paused action counted as denied and did not run.
    ConfirmationExpired => "confirmation_expired",
    /// The action policy file is missing, unreadable or not a valid policy (at launch, or when a confirmation re-read it); the message names the file and the fault.
    PolicyInvalid => "policy_invalid",
    /// `webmcp invoke` or `webmcp list TOOL` named a tool no frame of the page registered (or one its page removed); `webmcp list` shows the tools there are.
    WebmcpToolNotFound => "webmcp_tool_not_found",
    /// `webmcp invoke` input does not match the tool's input schema (the message says where and why); the page did not see it.
    WebmcpInvalidInput => "webmcp_invalid_input",
    /// `webmcp result` or `webmcp cancel` named an invocation this session does not know (never made, or dropped from the bounded history).
    WebmcpInvocationNotFound => "webmcp_invocation_not_found",
    /// `webmcp cancel` named an invocation that already finished (its status says how); nothing was canceled.
    WebmcpInvocationFinished => "webmcp_invocation_finished",
    /// Attaching to `--cdp`/`cdpUrl` failed before a browser answered: the endpoint refused the connection, its TLS certificate is not trusted (give `--ca-cert` for a private CA), or discovery (`/json/version`) answered an HTTP error, not JSON, or no `webSocketDebuggerUrl`; the message names the step. Nothing was launched locally.
    CdpConnectFailed => "cdp_connect_failed",
    /// The attach endpoint refused the credentials (HTTP 401 or 403 on discovery or on the WebSocket upgrade): check the token in the URL's query string or `--cdp-headers` (their values are never shown). Nothing was launched locally.
    CdpUnauthorized => "cdp_unauthorized",
    /// `get cdp-url` (and the Python SDK's `browser.cdp`) in a session attached to an endpoint with credentials or TLS (a grid): the daemon holds the only connection, as a second one may get another browser, and never hands out the endpoint's credentials.
    CdpUrlPrivate => "cdp_url_private",
    /// `notebook replay`: a cell that succeeded when the run was recorded failed now; the replay stopped there unless `--keep-going` (`data` names the cell, what the recording expected and what happened, and the cells not run).
    ReplayDiverged => "replay_diverged",
    /// A bug or an unexpected answer from Chromium.
    Internal => "internal",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
