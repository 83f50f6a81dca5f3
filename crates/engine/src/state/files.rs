//! State files: `state_save` / `state_load` (Playwright's storageState shape: `cookies` and
//! `origins[{origin, localStorage[{name, value}]}]`) and the state directory's `state_list`,
//! `state_show`, `state_rename`, `state_clear`, `state_clean`. `save_state` and `load_state`
//! are what a restore or an autosave calls.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use agentbrowser_protocol::{
    CookieInfo, CookieName, IndexedDbSummary, OriginSummary, STATE_INDEXED_DB_MAX_BYTES,
    SkippedOrigin, StateCleanParams, StateClearParams, StateFileInfo, StateFileParams,
    StateListOutput, StateListParams, StateLoaded, StateRemoved, StateRenameParams, StateRenamed,
    StateSaveParams, StateSaved, StateShowOutput, StorageEntry,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::indexed_db::Database;
use super::scratch::Scratch;
use super::store;
use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// Most files `state_list` returns.
const MAX_LIST: usize = 1000;
/// Largest document `state_show` returns whole.
const MAX_SHOW_BYTES: usize = 1 << 20;

/// A state file's document (Playwright's storageState).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct StateDoc {
    cookies: Vec<Value>,
    #[serde(default)]
    origins: Vec<OriginDoc>,
}

/// One origin of a state file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OriginDoc {
    origin: String,
    #[serde(default)]
    local_storage: Vec<StorageEntry>,
    #[serde(rename = "indexedDB", default, skip_serializing_if = "Vec::is_empty")]
    indexed_db: Vec<Database>,
}

/// Test hook: a smaller IndexedDB limit of a save, in bytes (so a test can see the cut).
const IDB_MAX_VAR: &str = "AGENTBROWSER_TEST_INDEXED_DB_MAX_BYTES";

/// The IndexedDB byte limit of one save.
fn indexed_db_budget() -> u64 {
    std::env::var(IDB_MAX_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(STATE_INDEXED_DB_MAX_BYTES)
}

/// The summaries of the IndexedDB databases of `origins`.
fn idb_summaries(origins: &[OriginDoc]) -> Vec<IndexedDbSummary> {
    origins
        .iter()
        .flat_map(|o| o.indexed_db.iter().map(|d| d.summary(&o.origin)))
        .collect()
}

/// A cookie in Playwright's shape (`expires` -1 for a session cookie, `sameSite` always set).
fn playwright_cookie(c: &CookieInfo) -> Value {
    json!({
        "name": c.name, "value": c.value, "domain": c.domain, "path": c.path,
        "expires": c.expires, "httpOnly": c.http_only, "secure": c.secure,
        "sameSite": c.same_site.map_or("Lax", |s| s.as_str()),
    })
}

/// Parses a file's document as a state document.
fn parse_doc(doc: Value, path: &Path) -> Result<StateDoc> {
    serde_json::from_value(doc).map_err(|e| {
        EngineError::invalid(format!(
            "{} is not a storageState file ({{\"cookies\": [...], \"origins\": [{{\"origin\", \"localStorage\": [{{\"name\", \"value\"}}]}}]}}): {e}",
            path.display()
        ))
    })
}

/// The file a `path` parameter names (default: the session's name in the state directory),
/// with the state directory created when the file goes there.
fn target(path: Option<&str>, session: &str) -> Result<PathBuf> {
    let name = match path {
        Some(p) => p.to_string(),
        None if session.is_empty() => "default".into(),
        None => session.to_string(),
    };
    let file = store::resolve(&name);
    if !name.starts_with('/') {
        store::ensure_dir(&store::state_dir())?;
    }
    Ok(file)
}

/// Saves the session's cookies and the localStorage (and with `indexed_db` the IndexedDB) of
/// every origin it visited to `path` (encrypted when a key is given or set), atomically. What a
/// restore's autosave calls.
pub(crate) async fn save_state(
    cx: &mut Cx<'_>,
    path: &Path,
    key_file: Option<&str>,
    indexed_db: bool,
    deadline: Instant,
) -> Result<StateSaved> {
    let key = store::key(key_file)?;
    let browser = cx.browser().await?;
    let cookies = super::all_cookies(browser).await?;
    for (_, info) in browser.sync_tabs().await? {
        super::remember(cx.engine.part::<crate::state::Origins>(), &info.url);
    }
    let origins: Vec<String> = cx
        .engine
        .part::<crate::state::Origins>()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .cloned()
        .collect();
    let browser = cx.browser().await?;
    let mut docs = vec![];
    let mut skipped = vec![];
    let mut idb_notes = vec![];
    let mut budget = indexed_db_budget();
    if !origins.is_empty() {
        let scratch = Scratch::open(browser).await?;
        for origin in &origins {
            let until = deadline.min(Instant::now() + Duration::from_secs(10));
            let local = match scratch.visit(origin, until).await {
                Ok(()) => scratch.read_local().await.map_err(|e| e.to_string()),
                Err(reason) => Err(reason),
            };
            let local = match local {
                Ok(l) => l,
                Err(reason) => {
                    skipped.push(SkippedOrigin {
                        origin: origin.clone(),
                        reason,
                    });
                    continue;
                }
            };
            let mut dbs = vec![];
            if indexed_db {
                match scratch.read_indexed_db(budget).await {
                    Ok((d, notes, used)) => {
                        budget = budget.saturating_sub(used);
                        idb_notes.extend(notes.into_iter().map(|n| format!("{origin}: {n}")));
                        dbs = d;
                    }
                    Err(e) => idb_notes.push(format!("{origin}: IndexedDB not saved: {e}")),
                }
            }
            if !local.is_empty() || !dbs.is_empty() {
                docs.push(OriginDoc {
                    origin: origin.clone(),
                    local_storage: local,
                    indexed_db: dbs,
                });
            }
        }
        scratch.close(browser).await;
    }
    let doc = StateDoc {
        cookies: cookies.iter().map(playwright_cookie).collect(),
        origins: docs,
    };
    let text = serde_json::to_vec_pretty(&doc)
        .map_err(|e| EngineError::internal(format!("cannot encode the state: {e}")))?;
    let bytes = match &key {
        Some(k) => store::encrypt(k, &text)?,
        None => text,
    };
    store::write_atomic(path, &bytes)?;
    for s in &skipped {
        crate::warnings::note(format!("skipped {}: {}", s.origin, s.reason));
    }
    for n in &idb_notes {
        crate::warnings::note(n.clone());
    }
    Ok(StateSaved {
        path: path.display().to_string(),
        encrypted: key.is_some(),
        bytes: bytes.len() as u64,
        cookies: cookies.len() as u64,
        origins: doc.origins.iter().map(|o| o.origin.clone()).collect(),
        skipped_origins: skipped,
        indexed_db: idb_summaries(&doc.origins),
        indexed_db_notes: idb_notes,
    })
}

/// Loads a state file: its cookies at once, its localStorage and IndexedDB into each origin
/// (through the scratch tab, so tabs opened later and tabs already there see it; a database of
/// the file replaces the origin's database of its name). What a restore calls.
pub(crate) async fn load_state(
    cx: &mut Cx<'_>,
    path: &Path,
    key_file: Option<&str>,
    deadline: Instant,
) -> Result<StateLoaded> {
    let (doc, encrypted) = store::read(path, key_file)?;
    let doc = parse_doc(doc, path)?;
    let cookies = doc
        .cookies
        .iter()
        .enumerate()
        .map(|(i, c)| {
            super::cookie_files::json_cookie(c).map_err(|m| {
                EngineError::invalid(format!(
                    "{}: cookie {} (index {i}): {m}",
                    path.display(),
                    i + 1
                ))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    crate::domains::commands::check_state(
        cx.engine.part::<crate::domains::Guard>(),
        doc.origins.iter().map(|o| o.origin.as_str()),
        &cookies,
    )?;
    let browser = cx.browser().await?;
    if !cookies.is_empty() {
        super::set_cookies(browser, &cookies).await?;
    }
    let mut written = vec![];
    let mut skipped = vec![];
    let mut idb_written = vec![];
    let mut idb_notes = vec![];
    let origins: Vec<&OriginDoc> = doc
        .origins
        .iter()
        .filter(|o| !o.local_storage.is_empty() || !o.indexed_db.is_empty())
        .collect();
    if !origins.is_empty() {
        let scratch = Scratch::open(browser).await?;
        for o in origins {
            if super::origin_of(&o.origin).as_deref() != Some(o.origin.trim_end_matches('/')) {
                skipped.push(SkippedOrigin {
                    origin: o.origin.clone(),
                    reason: "not an http(s) origin".into(),
                });
                continue;
            }
            let until = deadline.min(Instant::now() + Duration::from_secs(10));
            let origin = o.origin.trim_end_matches('/');
            let local = match scratch.visit(origin, until).await {
                Ok(()) => scratch
                    .write_local(&o.local_storage)
                    .await
                    .map_err(|e| e.to_string()),
                Err(reason) => Err(reason),
            };
            if let Err(reason) = local {
                skipped.push(SkippedOrigin {
                    origin: o.origin.clone(),
                    reason,
                });
                continue;
            }
            written.push(origin.to_string());
            if o.indexed_db.is_empty() {
                continue;
            }
            match scratch.write_indexed_db(&o.indexed_db).await {
                Ok(()) => idb_written.extend(o.indexed_db.iter().map(|d| d.summary(origin))),
                Err(e) => idb_notes.push(format!("{origin}: IndexedDB not written: {e}")),
            }
        }
        scratch.close(cx.browser().await?).await;
    }
    for o in &written {
        super::remember(cx.engine.part::<crate::state::Origins>(), o);
    }
    for s in &skipped {
        crate::warnings::note(format!("skipped {}: {}", s.origin, s.reason));
    }
    for n in &idb_notes {
        crate::warnings::note(n.clone());
    }
    Ok(StateLoaded {
        path: path.display().to_string(),
        encrypted,
        cookies: cookies.len() as u64,
        origins: written,
        skipped_origins: skipped,
        indexed_db: idb_written,
        indexed_db_notes: idb_notes,
    })
}

/// `state_save`.
pub(crate) async fn state_save(p: StateSaveParams, cx: &mut Cx<'_>) -> Result<StateSaved> {
    let path = target(p.path.as_deref(), &cx.engine.info.name)?;
    let deadline = cx.limits.deadline;
    save_state(
        cx,
        &path,
        p.key_file.as_deref(),
        p.indexed_db.unwrap_or(true),
        deadline,
    )
    .await
}

/// `state_load`.
pub(crate) async fn state_load(p: StateFileParams, cx: &mut Cx<'_>) -> Result<StateLoaded> {
    let path = store::resolve(&p.path);
    let deadline = cx.limits.deadline;
    load_state(cx, &path, p.key_file.as_deref(), deadline).await
}

/// Seconds since the epoch of a file's last write.
fn modified(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// The state directory's files (not the temporary files of writes under way), newest first.
fn dir_files() -> Result<(PathBuf, Vec<StateFileInfo>)> {
    let dir = store::state_dir();
    let mut files = vec![];
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((dir, files)),
        Err(e) => {
            return Err(store::io_error(
                &format!("cannot list {}", dir.display()),
                e,
            ));
        }
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(meta) = entry.metadata() else { continue };
        if name.starts_with('.') || !meta.is_file() {
            continue;
        }
        let mut head = [0u8; 8];
        let encrypted = std::fs::File::open(entry.path())
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
            .is_ok()
            && store::is_encrypted(&head);
        files.push(StateFileInfo {
            filename: name,
            path: entry.path().display().to_string(),
            size: meta.len(),
            modified: modified(&meta),
            encrypted,
        });
    }
    files.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then(a.filename.cmp(&b.filename))
    });
    Ok((dir, files))
}

/// `state_list`.
pub(crate) async fn state_list(_: StateListParams, _cx: &mut Cx<'_>) -> Result<StateListOutput> {
    let (dir, mut files) = dir_files()?;
    let truncated = files.len() > MAX_LIST;
    files.truncate(MAX_LIST);
    Ok(StateListOutput {
        directory: dir.display().to_string(),
        files,
        truncated,
    })
}

/// `state_show`: what the file holds (no browser needed).
pub(crate) async fn state_show(p: StateFileParams, _cx: &mut Cx<'_>) -> Result<StateShowOutput> {
    let path = store::resolve(&p.path);
    let size = std::fs::metadata(&path)
        .map_err(|e| store::io_error(&format!("cannot read the state file {}", path.display()), e))?
        .len();
    let (doc, encrypted) = store::read(&path, p.key_file.as_deref())?;
    let whole = doc.clone();
    let parsed = parse_doc(doc, &path)?;
    let cookies = parsed
        .cookies
        .iter()
        .map(|c| {
            let s = |k: &str| {
                c.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            CookieName {
                name: s("name"),
                domain: s("domain"),
                path: s("path"),
            }
        })
        .collect();
    let origins = parsed
        .origins
        .iter()
        .map(|o| OriginSummary {
            origin: o.origin.clone(),
            keys: o
                .local_storage
                .iter()
                .take(100)
                .map(|e| e.name.clone())
                .collect(),
        })
        .collect();
    let big = serde_json::to_string(&whole).map_or(0, |s| s.len()) > MAX_SHOW_BYTES;
    if big {
        crate::warnings::note(format!(
            "{} is over 1 MB: the document is left out of `state` (the summary is whole)",
            path.display()
        ));
    }
    Ok(StateShowOutput {
        path: path.display().to_string(),
        encrypted,
        size,
        cookies,
        origins,
        indexed_db: idb_summaries(&parsed.origins),
        state: (!big).then_some(whole),
        truncated: big,
    })
}

/// `state_rename`: a new name in the same directory; an existing file of that name is refused.
pub(crate) async fn state_rename(p: StateRenameParams, _cx: &mut Cx<'_>) -> Result<StateRenamed> {
    let from = store::resolve(&p.from);
    if !from.is_file() {
        return Err(EngineError::invalid(format!(
            "no state file {}",
            from.display()
        )));
    }
    let to = from
        .parent()
        .unwrap_or(Path::new("/"))
        .join(store::with_ext(&p.to));
    if to.exists() {
        return Err(EngineError::invalid(format!(
            "{} exists already; remove it first (state clear) or pick another name",
            to.display()
        )));
    }
    std::fs::rename(&from, &to)
        .map_err(|e| store::io_error(&format!("cannot rename {}", from.display()), e))?;
    Ok(StateRenamed {
        from: from.display().to_string(),
        to: to.display().to_string(),
    })
}

/// `state_clear`: one file, or every file of the state directory.
pub(crate) async fn state_clear(p: StateClearParams, _cx: &mut Cx<'_>) -> Result<StateRemoved> {
    let doomed: Vec<PathBuf> = match &p.path {
        Some(name) => {
            let f = store::resolve(name);
            if !f.is_file() {
                return Err(EngineError::invalid(format!(
                    "no state file {}",
                    f.display()
                )));
            }
            vec![f]
        }
        None => dir_files()?
            .1
            .into_iter()
            .map(|f| PathBuf::from(f.path))
            .collect(),
    };
    remove(doomed)
}

/// `state_clean`: the state directory's files older than a number of days.
pub(crate) async fn state_clean(p: StateCleanParams, _cx: &mut Cx<'_>) -> Result<StateRemoved> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let limit = now.saturating_sub(p.older_than_days.saturating_mul(86_400));
    let doomed = dir_files()?
        .1
        .into_iter()
        .filter(|f| f.modified < limit)
        .map(|f| PathBuf::from(f.path))
        .collect();
    remove(doomed)
}

/// Removes files and says which.
fn remove(files: Vec<PathBuf>) -> Result<StateRemoved> {
    let mut removed = vec![];
    for f in files {
        std::fs::remove_file(&f)
            .map_err(|e| store::io_error(&format!("cannot remove {}", f.display()), e))?;
        removed.push(f.display().to_string());
    }
    Ok(StateRemoved { removed })
}
