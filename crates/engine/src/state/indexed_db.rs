//! IndexedDB in state files, in Playwright's storageState shape (`origins[].indexedDB`, as
//! Playwright >= 1.51 writes with `storage_state(indexed_db=True)`): read from and written to
//! an origin through the scratch tab (`js/indexeddb.js`), so no page script runs meanwhile.
//! Saving is bounded (`STATE_INDEXED_DB_MAX_BYTES` of records a file); what is left out is said.

use agentbrowser_protocol::IndexedDbSummary;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::scratch::Scratch;
use crate::error::{EngineError, Result};

/// The page script: `collect(budget)` and `restore(databases)`.
const IDB_JS: &str = include_str!("../js/indexeddb.js");

/// One database (Playwright's `IndexedDBDatabase`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Database {
    name: String,
    version: u64,
    stores: Vec<Store>,
}

/// One object store: its key path, key generator, indexes and records.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Store {
    name: String,
    /// Each `{key? | keyEncoded?, value? | valueEncoded?}` as is (a `null` value is a value).
    records: Vec<serde_json::Map<String, Value>>,
    indexes: Vec<Index>,
    auto_increment: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    key_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key_path_array: Option<Vec<String>>,
}

/// One index of a store.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Index {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    key_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key_path_array: Option<Vec<String>>,
    multi_entry: bool,
    unique: bool,
}

impl Database {
    /// What a save, load or show says about it.
    pub(crate) fn summary(&self, origin: &str) -> IndexedDbSummary {
        IndexedDbSummary {
            origin: origin.to_string(),
            name: self.name.clone(),
            version: self.version,
            stores: self.stores.len() as u64,
            records: self.stores.iter().map(|s| s.records.len() as u64).sum(),
        }
    }
}

/// What `collect` answers.
#[derive(Deserialize)]
struct Collected {
    databases: Vec<Database>,
    notes: Vec<String>,
    #[serde(default)]
    used: u64,
}

impl Scratch {
    /// The IndexedDB databases of the origin the scratch tab shows, with at most `budget`
    /// bytes of records: the databases, what was left out, and the bytes used.
    pub(crate) async fn read_indexed_db(
        &self,
        budget: u64,
    ) -> Result<(Vec<Database>, Vec<String>, u64)> {
        let v = self.eval(&format!("({IDB_JS}).collect({budget})")).await?;
        let text = v.as_str().ok_or_else(|| {
            EngineError::internal(format!("IndexedDB came back as {v}, not JSON text"))
        })?;
        let c: Collected = serde_json::from_str(text).map_err(|e| {
            EngineError::internal(format!("the IndexedDB the page read is malformed: {e}"))
        })?;
        Ok((c.databases, c.notes, c.used))
    }

    /// Replaces the databases of `dbs` in the origin the scratch tab shows.
    pub(crate) async fn write_indexed_db(&self, dbs: &[Database]) -> Result<()> {
        let data = serde_json::to_string(dbs)
            .map_err(|e| EngineError::internal(format!("cannot encode IndexedDB: {e}")))?;
        self.eval(&format!("({IDB_JS}).restore({data})")).await?;
        Ok(())
    }
}
