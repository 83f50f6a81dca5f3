//! Files: `upload` sets files on a file input with CDP `DOM.setFileInputFiles` (a ref of the
//! input, or of the button or label standing for a hidden one), or answers the file chooser the
//! page opened (intercepted: see `events::files`), or cancels it. `drop` drops files and data
//! onto an element as if dragged from outside the page (see `actions::drops`). The files are checked before anything is
//! set, and the result reports what the input holds afterwards, as the page sees it.
//! `download` and `wait_download` wait for a download (see `events::downloads`) to complete and
//! move the file where it was asked to go.

use std::path::{Path, PathBuf};
use std::time::Duration;

use agentbrowser_protocol::{
    ActionOutput, ActionReport, DOWNLOAD_TIMEOUT_MS, DownloadOutput, DownloadParams, DropParams,
    ErrorCode, MouseButton, UploadParams, UploadedFile, WaitDownloadParams,
};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::actions;
use crate::cx::Cx;
use crate::error::{EngineError, Result};
use crate::events::Downloads;
use crate::events::downloads::{DownloadEntry, DownloadState};
use crate::page::Page;
use crate::refs::RefEntry;
use crate::refs::describe;
use crate::world::{self, ElementHandle, FrameTarget};

/// `upload`: set files on the input a ref stands for, or answer the pending file chooser.
pub(crate) async fn upload(p: UploadParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    let evidence = p.evidence.unwrap_or_default();
    match &p.target {
        Some(target) => {
            let (page, id) = crate::targets::target_page(cx, target).await?;
            let (id, entry) = crate::world::lookup(&page, &id)?;
            checked(&p.files, "upload", "set")?;
            let act = on_ref(&page, &id, &entry, &p.files);
            // Boxed: the dispatch future (on the caller's stack) stays as small as before.
            Box::pin(actions::run(
                &page,
                "upload",
                Some((&id, &entry)),
                p.wait,
                evidence,
                cx.limits,
                act,
            ))
            .await
        }
        None => {
            let page = cx.page().await?;
            checked(&p.files, "upload", "set")?;
            let Some(chooser) = page.choosers().peek() else {
                return Err(EngineError::invalid(if p.files.is_empty() {
                    "no file chooser is open in the active tab; nothing was cancelled (a click on \
                     a file input, or on what opens one, opens it)"
                } else {
                    "no file chooser is open in the active tab; nothing was set. Give the ref of \
                     the file input (or of its button or label), or first click what opens the chooser"
                }));
            };
            if p.files.is_empty() {
                let act = cancel_chooser(&page, chooser.backend_node_id);
                return Box::pin(actions::run(
                    &page, "upload", None, p.wait, evidence, cx.limits, act,
                ))
                .await;
            }
            if p.files.len() > 1 && !chooser.multiple {
                return Err(EngineError::invalid(format!(
                    "the open file chooser takes one file, not {}; nothing was set",
                    p.files.len()
                )));
            }
            let act = on_chooser(&page, chooser.backend_node_id, &p.files);
            Box::pin(actions::run(
                &page, "upload", None, p.wait, evidence, cx.limits, act,
            ))
            .await
        }
    }
}

/// Refuses the whole `action` (`upload`, `drop`) if any file is missing, not a regular file, or
/// unreadable; the message names the file and says nothing was `done` (set, dropped).
fn checked(files: &[String], action: &str, done: &str) -> Result<()> {
    for f in files {
        let path = Path::new(f);
        if !path.is_absolute() {
            return Err(EngineError::invalid(format!(
                "{f:?} is a relative path; give absolute paths; nothing was {done}"
            )));
        }
        let meta = std::fs::metadata(path).map_err(|e| {
            EngineError::invalid(format!("cannot {action} {f:?}: {e}; nothing was {done}"))
        })?;
        if !meta.is_file() {
            return Err(EngineError::invalid(format!(
                "cannot {action} {f:?}: it is not a regular file; nothing was {done}"
            )));
        }
        std::fs::File::open(path).map_err(|e| {
            EngineError::invalid(format!("cannot {action} {f:?}: {e}; nothing was {done}"))
        })?;
    }
    Ok(())
}

/// The drag operations a drag from outside the page allows: copy, link and move (CDP bits).
const OUTSIDE_OPERATIONS: i64 = 1 | 2 | 16;

/// `drop`: drop files and data onto the element a target names, as if dragged from outside the
/// page. The files are checked first (a missing one is named; nothing is dispatched); the
/// mechanics and their checks are in `actions::drops`.
pub(crate) async fn drop_onto(p: DropParams, cx: &mut Cx<'_>) -> Result<ActionOutput> {
    checked(&p.files, "drop", "dropped")?;
    let (page, id) = crate::targets::target_page(cx, &p.target).await?;
    let items: Vec<Value> = p
        .data
        .iter()
        .map(|(mime, data)| json!({"mimeType": mime, "data": data}))
        .collect();
    let data = json!({"items": items, "files": p.files, "dragOperationsMask": OUTSIDE_OPERATIONS});
    let evidence = p.evidence.unwrap_or_default();
    Box::pin(actions::drops::drop_onto(
        &page, &id, &data, &p.files, p.wait, evidence, cx.limits,
    ))
    .await
}

/// How long a cancelled chooser's input has to fire its `cancel` event.
const CANCEL_WAIT_MS: u64 = 5_000;

/// Cancels the open file chooser as a user's Cancel does, through the browser's own path: with
/// the interception set to cancel, the chooser is opened again on its input (`showPicker()`, with
/// the user activation a click gives) and the browser cancels it at once, so the input fires its
/// trusted `cancel` event (no `input`, no `change`) and keeps the files it held. A one-shot
/// listener confirms the event; the chooser is then no longer pending.
async fn cancel_chooser(page: &Page, backend_node_id: i64) -> Result<ActionReport> {
    let what = "the file input of the open file chooser";
    let node = page
        .session
        .call("DOM.resolveNode", json!({"backendNodeId": backend_node_id}))
        .await
        .map_err(|e| {
            EngineError::new(
                ErrorCode::StaleRef,
                format!("{what} is gone ({e}); nothing was cancelled"),
            )
        })?;
    let object_id = node
        .pointer("/object/objectId")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            EngineError::new(
                ErrorCode::StaleRef,
                format!("{what} is gone; nothing was cancelled"),
            )
        })?
        .to_string();
    const CANCEL_JS: &str = "function (ms) { const input = this; return new Promise((resolve) => { let done = false; \
        const finish = (v) => { if (!done) { done = true; input.removeEventListener('cancel', on, true); resolve(v); } }; \
        const on = (e) => { if (e.isTrusted) finish({ cancelled: true, files: Array.from(input.files, (f) => ({ name: f.name, size: f.size, type: f.type })) }); }; \
        input.addEventListener('cancel', on, true); \
        try { input.showPicker(); } catch (e) { finish({ cancelled: false, error: String(e && e.message || e) }); return; } \
        setTimeout(() => finish({ cancelled: false }), ms); }); }";
    let choosers = page.choosers();
    choosers.cancelling(Some(backend_node_id));
    page.session
        .call(
            "Page.setInterceptFileChooserDialog",
            json!({"enabled": true, "cancel": true}),
        )
        .await?;
    let r = page
        .session
        .call(
            "Runtime.callFunctionOn",
            json!({"functionDeclaration": CANCEL_JS, "objectId": object_id,
                   "arguments": [{"value": CANCEL_WAIT_MS}], "returnByValue": true,
                   "awaitPromise": true, "userGesture": true}),
        )
        .await;
    // Back to answering choosers, whatever happened.
    let restored = page
        .session
        .call(
            "Page.setInterceptFileChooserDialog",
            json!({"enabled": true}),
        )
        .await;
    let r = r?;
    restored?;
    let v = r.pointer("/result/value").cloned().unwrap_or(Value::Null);
    if v.get("cancelled").and_then(Value::as_bool) != Some(true) {
        choosers.cancelling(None);
        let why = match v.get("error").and_then(Value::as_str) {
            Some(e) => format!("the browser refused to reopen it to cancel it ({e})"),
            None => format!("its input fired no `cancel` event within {CANCEL_WAIT_MS} ms"),
        };
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            format!("could not cancel the open file chooser: {why}; it is still open"),
        ));
    }
    page.mark_delivered();
    choosers.take();
    let files: Vec<UploadedFile> = serde_json::from_value(v["files"].clone()).map_err(|e| {
        EngineError::internal(format!("the page's answer to the cancel is malformed: {e}"))
    })?;
    let n = files.len();
    Ok(ActionReport {
        note: Some(format!(
            "cancelled the file chooser, as a user's Cancel: its input fired `cancel` (no `change`) \
             and keeps the {n} file{} it held",
            if n == 1 { "" } else { "s" }
        )),
        files: Some(files),
        ..ActionReport::default()
    })
}

async fn on_ref(page: &Page, id: &str, entry: &RefEntry, files: &[String]) -> Result<ActionReport> {
    let what = describe(id, entry);
    let el = world::resolve(page, id, entry).await?;
    let input = match world::element_op_handle(&el, "fileInput", Value::Null).await? {
        Ok(input) => input,
        Err(failure) if failure.code == "no_file_input" => {
            return Err(EngineError::new(
                ErrorCode::ElementNotEditable,
                format!(
                    "cannot upload to {what}: it is not a file input, nor a label of one, and no \
                     file input is inside it or inside its 3 nearest ancestors; nothing was set"
                ),
            ));
        }
        Err(failure) if failure.code == "ambiguous_file_input" => {
            return Err(EngineError::invalid(format!(
                "{what} stands for several file inputs ({}); give the ref of the input itself, \
                 or of its label; nothing was set",
                failure
                    .detail
                    .get("candidates")
                    .and_then(Value::as_array)
                    .map(|a| a
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            ))
            .with_data(json!({"candidates": failure.detail.get("candidates")})));
        }
        Err(failure) => return Err(failure.into_error(&what)),
    };
    #[derive(serde::Deserialize)]
    struct InputState {
        multiple: bool,
        disabled: bool,
    }
    let state: InputState =
        serde_json::from_value(world::element_op(&input, "fileState", Value::Null, &what).await?)
            .map_err(|e| {
            EngineError::internal(format!(
                "the page's answer to `fileState` is malformed: {e}"
            ))
        })?;
    if state.disabled {
        return Err(EngineError::new(
            ErrorCode::ElementDisabled,
            format!("the file input of {what} is disabled; nothing was set"),
        ));
    }
    if files.len() > 1 && !state.multiple {
        return Err(EngineError::invalid(format!(
            "the file input of {what} takes one file (it has no `multiple` attribute), not {}; \
             nothing was set",
            files.len()
        )));
    }
    input
        .frame
        .session
        .call(
            "DOM.setFileInputFiles",
            json!({"files": files, "objectId": input.object_id}),
        )
        .await?;
    held(&input, &what, files).await
}

async fn on_chooser(page: &Page, backend_node_id: i64, files: &[String]) -> Result<ActionReport> {
    let what = "the file input of the open file chooser";
    page.session
        .call(
            "DOM.setFileInputFiles",
            json!({"files": files, "backendNodeId": backend_node_id}),
        )
        .await
        .map_err(|e| {
            EngineError::new(
                ErrorCode::StaleRef,
                format!("{what} is gone ({e}); nothing was set"),
            )
        })?;
    page.choosers().take();
    let node = page
        .session
        .call("DOM.resolveNode", json!({"backendNodeId": backend_node_id}))
        .await?;
    let object_id = node
        .pointer("/object/objectId")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::new(ErrorCode::StaleRef, format!("{what} is gone")))?
        .to_string();
    let input = ElementHandle {
        object_id,
        frame: FrameTarget::main(page),
    };
    held(&input, what, files).await
}

/// Checks that `got` (what an input holds, or what a drop carried) are the files given, by
/// name and in order; else `action_failed` with `message(got, wanted)` (their names).
pub(crate) fn same_files(
    got: &[UploadedFile],
    files: &[String],
    message: impl FnOnce(&[String], &[String]) -> String,
) -> Result<()> {
    let wanted: Vec<String> = files
        .iter()
        .map(|f| {
            Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let got: Vec<String> = got.iter().map(|f| f.name.clone()).collect();
    if got != wanted {
        return Err(EngineError::new(
            ErrorCode::ActionFailed,
            message(&got, &wanted),
        ));
    }
    Ok(())
}

/// What the input holds after the files were set, checked against the files given.
async fn held(input: &ElementHandle, what: &str, files: &[String]) -> Result<ActionReport> {
    let now: Vec<UploadedFile> =
        serde_json::from_value(world::element_op(input, "files", Value::Null, what).await?)
            .map_err(|e| {
                EngineError::internal(format!("the page's answer to `files` is malformed: {e}"))
            })?;
    same_files(&now, files, |got, wanted| {
        format!(
            "set the files of {what}, but it holds {got:?} instead of {wanted:?} (the page may \
             have reset it)"
        )
    })?;
    Ok(ActionReport {
        files: Some(now),
        ..ActionReport::default()
    })
}

/// `download`: click a ref that starts a download, wait for it to complete, move it to `path`.
pub(crate) async fn download(p: DownloadParams, cx: &mut Cx<'_>) -> Result<DownloadOutput> {
    let deadline = wait_deadline(cx, p.timeout_ms);
    let (page, id) = crate::targets::target_page(cx, &p.target).await?;
    let (id, entry) = crate::world::lookup(&page, &id)?;
    let what = describe(&id, &entry);
    let downloads = session_downloads(cx).await?;
    let from = downloads.cursor();
    let click = actions::Mutation::Click {
        button: MouseButton::Left,
        count: 1,
        new_tab: false,
        modifiers: 0,
    };
    // The click's own settling (a link's navigation turning into the download) counts against
    // the download's time too.
    let limits = crate::cx::Limits {
        deadline,
        actionable: cx.limits.actionable.min(deadline),
    };
    let started = format!("a download to start after clicking {what}");
    match Box::pin(actions::mutate(
        &page,
        &id,
        click,
        None,
        agentbrowser_protocol::Evidence::Off,
        limits,
    ))
    .await
    {
        Ok(_) => {}
        Err(e)
            if Instant::now() >= deadline
                && matches!(
                    e.code,
                    ErrorCode::ActionTransitionFailed | ErrorCode::Timeout
                ) =>
        {
            return Err(EngineError::new(
                ErrorCode::Timeout,
                format!(
                    "timed out waiting for {started} ({}); nothing was saved. Give a longer \
                     `--timeout-ms` if it is slow",
                    e.message
                ),
            ));
        }
        Err(e) => return Err(e),
    }
    Box::pin(complete(
        &downloads,
        from,
        Some(&p.path),
        deadline,
        &started,
    ))
    .await
}

/// `wait_download`: wait for the next download (or an already complete one nobody claimed).
pub(crate) async fn wait_download(
    p: WaitDownloadParams,
    cx: &mut Cx<'_>,
) -> Result<DownloadOutput> {
    let deadline = wait_deadline(cx, p.timeout_ms);
    let downloads = session_downloads(cx).await?;
    Box::pin(complete(
        &downloads,
        0,
        p.path.as_deref(),
        deadline,
        "a download",
    ))
    .await
}

fn wait_deadline(cx: &Cx<'_>, timeout_ms: Option<u64>) -> Instant {
    let ms = timeout_ms.unwrap_or(DOWNLOAD_TIMEOUT_MS);
    cx.limits
        .deadline
        .min(Instant::now() + Duration::from_millis(ms))
}

async fn session_downloads(cx: &mut Cx<'_>) -> Result<Downloads> {
    cx.browser()
        .await?
        .part::<Downloads>()
        .cloned()
        .ok_or_else(|| EngineError::internal("downloads are not enabled in this browser"))
}

/// Downloads' part of a browser the session starts: every download of the browser (all tabs)
/// is saved in the session's download directory (a `launch`'s `downloadPath`), under its guid,
/// and followed (`Browser.setDownloadBehavior` with `allowAndName`); one the action policy
/// denies is cancelled as it begins.
pub(crate) fn on_launch<'a>(
    browser: &'a mut crate::browser::Browser,
    engine: &'a crate::session::Engine,
    launch: Option<&'a agentbrowser_protocol::LaunchParams>,
) -> futures::future::BoxFuture<'a, Result<()>> {
    Box::pin(async move {
        let dir = engine.download_dir(launch.and_then(|p| p.download_path.as_deref()));
        std::fs::create_dir_all(&dir).map_err(|e| {
            EngineError::new(
                ErrorCode::IoError,
                format!(
                    "cannot create the download directory {}: {e}",
                    dir.display()
                ),
            )
        })?;
        let mut downloads = Downloads::new(dir.clone());
        let gate = engine.part::<crate::safety::Safety>().gate.clone();
        downloads.gate = Some((browser.cdp.clone(), std::sync::Arc::new(gate)));
        let listener = crate::events::downloads::DownloadEvents(downloads.clone());
        let traced =
            crate::recorder::DownloadTrace::new(engine.part::<crate::recorder::Board>().clone());
        tokio::spawn(
            crate::events::Listeners::of(vec![Box::new(listener), Box::new(traced)])
                .pump(browser.cdp.events()),
        );
        browser
            .cdp
            .call(
                "Browser.setDownloadBehavior",
                json!({
                    "behavior": "allowAndName",
                    "downloadPath": dir.to_string_lossy(),
                    "eventsEnabled": true,
                }),
            )
            .await?;
        browser.parts.insert(downloads);
        Ok(())
    })
}

/// Waits for the oldest unclaimed download numbered `from` or later to complete, claims it and
/// moves it to `path` (or next to itself under its suggested filename).
async fn complete(
    downloads: &Downloads,
    from: u64,
    path: Option<&str>,
    deadline: Instant,
    waiting_for: &str,
) -> Result<DownloadOutput> {
    let mut changes = downloads.watch();
    loop {
        changes.borrow_and_update();
        let entry = downloads.first_unclaimed(from);
        if let Some(e) = &entry {
            match &e.state {
                DownloadState::Completed { file } => {
                    downloads.claim(e.seq);
                    return land(downloads, e, file, path);
                }
                DownloadState::Canceled if e.denied_by.is_some() => {
                    downloads.claim(e.seq);
                    return Err(EngineError::new(
                        ErrorCode::ActionDenied,
                        format!(
                            "the download of {:?} from {} was cancelled as it began: the action \
                             policy refuses it (rule {}); no file was saved",
                            e.suggested_filename,
                            e.url,
                            e.denied_by.as_deref().unwrap_or_default()
                        ),
                    ));
                }
                DownloadState::Canceled => {
                    downloads.claim(e.seq);
                    return Err(EngineError::new(
                        ErrorCode::ActionFailed,
                        format!(
                            "the download of {:?} from {} was canceled or failed (a network \
                             error, or the page or server aborted it); no file was saved",
                            e.suggested_filename, e.url
                        ),
                    ));
                }
                DownloadState::InProgress { .. } => {}
            }
        }
        if tokio::time::timeout_at(deadline, changes.changed())
            .await
            .is_err()
        {
            let why = match entry {
                Some(DownloadEntry {
                    suggested_filename,
                    state: DownloadState::InProgress { received, total },
                    ..
                }) => format!(
                    "the download of {suggested_filename:?} did not complete in time ({received} of {} bytes received)",
                    if total > 0 {
                        total.to_string()
                    } else {
                        "an unknown number of".to_string()
                    }
                ),
                _ => format!("timed out waiting for {waiting_for}"),
            };
            return Err(EngineError::new(
                ErrorCode::Timeout,
                format!("{why}; nothing was saved. Give a longer `--timeout-ms` if it is slow"),
            ));
        }
    }
}

/// Moves the complete file `file` of `e` to where it was asked to go.
fn land(
    downloads: &Downloads,
    e: &DownloadEntry,
    file: &Path,
    path: Option<&str>,
) -> Result<DownloadOutput> {
    let name = safe_name(&e.suggested_filename, &e.guid);
    let dest: PathBuf = match path {
        Some(p) if Path::new(p).is_dir() => Path::new(p).join(&name),
        Some(p) => PathBuf::from(p),
        None => free_name(&downloads.dir, &name),
    };
    // Whole or not at all, faults as `io_error` naming `dest` (no directory is created).
    let size = crate::output_file::place(file, &dest, Default::default())?;
    Ok(DownloadOutput {
        path: std::path::absolute(&dest)
            .unwrap_or(dest)
            .to_string_lossy()
            .into_owned(),
        suggested_filename: e.suggested_filename.clone(),
        size,
        url: e.url.clone(),
        mime_type: None,
    })
}

/// The suggested filename as one path component (never a directory or `..`).
fn safe_name(suggested: &str, guid: &str) -> String {
    let name = Path::new(suggested)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty() || name == ".." {
        format!("download-{guid}")
    } else {
        name
    }
}

/// `name` in `dir`, or `stem (2).ext`, ... when taken.
fn free_name(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let p = Path::new(name);
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = p
        .extension()
        .map(|s| format!(".{}", s.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|n| dir.join(format!("{stem} ({n}){ext}")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

/// This module's command handlers under their commands' variant names: `handlers::dispatch` runs
/// them (a handler added here is dispatched with no other line).
pub(crate) mod handles {
    pub(crate) use super::{
        download as Download, drop_onto as Drop, upload as Upload, wait_download as WaitDownload,
    };
}
