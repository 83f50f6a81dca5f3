//! Emulation and scripts: session settings (viewport, device, media, user agent, timezone,
//! locale, geolocation, permissions, offline) that the engine applies to every tab, including
//! tabs opened later; init scripts that run in every new document before its own scripts; and
//! scripts or styles injected into the active page now. Every `set_*` without a value resets
//! its setting.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::present::Present;
use crate::validate::{Validate, invalid};

/// Largest viewport side `set_viewport` accepts, in CSS pixels.
pub const MAX_VIEWPORT_SIDE: u32 = 10_000;
/// Largest device scale factor `set_viewport` accepts.
pub const MAX_SCALE: f64 = 10.0;
/// Largest script or style source accepted, in bytes (2 MiB).
pub const MAX_SCRIPT_BYTES: usize = 2 << 20;

/// One device of the `set_device` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceInfo {
    /// Its name, as `set_device` takes it (matched ignoring case, spaces, `-` and `_`).
    pub name: String,
    /// Viewport width in CSS pixels.
    pub width: u32,
    /// Viewport height in CSS pixels.
    pub height: u32,
    /// Device pixel ratio.
    pub device_scale_factor: f64,
    /// Whether it is a mobile device (meta viewport honoured, overlay scrollbars).
    pub mobile: bool,
    /// Whether it has a touch screen (touch events, `maxTouchPoints` > 0).
    pub touch: bool,
    /// Its user agent (null: the browser's own is kept).
    pub user_agent: Option<String>,
}

const IOS_17: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const IPAD_17: &str = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const PIXEL_7: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const PIXEL_8: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const GALAXY_S23: &str = "Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";

/// One row of the device table: (name, width, height, scale, mobile, touch, user agent).
type DeviceRow = (
    &'static str,
    u32,
    u32,
    f64,
    bool,
    bool,
    Option<&'static str>,
);

/// The devices `set_device` knows.
const DEVICE_TABLE: &[DeviceRow] = &[
    ("iPhone 15", 393, 852, 3.0, true, true, Some(IOS_17)),
    ("iPhone 15 Pro", 393, 852, 3.0, true, true, Some(IOS_17)),
    ("iPhone 15 Pro Max", 430, 932, 3.0, true, true, Some(IOS_17)),
    ("iPhone SE", 375, 667, 2.0, true, true, Some(IOS_17)),
    ("Pixel 7", 412, 915, 2.625, true, true, Some(PIXEL_7)),
    ("Pixel 8", 412, 915, 2.625, true, true, Some(PIXEL_8)),
    ("Galaxy S23", 360, 780, 3.0, true, true, Some(GALAXY_S23)),
    ("iPad Air", 820, 1180, 2.0, true, true, Some(IPAD_17)),
    ("iPad Pro 11", 834, 1194, 2.0, true, true, Some(IPAD_17)),
    ("iPad Pro 12.9", 1024, 1366, 2.0, true, true, Some(IPAD_17)),
    ("Desktop 720p", 1280, 720, 1.0, false, false, None),
    ("Desktop 1080p", 1920, 1080, 1.0, false, false, None),
    ("Desktop 1440p", 2560, 1440, 1.0, false, false, None),
    ("MacBook Pro 14", 1512, 982, 2.0, false, false, None),
];

/// Every device of the `set_device` table, in table order.
pub fn devices() -> Vec<DeviceInfo> {
    DEVICE_TABLE
        .iter()
        .map(
            |&(name, width, height, scale, mobile, touch, ua)| DeviceInfo {
                name: name.to_string(),
                width,
                height,
                device_scale_factor: scale,
                mobile,
                touch,
                user_agent: ua.map(str::to_string),
            },
        )
        .collect()
}

/// A device name folded for matching: lower case, without spaces, `-` and `_`.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The device named `name` (ignoring case, spaces, `-` and `_`), or an error listing close names.
pub fn device(name: &str) -> Result<DeviceInfo, String> {
    let wanted = fold(name);
    if let Some(d) = devices().into_iter().find(|d| fold(&d.name) == wanted) {
        return Ok(d);
    }
    let all = devices();
    let first = name.split_whitespace().next().map(fold).unwrap_or_default();
    let mut close: Vec<&str> = all
        .iter()
        .filter(|d| {
            let f = fold(&d.name);
            (!first.is_empty() && f.starts_with(&first))
                || (!wanted.is_empty() && f.contains(&wanted))
        })
        .map(|d| d.name.as_str())
        .collect();
    let label = if close.is_empty() {
        close = all.iter().map(|d| d.name.as_str()).collect();
        "known devices"
    } else {
        "close names"
    };
    Err(format!(
        "invalid parameter `name`: no device {name:?}; {label}: {} (`set device list` lists them all)",
        close.join(", ")
    ))
}

/// Permission names `set_permissions` accepts and the Chromium permission each grants.
pub const PERMISSIONS: &[(&str, &str)] = &[
    ("geolocation", "geolocation"),
    ("notifications", "notifications"),
    ("camera", "videoCapture"),
    ("microphone", "audioCapture"),
    ("clipboard-read", "clipboardReadWrite"),
    ("clipboard-write", "clipboardSanitizedWrite"),
    ("midi", "midi"),
    ("midi-sysex", "midiSysex"),
    ("background-sync", "backgroundSync"),
    ("sensors", "sensors"),
    ("accelerometer", "sensors"),
    ("gyroscope", "sensors"),
    ("magnetometer", "sensors"),
    ("ambient-light-sensor", "sensors"),
    ("payment-handler", "paymentHandler"),
    ("storage-access", "storageAccess"),
    ("persistent-storage", "durableStorage"),
    ("local-fonts", "localFonts"),
    ("idle-detection", "idleDetection"),
    ("screen-wake-lock", "wakeLockScreen"),
    ("window-management", "windowManagement"),
];

/// The Chromium permission type of a `set_permissions` name.
pub fn permission_type(name: &str) -> Option<&'static str> {
    PERMISSIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

/// Parameters of `set_viewport`: both sides set the viewport; neither resets it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetViewportParams {
    /// Viewport width in CSS pixels (1 to 10000; with `height`).
    #[cfg_attr(feature = "clap", arg(requires = "height"))]
    pub width: Option<u32>,
    /// Viewport height in CSS pixels (1 to 10000; with `width`).
    pub height: Option<u32>,
    /// Device pixel ratio (above 0, at most 10; default 1).
    #[cfg_attr(feature = "clap", arg(value_name = "SCALE"))]
    pub device_scale_factor: Option<f64>,
    /// Emulate a mobile device (meta viewport, overlay scrollbars; default false).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long))]
    pub mobile: bool,
}

impl Validate for SetViewportParams {
    fn validate(&self) -> Result<(), String> {
        match (self.width, self.height) {
            (Some(_), None) | (None, Some(_)) => {
                return Err(
                    "`width` and `height` go together: give both, or neither to reset the viewport"
                        .into(),
                );
            }
            (None, None) if self.device_scale_factor.is_some() || self.mobile => {
                return Err("`deviceScaleFactor` and `mobile` need `width` and `height`".into());
            }
            _ => {}
        }
        for (field, v) in [("width", self.width), ("height", self.height)] {
            if let Some(v) = v
                && !(1..=MAX_VIEWPORT_SIDE).contains(&v)
            {
                return invalid(
                    field,
                    format!("{v}; use 1 to {MAX_VIEWPORT_SIDE} CSS pixels"),
                );
            }
        }
        if let Some(s) = self.device_scale_factor
            && !(s.is_finite() && s > 0.0 && s <= MAX_SCALE)
        {
            return invalid(
                "deviceScaleFactor",
                format!("{s}; use a number above 0 and at most {MAX_SCALE}"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetViewportParams {}

/// Parameters of `set_device`: a device of the table; none resets what a device set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetDeviceParams {
    /// The device's name (`devices` lists them; case, spaces, `-` and `_` do not matter).
    pub name: Option<String>,
}

impl Validate for SetDeviceParams {
    fn validate(&self) -> Result<(), String> {
        match &self.name {
            Some(n) => device(n).map(|_| ()),
            None => Ok(()),
        }
    }
}

impl crate::ParamFacts for SetDeviceParams {}

/// A color scheme the page's `prefers-color-scheme` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ColorScheme {
    /// `prefers-color-scheme: dark`.
    Dark,
    /// `prefers-color-scheme: light`.
    Light,
    /// `prefers-color-scheme: no-preference`.
    NoPreference,
}

/// What the page's `prefers-reduced-motion` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ReducedMotion {
    /// `prefers-reduced-motion: reduce`.
    Reduce,
    /// `prefers-reduced-motion: no-preference`.
    NoPreference,
}

/// The CSS media type the page is rendered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MediaType {
    /// `@media screen`.
    Screen,
    /// `@media print`.
    Print,
}

impl ColorScheme {
    /// The CSS value.
    pub fn as_str(self) -> &'static str {
        match self {
            ColorScheme::Dark => "dark",
            ColorScheme::Light => "light",
            ColorScheme::NoPreference => "no-preference",
        }
    }
}

impl ReducedMotion {
    /// The CSS value.
    pub fn as_str(self) -> &'static str {
        match self {
            ReducedMotion::Reduce => "reduce",
            ReducedMotion::NoPreference => "no-preference",
        }
    }
}

impl MediaType {
    /// The CSS value.
    pub fn as_str(self) -> &'static str {
        match self {
            MediaType::Screen => "screen",
            MediaType::Print => "print",
        }
    }
}

/// Parameters of `set_media`: the given features are set; with none, every media emulation is reset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetMediaParams {
    /// `prefers-color-scheme`: `dark`, `light` or `no-preference`.
    #[cfg_attr(feature = "clap", arg(value_enum))]
    pub color_scheme: Option<ColorScheme>,
    /// `prefers-reduced-motion`: `reduce` or `no-preference`.
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub reduced_motion: Option<ReducedMotion>,
    /// The media type: `screen` or `print`.
    #[cfg_attr(feature = "clap", arg(long, value_enum))]
    pub media: Option<MediaType>,
    /// Other media features to emulate, by name (`prefers-contrast`, `forced-colors`,
    /// `prefers-reduced-transparency`, ...), as CDP `Emulation.setEmulatedMedia` takes them;
    /// merged by name into those already set (an empty value drops one).
    #[cfg_attr(
        feature = "clap",
        arg(long = "feature", value_name = "NAME=VALUE", value_parser = media_feature)
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<MediaFeature>>,
}

/// One emulated CSS media feature: `prefers-contrast` = `more`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaFeature {
    /// The feature's name (lower-case letters, digits and `-`).
    pub name: String,
    /// The value it reports (empty: not emulated).
    pub value: String,
}

/// Most media features one `set_media` sets.
pub const MAX_MEDIA_FEATURES: usize = 32;

/// Parses `NAME=VALUE` (the CLI's `--feature`).
pub fn media_feature(s: &str) -> Result<MediaFeature, String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not NAME=VALUE, e.g. prefers-contrast=more"))?;
    Ok(MediaFeature {
        name: name.trim().to_string(),
        value: value.trim().to_string(),
    })
}

impl Validate for SetMediaParams {
    fn validate(&self) -> Result<(), String> {
        let Some(features) = &self.features else {
            return Ok(());
        };
        if features.len() > MAX_MEDIA_FEATURES {
            return invalid(
                "features",
                format!("{} features; at most {MAX_MEDIA_FEATURES}", features.len()),
            );
        }
        for f in features {
            let word = |s: &str| {
                s.len() <= 64
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            };
            if f.name.is_empty() || !word(&f.name) {
                return invalid(
                    "features",
                    format!(
                        "{:?} is not a media feature name (lower-case letters, digits and `-`, such as `prefers-contrast`)",
                        f.name
                    ),
                );
            }
            if !word(&f.value) {
                return invalid(
                    "features",
                    format!(
                        "{:?} is not a media feature value (lower-case letters, digits and `-`, such as `more`)",
                        f.value
                    ),
                );
            }
            let own = match f.name.as_str() {
                "prefers-color-scheme" => self.color_scheme.is_some().then_some("colorScheme"),
                "prefers-reduced-motion" => {
                    self.reduced_motion.is_some().then_some("reducedMotion")
                }
                _ => None,
            };
            if let Some(field) = own {
                return invalid(
                    "features",
                    format!("{} is also given as `{field}`; give it once", f.name),
                );
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetMediaParams {}

/// Parameters of `set_user_agent`: the user agent of every tab's requests and `navigator`; none resets it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetUserAgentParams {
    /// The user agent string (non-empty, one line, at most 1000 characters).
    pub user_agent: Option<String>,
}

impl Validate for SetUserAgentParams {
    fn validate(&self) -> Result<(), String> {
        if let Some(ua) = &self.user_agent {
            if ua.trim().is_empty() {
                return invalid("userAgent", "empty; give a user agent, or none to reset it");
            }
            if ua.contains(['\n', '\r']) || ua.chars().count() > 1000 {
                return invalid("userAgent", "must be one line of at most 1000 characters");
            }
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetUserAgentParams {}

/// Parameters of `set_timezone`: an IANA time zone; none resets it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetTimezoneParams {
    /// An IANA time zone id such as `Europe/Berlin` or `UTC` (checked by the browser).
    pub timezone: Option<String>,
}

impl Validate for SetTimezoneParams {
    fn validate(&self) -> Result<(), String> {
        match &self.timezone {
            Some(t) if t.trim().is_empty() => invalid(
                "timezone",
                "empty; give an IANA id such as `Europe/Berlin`, or none to reset it",
            ),
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for SetTimezoneParams {}

/// Parameters of `set_locale`: a BCP 47 locale for `navigator.language`, `Intl` and `Accept-Language`; none resets it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetLocaleParams {
    /// A BCP 47 locale such as `de-DE` or `fr`.
    pub locale: Option<String>,
}

impl Validate for SetLocaleParams {
    fn validate(&self) -> Result<(), String> {
        match &self.locale {
            Some(l)
                if l.is_empty()
                    || l.len() > 35
                    || !l.split('-').all(|p| {
                        (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric())
                    }) =>
            {
                invalid(
                    "locale",
                    format!("{l:?} is not a BCP 47 locale; give one such as `de-DE` or `fr`"),
                )
            }
            _ => Ok(()),
        }
    }
}

impl crate::ParamFacts for SetLocaleParams {}

/// Parameters of `set_geolocation`: a position (and the geolocation permission); none resets both.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetGeolocationParams {
    /// Latitude in degrees (-90 to 90; with `longitude`).
    #[cfg_attr(
        feature = "clap",
        arg(allow_negative_numbers = true, requires = "longitude")
    )]
    pub latitude: Option<f64>,
    /// Longitude in degrees (-180 to 180; with `latitude`).
    #[cfg_attr(feature = "clap", arg(allow_negative_numbers = true))]
    pub longitude: Option<f64>,
    /// Accuracy in meters (0 or more; default 1).
    #[cfg_attr(feature = "clap", arg(long, value_name = "M"))]
    pub accuracy: Option<f64>,
}

impl Validate for SetGeolocationParams {
    fn validate(&self) -> Result<(), String> {
        match (self.latitude, self.longitude) {
            (Some(_), None) | (None, Some(_)) => {
                return Err("`latitude` and `longitude` go together: give both, or neither to reset the position".into());
            }
            (None, None) if self.accuracy.is_some() => {
                return Err("`accuracy` needs `latitude` and `longitude`".into());
            }
            _ => {}
        }
        for (field, v, max) in [
            ("latitude", self.latitude, 90.0),
            ("longitude", self.longitude, 180.0),
        ] {
            if let Some(v) = v
                && !(v.is_finite() && (-max..=max).contains(&v))
            {
                return invalid(field, format!("{v}; use -{max} to {max} degrees"));
            }
        }
        if let Some(a) = self.accuracy
            && !(a.is_finite() && a >= 0.0)
        {
            return invalid("accuracy", format!("{a}; use 0 or more meters"));
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetGeolocationParams {}

/// Parameters of `set_permissions`: grant these (and deny the others) for every origin or one;
/// `clear` resets every permission.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetPermissionsParams {
    /// The permissions to grant (see the allowed names in the reference: `geolocation`, `notifications`, `camera`, ...).
    #[serde(default)]
    #[cfg_attr(
        feature = "clap",
        arg(value_delimiter = ',', required_unless_present = "clear")
    )]
    pub permissions: Vec<String>,
    /// Grant them only to this origin (`https://example.com`); default every origin.
    #[cfg_attr(feature = "clap", arg(long, value_name = "ORIGIN"))]
    pub origin: Option<String>,
    /// Reset every permission to the browser's default (no `permissions` then).
    #[serde(default)]
    #[cfg_attr(feature = "clap", arg(long, conflicts_with_all = ["permissions", "origin"], help = "Reset every permission"))]
    pub clear: bool,
}

impl Validate for SetPermissionsParams {
    fn validate(&self) -> Result<(), String> {
        if self.clear && (!self.permissions.is_empty() || self.origin.is_some()) {
            return Err(
                "`clear` excludes `permissions` and `origin`: it resets every permission".into(),
            );
        }
        if !self.clear && self.permissions.is_empty() {
            return invalid(
                "permissions",
                "empty; name at least one permission, or use `clear` to reset them",
            );
        }
        for p in &self.permissions {
            if permission_type(p).is_none() {
                let allowed: Vec<&str> = PERMISSIONS.iter().map(|(n, _)| *n).collect();
                return invalid(
                    "permissions",
                    format!("unknown permission {p:?}; allowed: {}", allowed.join(", ")),
                );
            }
        }
        if let Some(o) = &self.origin
            && !(o.starts_with("http://") || o.starts_with("https://"))
        {
            return invalid(
                "origin",
                format!("{o:?}; give an origin such as `https://example.com`"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for SetPermissionsParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("origin", self.origin.as_deref())])
    }
}

/// Parameters of `set_offline`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetOfflineParams {
    /// Whether every tab is offline (its requests fail) or back online.
    #[cfg_attr(feature = "clap", arg(value_name = "STATE", required = true, action = clap::ArgAction::Set, value_parser = clap::builder::TypedValueParser::map(clap::builder::PossibleValuesParser::new(["on", "off"]), |s| s == "on")))]
    pub offline: bool,
}

impl Validate for SetOfflineParams {}

impl crate::ParamFacts for SetOfflineParams {}

/// An emulated viewport.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Viewport {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
    /// Device pixel ratio.
    pub device_scale_factor: f64,
    /// Whether a mobile device is emulated.
    pub mobile: bool,
}

/// An emulated position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Geolocation {
    /// Latitude in degrees.
    pub latitude: f64,
    /// Longitude in degrees.
    pub longitude: f64,
    /// Accuracy in meters.
    pub accuracy: f64,
}

/// Permissions granted by `set_permissions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PermissionGrant {
    /// The permission names granted.
    pub permissions: Vec<String>,
    /// The origin they are granted to (null: every origin).
    pub origin: Option<String>,
}

/// The session's emulation: what every tab gets, including tabs opened later (null or false: not emulated).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Emulation {
    /// The viewport (null: the window's).
    pub viewport: Option<Viewport>,
    /// The device last set with `set_device` (null when none, or after a `set_viewport`).
    pub device: Option<String>,
    /// Whether touch input is emulated (by a device).
    pub touch: bool,
    /// The user agent (null: the browser's).
    pub user_agent: Option<String>,
    /// `prefers-color-scheme` (null: the browser's).
    pub color_scheme: Option<ColorScheme>,
    /// `prefers-reduced-motion` (null: the browser's).
    pub reduced_motion: Option<ReducedMotion>,
    /// The CSS media type (null: screen).
    pub media: Option<MediaType>,
    /// Other emulated media features, by name (absent: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<MediaFeature>,
    /// The IANA time zone (null: the system's).
    pub timezone: Option<String>,
    /// The locale (null: the browser's).
    pub locale: Option<String>,
    /// The position `navigator.geolocation` reports (null: none).
    pub geolocation: Option<Geolocation>,
    /// The permissions granted (null: the browser's defaults).
    pub permissions: Option<PermissionGrant>,
    /// Whether every tab is offline.
    pub offline: bool,
    /// The network throttling of every tab (null: none); applied together with `offline`.
    #[serde(default)]
    pub throttle: Option<crate::Throttle>,
}

/// An init script of the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitScript {
    /// Its id (`init-script-1`, ...), for `remove_init_script`.
    pub id: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// The file it was read from (null: given inline).
    pub path: Option<String>,
    /// Its first line, cut at 80 characters.
    pub preview: String,
}

/// Result of `settings` and of every `set_*`: the session's emulation and init scripts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsOutput {
    /// The emulation every tab gets.
    pub emulation: Emulation,
    /// The init scripts every new document runs, in the order they run.
    pub init_scripts: Vec<InitScript>,
    /// How many open tabs the change was applied to now (absent for `settings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_tabs: Option<usize>,
}

/// Result of `devices`: the device table of `set_device`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevicesOutput {
    /// Every device, in table order.
    pub devices: Vec<DeviceInfo>,
}

/// Parameters of `add_init_script`: exactly one of `script` and `path`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddInitScriptParams {
    /// The JavaScript source.
    #[cfg_attr(
        feature = "clap",
        arg(
            required_unless_present = "path",
            conflicts_with = "path",
            allow_hyphen_values = true
        )
    )]
    pub script: Option<String>,
    /// An absolute path of a JavaScript file to read (UTF-8, at most 2 MiB).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "file",
            value_name = "PATH",
            help = "Read the script from this file"
        )
    )]
    pub path: Option<String>,
}

/// The check shared by the one-source parameter types: exactly one of two sources.
fn one_source(a: (&str, Option<&String>), b: (&str, Option<&String>)) -> Result<(), String> {
    match (a.1, b.1) {
        (Some(_), Some(_)) => Err(format!(
            "`{}` and `{}` exclude each other: give one",
            a.0, b.0
        )),
        (None, None) => Err(format!("give `{}` or `{}`", a.0, b.0)),
        (Some(s), None) if s.len() > MAX_SCRIPT_BYTES => invalid(
            a.0,
            format!("{} bytes, over the limit of {MAX_SCRIPT_BYTES}", s.len()),
        ),
        (Some(s), None) if s.trim().is_empty() => invalid(a.0, "empty"),
        (None, Some(s)) if s.trim().is_empty() => invalid(b.0, "empty"),
        _ => Ok(()),
    }
}

impl Validate for AddInitScriptParams {
    fn validate(&self) -> Result<(), String> {
        one_source(
            ("script", self.script.as_ref()),
            ("path", self.path.as_ref()),
        )?;
        if let Some(p) = &self.path
            && !std::path::Path::new(p).is_absolute()
        {
            return invalid(
                "path",
                format!("{p:?} is a relative path; give an absolute one"),
            );
        }
        Ok(())
    }
}

impl crate::ParamFacts for AddInitScriptParams {}

/// Parameters of `remove_init_script`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemoveInitScriptParams {
    /// The id `add_init_script` returned (`init-script-1`, ...).
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "ID",
            help = "The id addinitscript printed (init-script-1, ...)"
        )
    )]
    pub identifier: String,
}

impl Validate for RemoveInitScriptParams {}

impl crate::ParamFacts for RemoveInitScriptParams {}

/// Result of `add_init_script`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitScriptAdded {
    /// The script's id, for `remove_init_script`.
    pub id: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// How many open tabs it was added to (their next documents run it; so do new tabs').
    pub applied_tabs: usize,
}

/// Result of `remove_init_script`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitScriptRemoved {
    /// The id removed.
    pub removed: String,
    /// The ids of the init scripts left.
    pub remaining: Vec<String>,
}

/// Parameters of `add_script`: exactly one of `script` and `url`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddScriptParams {
    /// The JavaScript source, run now as a `<script>` in the active page.
    #[cfg_attr(
        feature = "clap",
        arg(
            required_unless_present = "url",
            conflicts_with = "url",
            allow_hyphen_values = true
        )
    )]
    pub script: Option<String>,
    /// The URL of a script (relative to the page) to load as `<script src>`; waits until it ran or failed.
    #[cfg_attr(feature = "clap", arg(long, value_name = "URL"))]
    pub url: Option<String>,
}

impl Validate for AddScriptParams {
    fn validate(&self) -> Result<(), String> {
        one_source(("script", self.script.as_ref()), ("url", self.url.as_ref()))
    }
}

impl crate::ParamFacts for AddScriptParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }
}

/// Parameters of `add_style`: exactly one of `content` and `url`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddStyleParams {
    /// CSS, added as a `<style>` to the active page.
    #[cfg_attr(
        feature = "clap",
        arg(
            value_name = "CSS",
            required_unless_present = "url",
            conflicts_with = "url"
        )
    )]
    pub content: Option<String>,
    /// The URL of a style sheet (relative to the page) to load as `<link rel=stylesheet>`; waits until it loaded or failed.
    #[cfg_attr(feature = "clap", arg(long, value_name = "URL"))]
    pub url: Option<String>,
}

impl Validate for AddStyleParams {
    fn validate(&self) -> Result<(), String> {
        one_source(
            ("content", self.content.as_ref()),
            ("url", self.url.as_ref()),
        )
    }
}

impl crate::ParamFacts for AddStyleParams {
    fn url_fields(&self) -> Vec<crate::UrlField<'_>> {
        crate::url_fields_of(&[("url", self.url.as_deref())])
    }
}

/// Result of `add_script` and `add_style`: what was added to the active page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Injected {
    /// `script` or `style`.
    pub kind: String,
    /// The tab it was added to.
    pub tab: String,
    /// The absolute URL loaded (null: inline source).
    pub url: Option<String>,
    /// The size of the inline source in bytes (null: a URL).
    pub bytes: Option<usize>,
}

impl Present for SettingsOutput {
    fn text(&self) -> String {
        let e = &self.emulation;
        let mut lines = Vec::new();
        if let Some(n) = self.applied_tabs {
            lines.push(format!(
                "applied to {n} open tab(s) and every tab opened later"
            ));
        }
        let or_default = |v: Option<String>| v.unwrap_or_else(|| "default".into());
        lines.push(format!(
            "viewport: {}",
            or_default(e.viewport.as_ref().map(|v| {
                format!(
                    "{}x{} scale {}{}",
                    v.width,
                    v.height,
                    v.device_scale_factor,
                    if v.mobile { " mobile" } else { "" }
                )
            }))
        ));
        if let Some(d) = &e.device {
            lines.push(format!(
                "device: {d}{}",
                if e.touch { " (touch)" } else { "" }
            ));
        }
        lines.push(format!("user agent: {}", or_default(e.user_agent.clone())));
        lines.push(format!(
            "media: color scheme {}, reduced motion {}, type {}",
            or_default(e.color_scheme.map(|c| c.as_str().into())),
            or_default(e.reduced_motion.map(|c| c.as_str().into())),
            or_default(e.media.map(|c| c.as_str().into())),
        ));
        if !e.features.is_empty() {
            let each: Vec<String> = e
                .features
                .iter()
                .map(|f| format!("{} {}", f.name, f.value))
                .collect();
            lines.push(format!("media features: {}", each.join(", ")));
        }
        lines.push(format!("timezone: {}", or_default(e.timezone.clone())));
        lines.push(format!("locale: {}", or_default(e.locale.clone())));
        lines.push(format!(
            "geolocation: {}",
            e.geolocation.as_ref().map_or("none".into(), |g| format!(
                "{}, {} (±{} m)",
                g.latitude, g.longitude, g.accuracy
            ))
        ));
        lines.push(format!(
            "permissions: {}",
            e.permissions.as_ref().map_or("default".into(), |p| format!(
                "{} for {}",
                p.permissions.join(", "),
                p.origin.as_deref().unwrap_or("every origin")
            ))
        ));
        lines.push(format!("offline: {}", if e.offline { "yes" } else { "no" }));
        lines.push(format!(
            "throttle: {}",
            e.throttle
                .as_ref()
                .map_or("none".into(), crate::Throttle::describe)
        ));
        if self.init_scripts.is_empty() {
            lines.push("init scripts: none".into());
        } else {
            lines.push("init scripts:".into());
            for s in &self.init_scripts {
                lines.push(format!("  {} ({} bytes) {}", s.id, s.bytes, s.preview));
            }
        }
        lines.join("\n")
    }
}

impl Present for DevicesOutput {
    fn text(&self) -> String {
        self.devices
            .iter()
            .map(|d| {
                format!(
                    "{}: {}x{} scale {}{}{}",
                    d.name,
                    d.width,
                    d.height,
                    d.device_scale_factor,
                    if d.mobile { " mobile" } else { "" },
                    if d.touch { " touch" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Present for InitScriptAdded {
    fn text(&self) -> String {
        format!(
            "{} ({} bytes): runs in every new document of {} open tab(s) and of tabs opened later",
            self.id, self.bytes, self.applied_tabs
        )
    }
}

impl Present for InitScriptRemoved {
    fn text(&self) -> String {
        format!(
            "removed {}; remaining: {}",
            self.removed,
            if self.remaining.is_empty() {
                "none".into()
            } else {
                self.remaining.join(", ")
            }
        )
    }
}

impl Present for Injected {
    fn text(&self) -> String {
        match (&self.url, self.bytes) {
            (Some(u), _) => format!("loaded {} {u} in tab {}", self.kind, self.tab),
            (None, Some(n)) => {
                format!("added inline {} ({n} bytes) to tab {}", self.kind, self.tab)
            }
            (None, None) => format!("added {} to tab {}", self.kind, self.tab),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_match_loosely_and_unknown_ones_list_close_names() {
        assert_eq!(device("iphone-15").unwrap().width, 393);
        assert_eq!(device("Pixel_8").unwrap().name, "Pixel 8");
        let e = device("iPhone 99").unwrap_err();
        assert!(e.contains("close names: iPhone 15, iPhone 15 Pro"), "{e}");
        let e = device("Nokia").unwrap_err();
        assert!(e.contains("known devices: iPhone 15"), "{e}");
    }

    #[test]
    fn ranges_and_exclusive_fields() {
        let vp = |w, h| SetViewportParams {
            width: w,
            height: h,
            ..Default::default()
        };
        assert!(vp(Some(800), Some(600)).validate().is_ok());
        assert!(vp(None, None).validate().is_ok());
        assert!(vp(Some(800), None).validate().is_err());
        assert!(
            vp(Some(0), Some(600))
                .validate()
                .unwrap_err()
                .contains("`width`")
        );
        let geo = SetGeolocationParams {
            latitude: Some(91.0),
            longitude: Some(0.0),
            accuracy: None,
        };
        assert!(geo.validate().unwrap_err().contains("`latitude`"));
        let perm = SetPermissionsParams {
            permissions: vec!["telepathy".into()],
            ..Default::default()
        };
        assert!(
            perm.validate()
                .unwrap_err()
                .contains("allowed: geolocation")
        );
        let both = AddScriptParams {
            script: Some("1".into()),
            url: Some("/a.js".into()),
        };
        assert!(both.validate().unwrap_err().contains("exclude"));
        assert!(AddStyleParams::default().validate().is_err());
        assert!(
            SetLocaleParams {
                locale: Some("de DE".into())
            }
            .validate()
            .is_err()
        );
        assert!(
            SetLocaleParams {
                locale: Some("de-DE".into())
            }
            .validate()
            .is_ok()
        );
    }
}
