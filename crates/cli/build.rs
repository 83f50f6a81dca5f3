//! Embeds the repository's skills (`skills/<name>/...`) in the binary: writes a table of
//! `(path, include_str!(file))` for every file under `skills/` to `$OUT_DIR/skills.rs`.

use std::path::{Path, PathBuf};

fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, root, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push((rel, path.clone()));
        }
    }
}

fn main() {
    // The client (`agentbrowser`, one short process per command, reading only its daemon's JSON)
    // is linked position-dependent: the loader then has no relocations to apply to it, which is
    // most of a small process's start. The engine binary, which parses page content, keeps
    // address randomisation.
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && !var("CARGO_CFG_TARGET_FEATURE").contains("crt-static")
    {
        println!("cargo:rustc-link-arg-bin=agentbrowser=-no-pie");
    }
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("manifest dir"));
    let root = manifest.join("../../skills");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    let mut code =
        String::from("/// Every file of the bundled skills: (path under `skills/`, text).\n");
    code.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for (rel, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let abs = path.canonicalize().unwrap_or_else(|_| path.clone());
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            abs.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("out dir")).join("skills.rs");
    std::fs::write(out, code).expect("write skills.rs");
}
