//! Captures of the page: screenshots (of the viewport, the whole page or one element; with ref
//! annotations; only when something changed) and PDF. The daemon writes the file and answers
//! where it is: no image crosses the wire.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Most annotations one screenshot draws and lists (the refs shown in the captured area, in
/// snapshot order); past it the screenshot says how many it left out.
pub const MAX_ANNOTATIONS: usize = 500;

/// An image format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG (lossless; the default).
    #[default]
    Png,
    /// JPEG (lossy; `quality` applies).
    Jpeg,
    /// WebP (lossy from the browser, `quality` applies; lossless when annotated).
    Webp,
}

impl ImageFormat {
    /// The wire and CDP spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpeg",
            ImageFormat::Webp => "webp",
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
            ImageFormat::Webp => "webp",
        }
    }

    /// The format a file name's extension stands for (`.png`, `.jpg`, `.jpeg`, `.webp`, any case).
    pub fn from_path(path: &str) -> Option<ImageFormat> {
        let ext = std::path::Path::new(path).extension()?.to_str()?;
        match ext.to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "jpg" | "jpeg" => Some(ImageFormat::Jpeg),
            "webp" => Some(ImageFormat::Webp),
            _ => None,
        }
    }
}

/// Parameters of `screenshot`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreenshotParams {
    /// Capture only this element: a ref (`e3`, `@e3`) or a CSS selector that matches exactly one
    /// element of the page's document. Without it: the viewport (or the page, with `fullPage`).
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "A ref (`e3`, `@e3`) or a CSS selector matching one element. A lone argument ending in .png, .jpg, .jpeg or .webp is the path instead"
        )
    )]
    pub target: Option<String>,
    /// Absolute path of the file to write (its directories are created; an existing file is
    /// replaced). Without it the file goes to `agentbrowser-screenshots/` in the system's
    /// temporary directory, under a new name.
    #[cfg_attr(
        feature = "clap",
        arg(
            help = "The file to write (relative to the working directory; the extension picks the format). Default: a new file in $TMPDIR/agentbrowser-screenshots/"
        )
    )]
    pub path: Option<String>,
    /// The whole scrollable page instead of the viewport (not with `target`).
    #[cfg_attr(
        feature = "clap",
        arg(
            short = 'f',
            visible_alias = "full",
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "The whole scrollable page, not only the viewport"
        )
    )]
    pub full_page: Option<bool>,
    /// Image format (default: from the path's extension `.png`, `.jpg`/`.jpeg` or `.webp`, else png).
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub format: Option<ImageFormat>,
    /// JPEG or WebP quality, 0 to 100 (default 80); not for png.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::fit::<u32>()))]
    pub quality: Option<u32>,
    /// Draw each ref's box and number (`[12]` is `e12`) on the image, refs inside frames
    /// included, and list them in `annotations` (refs of the tab's last snapshot; one is taken
    /// when the tab has none or the page changed documents since).
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "Draw each ref's box and number ([12] = @e12) and print the legend"
        )
    )]
    pub annotate: Option<bool>,
    /// Compare with the last screenshot of the same scope and format in this tab and write no file
    /// when the share of changed pixels is at most `threshold` (the first capture counts as
    /// changed). PNGs compare exactly; JPEG and WebP with a tolerance of 32/255 per channel.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            num_args = 0,
            default_missing_value = "true",
            help = "Write no file when nothing changed since the last screenshot of the same scope"
        )
    )]
    pub if_changed: Option<bool>,
    /// Share of pixels, 0 to 1, that may change before `ifChanged` counts the capture as changed
    /// (default 0: any changed pixel). Implies `ifChanged`.
    #[cfg_attr(
        feature = "clap",
        arg(
            long,
            value_name = "0..1",
            allow_negative_numbers = true,
            help = "Share of pixels (0 to 1) that may change and still count as unchanged; implies --if-changed"
        )
    )]
    pub threshold: Option<f64>,
}

impl ScreenshotParams {
    /// The format the capture is written in: `format`, else the path's extension, else png.
    pub fn resolved_format(&self) -> ImageFormat {
        self.format
            .or_else(|| self.path.as_deref().and_then(ImageFormat::from_path))
            .unwrap_or_default()
    }

    /// Whether the capture is compared with the last one of its scope.
    pub fn compares(&self) -> bool {
        self.if_changed.unwrap_or(false) || self.threshold.is_some()
    }
}

/// Checks an optional output path: not empty, absolute.
fn absolute_path(field: &str, path: &str) -> Result<(), String> {
    if path.trim().is_empty() {
        return invalid(field, "empty; give an absolute file path");
    }
    if !std::path::Path::new(path).is_absolute() {
        return invalid(
            field,
            format!(
                "{path:?} is relative; give an absolute path (the CLI and the Python SDK resolve a relative one against their working directory)"
            ),
        );
    }
    Ok(())
}

impl Validate for ScreenshotParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(t) = &self.target
            && t.trim().is_empty()
        {
            return invalid(
                "target",
                "empty; give a ref such as `e3` or a CSS selector such as `#main`",
            );
        }
        if let Some(path) = &self.path {
            absolute_path("path", path)?;
            if let (Some(asked), Some(by_name)) = (self.format, ImageFormat::from_path(path))
                && asked != by_name
            {
                return invalid(
                    "format",
                    format!(
                        "{} does not match the path's extension ({path:?} is {}); drop one or make them agree",
                        asked.as_str(),
                        by_name.as_str()
                    ),
                );
            }
        }
        if self.full_page == Some(true) && self.target.is_some() {
            return invalid(
                "fullPage",
                "not with `target`: an element capture is the element's box; drop one",
            );
        }
        if let Some(q) = self.quality {
            if q > 100 {
                return invalid("quality", format!("{q} is out of range; use 0 to 100"));
            }
            if self.resolved_format() == ImageFormat::Png {
                return invalid(
                    "quality",
                    "png is lossless and takes no quality; use format jpeg or webp",
                );
            }
        }
        if let Some(t) = self.threshold
            && !(t.is_finite() && (0.0..=1.0).contains(&t))
        {
            return invalid(
                "threshold",
                format!(
                    "{t} is out of range; use a share of pixels from 0 to 1 (0.01 = 1% of pixels)"
                ),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for ScreenshotParams {}

/// A box in CSS pixels, relative to the captured image's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CssBox {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// One ref drawn on an annotated screenshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Annotation {
    /// The ref (`e12`).
    #[serde(rename = "ref")]
    pub target: String,
    /// The number drawn on the image: the ref's number (`[12]` is `e12`).
    pub number: u64,
    /// Its ARIA role.
    pub role: String,
    /// Its accessible name (may be empty).
    pub name: String,
    /// Its border box in CSS pixels, relative to the image (may reach past the image's edges).
    #[serde(rename = "box")]
    pub bounds: CssBox,
    /// The frame it lives in.
    pub frame: String,
    /// Where its number is drawn, in CSS pixels relative to the image: outside the box where
    /// there is room (above it, then beside it, then below it), inside it only when no place
    /// near it is free; never over another label or an annotated element's text when a place
    /// without them exists.
    pub label: CssBox,
}

/// A ref in the captured area that an annotated screenshot leaves out: a click at its points
/// would reach something else on top of it (a fixed banner, a dialog, an overlay).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HiddenRef {
    /// The ref (`e12`).
    #[serde(rename = "ref")]
    pub target: String,
    /// Its ARIA role.
    pub role: String,
    /// Its accessible name (may be empty).
    pub name: String,
    /// Its border box in CSS pixels, relative to the image.
    #[serde(rename = "box")]
    pub bounds: CssBox,
    /// The ref of what is on top of it (the nearest element with a ref among what a click
    /// there reaches), when that has one.
    pub covered_by_ref: Option<String>,
    /// What is on top of it: that element's role and name, or `tag#id.class` without a ref.
    pub covered_by: String,
}

/// What an `ifChanged` capture found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Whether more than `threshold` of the pixels changed (always true for the first capture of a
    /// scope, or when the size changed). When false, no file was written.
    pub changed: bool,
    /// Share of pixels, 0 to 1, whose colour differs from the last screenshot of this scope
    /// (1 for the first capture, or when the size changed).
    pub pixel_change_ratio: f64,
    /// The threshold it was compared with.
    pub threshold: f64,
    /// How many captures of this scope and format the tab has seen, this one included.
    pub revision: u64,
}

/// Result of `screenshot`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScreenshotOutput {
    /// The file written (absolute); null when `ifChanged` found nothing changed (nothing written).
    pub path: Option<String>,
    /// Its format.
    pub format: ImageFormat,
    /// Its size in bytes (0 when nothing was written).
    pub size: u64,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Image pixels per CSS pixel (the device pixel ratio, times any zoom).
    pub scale: f64,
    /// What was captured: `viewport`, `page`, or the element (`e3`, `#main`); `+annotated`
    /// when annotated. `ifChanged` compares captures of the same scope and format.
    pub scope: String,
    /// The refs drawn, in snapshot order (only with `annotate`; only refs shown in the captured area).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Vec<Annotation>>,
    /// Refs shown in the area but left out past the limit of annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations_omitted: Option<u64>,
    /// Refs in the area left out because something else is on top of them, so that a user
    /// could not click them now (only with `annotate`; absent when there is none). Only the
    /// points inside the viewport are tested: a full-page capture annotates what is outside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations_hidden: Option<Vec<HiddenRef>>,
    /// The snapshot whose refs were drawn (its generation in the tab).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_generation: Option<u64>,
    /// What `ifChanged` found (only with `ifChanged` or `threshold`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
}

/// Parameters of `pdf`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PdfParams {
    /// Absolute path of the PDF to write (its directories are created; an existing file is replaced).
    #[cfg_attr(
        feature = "clap",
        arg(help = "The file to write (relative to the working directory)")
    )]
    pub path: String,
    /// Landscape pages (default portrait).
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub landscape: Option<bool>,
    /// Print background colours and images (default false).
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub print_background: Option<bool>,
    /// Use the page size the page's CSS `@page` gives (default: Letter, fitted to the content width).
    #[cfg_attr(feature = "clap", arg(long, action = clap::ArgAction::SetTrue))]
    pub prefer_css_page_size: Option<bool>,
}

impl Validate for PdfParams {
    fn validate(&self) -> Result<(), String> {
        absolute_path("path", &self.path)
    }
}

impl crate::ParamFacts for PdfParams {}

/// Result of `pdf`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PdfOutput {
    /// The file written (absolute).
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
}

/// A byte count for people: `812 B`, `45.3 KB`, `2.1 MB`.
fn human_size(n: u64) -> String {
    match n {
        0..1000 => format!("{n} B"),
        1000..1_000_000 => format!("{:.1} KB", n as f64 / 1000.0),
        _ => format!("{:.1} MB", n as f64 / 1_000_000.0),
    }
}

impl Present for ScreenshotOutput {
    fn text(&self) -> String {
        let mut out = match (&self.path, &self.comparison) {
            (None, Some(c)) => format!(
                "unchanged: {:.2}% of pixels differ from the last {} capture (threshold {:.2}%); no file written",
                c.pixel_change_ratio * 100.0,
                self.scope,
                c.threshold * 100.0
            ),
            (path, _) => format!(
                "{} ({}, {}x{}, {})",
                path.as_deref().unwrap_or("(no file)"),
                self.format.as_str(),
                self.width,
                self.height,
                human_size(self.size)
            ),
        };
        if let (Some(_), Some(c)) = (&self.path, &self.comparison) {
            out.push_str(&format!(
                "\nchanged: {:.2}% of pixels differ from the last {} capture (revision {})",
                c.pixel_change_ratio * 100.0,
                self.scope,
                c.revision
            ));
        }
        if let Some(notes) = &self.annotations {
            for a in notes {
                out.push('\n');
                if a.name.is_empty() {
                    out.push_str(&format!("[{}] @{} {}", a.number, a.target, a.role));
                } else {
                    out.push_str(&format!(
                        "[{}] @{} {} {:?}",
                        a.number, a.target, a.role, a.name
                    ));
                }
            }
            out.push_str(&hidden_legend(
                self.annotations_hidden.as_deref().unwrap_or(&[]),
            ));
            if let Some(n) = self.annotations_omitted.filter(|n| *n > 0) {
                out.push_str(&format!(
                    "\n... {n} more refs in the area not annotated (limit {MAX_ANNOTATIONS}); capture an element or scroll"
                ));
            }
        }
        out
    }
}

/// The legend's lines for the refs left out, one a covering element: `left out: @e7, @e8:
/// hidden behind @e3 (dialog "Cookies"), which a click there would reach`.
fn hidden_legend(hidden: &[HiddenRef]) -> String {
    let mut groups: Vec<(Option<&str>, &str, Vec<&str>)> = Vec::new();
    for h in hidden {
        let key = (h.covered_by_ref.as_deref(), h.covered_by.as_str());
        match groups.iter_mut().find(|g| (g.0, g.1) == key) {
            Some(g) => g.2.push(&h.target),
            None => groups.push((key.0, key.1, vec![&h.target])),
        }
    }
    let mut out = String::new();
    for (by_ref, what, refs) in groups {
        let refs: Vec<String> = refs.iter().map(|r| format!("@{r}")).collect();
        let by = match by_ref {
            Some(r) => format!("@{r} ({what})"),
            None => what.to_string(),
        };
        out.push_str(&format!(
            "\nleft out: {}: hidden behind {by}, which a click there would reach",
            refs.join(", ")
        ));
    }
    out
}

impl Present for PdfOutput {
    fn text(&self) -> String {
        format!("{} ({})", self.path, human_size(self.size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shot(f: impl FnOnce(&mut ScreenshotParams)) -> Result<(), String> {
        let mut p = ScreenshotParams::default();
        f(&mut p);
        p.validate()
    }

    #[test]
    fn screenshot_checks() {
        assert!(shot(|_| {}).is_ok());
        assert!(shot(|p| p.path = Some("/tmp/a.jpg".into())).is_ok());
        let e = shot(|p| p.path = Some("a.png".into())).unwrap_err();
        assert!(e.contains("`path`") && e.contains("relative"), "{e}");
        let e = shot(|p| {
            p.path = Some("/tmp/a.jpg".into());
            p.format = Some(ImageFormat::Png);
        })
        .unwrap_err();
        assert!(e.contains("`format`") && e.contains("jpeg"), "{e}");
        let e = shot(|p| p.quality = Some(50)).unwrap_err();
        assert!(e.contains("`quality`") && e.contains("lossless"), "{e}");
        assert!(
            shot(|p| {
                p.quality = Some(50);
                p.path = Some("/x/y.JPEG".into());
            })
            .is_ok()
        );
        let e = shot(|p| {
            p.quality = Some(101);
            p.format = Some(ImageFormat::Webp);
        })
        .unwrap_err();
        assert!(e.contains("0 to 100"), "{e}");
        let e = shot(|p| {
            p.full_page = Some(true);
            p.target = Some("e3".into());
        })
        .unwrap_err();
        assert!(e.contains("`fullPage`"), "{e}");
        for t in [-0.1, 1.5, f64::NAN] {
            let e = shot(|p| p.threshold = Some(t)).unwrap_err();
            assert!(e.contains("`threshold`"), "{e}");
        }
        assert!(shot(|p| p.threshold = Some(1.0)).is_ok());
        let e = shot(|p| p.target = Some(" ".into())).unwrap_err();
        assert!(e.contains("`target`"), "{e}");
    }

    #[test]
    fn formats_and_scope_rules() {
        let p = ScreenshotParams {
            path: Some("/a/b.WebP".into()),
            ..Default::default()
        };
        assert_eq!(p.resolved_format(), ImageFormat::Webp);
        assert_eq!(
            ScreenshotParams::default().resolved_format(),
            ImageFormat::Png
        );
        assert!(
            ScreenshotParams {
                threshold: Some(0.1),
                ..Default::default()
            }
            .compares()
        );
        assert!(!ScreenshotParams::default().compares());
        assert!(
            PdfParams {
                path: "out.pdf".into(),
                ..Default::default()
            }
            .validate()
            .is_err()
        );
    }
}
