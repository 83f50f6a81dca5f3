//! The Chromium switch that turns native WebMCP on: `--enable-features=WebMCP` (Chromium 146 and
//! later; 156 exposes `document.modelContext` and the CDP `WebMCP` domain with it). Merged into
//! an `--enable-features` the caller gave, so both hold; a caller's
//! `--disable-features=WebMCP` still turns it off (the engine then uses the page's API).

/// The feature the engine enables.
pub const FEATURE: &str = "WebMCP";

/// `args` with the WebMCP feature enabled: added to the last `--enable-features=` there is,
/// or as its own switch.
pub fn with_feature(args: &[String]) -> Vec<String> {
    let mut out = args.to_vec();
    let disabled = args.iter().any(|a| {
        a.strip_prefix("--disable-features=")
            .is_some_and(|v| v.split(',').any(|f| f == FEATURE))
    });
    if disabled {
        return out;
    }
    match out
        .iter_mut()
        .rev()
        .find(|a| a.starts_with("--enable-features="))
    {
        Some(a) => {
            let has = a["--enable-features=".len()..]
                .split(',')
                .any(|f| f == FEATURE);
            if !has {
                a.push(',');
                a.push_str(FEATURE);
            }
        }
        None => out.push(format!("--enable-features={FEATURE}")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges() {
        assert_eq!(with_feature(&[]), vec!["--enable-features=WebMCP"]);
        assert_eq!(
            with_feature(&["--enable-features=Foo".into()]),
            vec!["--enable-features=Foo,WebMCP"]
        );
        assert_eq!(
            with_feature(&["--disable-features=WebMCP".into()]),
            vec!["--disable-features=WebMCP"]
        );
    }
}
