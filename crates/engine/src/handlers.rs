//! The handler of every protocol command, under the command's variant name, and the dispatch
//! generated from the protocol's one list of commands: a command without a handler here, or a
//! handler whose result is not the command's declared output, does not compile. Adding a
//! command: its handler in its capability's module, and one line here.

use agentbrowser_protocol::*;

use crate::cx::Cx;
pub(crate) use crate::cx::Output;
use crate::error::Result;

pub(crate) use crate::audit::{a11y as A11y, vitals as Vitals};
pub(crate) use crate::capture::{pdf as Pdf, screenshot as Screenshot};
pub(crate) use crate::clipboard::{
    copy as ClipboardCopy, paste as ClipboardPaste, read as ClipboardRead, write as ClipboardWrite,
};
pub(crate) use crate::control::{close as Close, launch as Launch, status as Status};
pub(crate) use crate::devices::{
    keyboard_down as KeyboardDown, keyboard_insert_text as KeyboardInsertText,
    keyboard_type as KeyboardType, keyboard_up as KeyboardUp, mouse_down as MouseDown,
    mouse_move as MouseMove, mouse_up as MouseUp, mouse_wheel as MouseWheel,
};
pub(crate) use crate::devtools::cdp_url as CdpUrl;
pub(crate) use crate::diagnostics::{console as Console, errors as Errors};
pub(crate) use crate::dialogs::{
    accept as DialogAccept, dismiss as DialogDismiss, status as DialogStatus,
};
pub(crate) use crate::diff::handle as Diff;
pub(crate) use crate::drag::drag as Drag;
pub(crate) use crate::emulation::set_throttle as SetThrottle;
pub(crate) use crate::emulation::{
    add_init_script as AddInitScript, add_script as AddScript, add_style as AddStyle,
    devices_list as Devices, remove_init_script as RemoveInitScript, set_device as SetDevice,
    set_geolocation as SetGeolocation, set_locale as SetLocale, set_media as SetMedia,
    set_offline as SetOffline, set_permissions as SetPermissions, set_timezone as SetTimezone,
    set_user_agent as SetUserAgent, set_viewport as SetViewport, settings as Settings,
};
pub(crate) use crate::files::{
    download as Download, upload as Upload, wait_download as WaitDownload,
};
pub(crate) use crate::frames::{frame as Frame, frames as Frames};
pub(crate) use crate::interact::{
    check as Check, clear as Clear, click as Click, fill as Fill, focus as Focus, hover as Hover,
    press as Press, scroll_into_view as ScrollIntoView, select as Select, tap as Tap,
    type_text as Type, uncheck as Uncheck,
};
pub(crate) use crate::intercept::{
    route as NetworkRoute, routes as NetworkRoutes, set_credentials as SetCredentials,
    set_headers as SetHeaders, unroute as NetworkUnroute,
};
pub(crate) use crate::layout::{
    bbox as Box, geometry as Geometry, scroll as Scroll, styles as Styles,
};
pub(crate) use crate::nav::{
    back as Back, eval as Eval, forward as Forward, open as Open, reload as Reload, title as Title,
    url as Url,
};
pub(crate) use crate::network::{
    har_start as HarStart, har_stop as HarStop, request as NetworkRequest,
    requests as NetworkRequests,
};
pub(crate) use crate::read::{
    attribute as Attribute, count as Count, html as Html, inner_text as InnerText,
    input_value as InputValue, is_checked as IsChecked, is_enabled as IsEnabled,
    is_visible as IsVisible, options as Options, text as Text,
};
pub(crate) use crate::reading::read as Read;
pub(crate) use crate::safety::confirm::{confirm as Confirm, deny as Deny};
pub(crate) use crate::session_id::session_id as SessionId;
pub(crate) use crate::snapshot::handle as Snapshot;
pub(crate) use crate::state::{
    auth_delete as AuthDelete, auth_list as AuthList, auth_login as AuthLogin,
    auth_save as AuthSave, auth_show as AuthShow,
};
pub(crate) use crate::state::{
    cookies_clear as CookiesClear, cookies_get as CookiesGet, cookies_set as CookiesSet,
    state_clean as StateClean, state_clear as StateClear, state_list as StateList,
    state_load as StateLoad, state_rename as StateRename, state_save as StateSave,
    state_show as StateShow, storage_clear as StorageClear, storage_get as StorageGet,
    storage_remove as StorageRemove, storage_set as StorageSet,
};
pub(crate) use crate::tabs::{
    tab_close as TabClose, tab_list as TabList, tab_new as TabNew, tab_switch as TabSwitch,
};
pub(crate) use crate::targets::find as Find;
pub(crate) use crate::wait::handle as Wait;
pub(crate) use crate::webmcp::{
    webmcp_cancel as WebmcpCancel, webmcp_invoke as WebmcpInvoke, webmcp_list as WebmcpList,
    webmcp_result as WebmcpResult,
};

/// Runs a command's handler (see `handlers`); generated from the protocol's list of commands.
macro_rules! define_dispatch {
    ($( $(#[doc = $doc:literal])* $variant:ident($params:ty) -> $output:ty => $name:literal [$kind:ident $(| $script:ident)?] $({ $($facts:tt)* })? ),+ $(,)?) => {
        pub(crate) async fn dispatch(command: Checked, cx: &mut Cx<'_>) -> Result<Output> {
            // Checked once on its way in (parsed, or `Request::check`): not again here.
            match command.into_inner() {
                $(Command::$variant(p) => {
                    // Boxed: the dispatch future is otherwise as large as the largest handler's
                    // (hundreds of them, some deep), which overflowed 2 MiB thread stacks.
                    let out: $output = Box::pin($variant(p, cx)).await?;
                    Ok(Box::new(out))
                })+
            }
        }
    };
}
agentbrowser_protocol::for_each_command!(define_dispatch);
