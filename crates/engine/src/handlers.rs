//! The handler of every protocol command, under the command's variant name: the dispatch
//! (`session.rs`) is generated from the protocol's one list of commands, so a command without a
//! handler here does not compile. Adding a command: its handler in its capability's module, and
//! one line here.

pub(crate) use crate::control::{close as Close, launch as Launch, status as Status};
pub(crate) use crate::diff::handle as Diff;
pub(crate) use crate::interact::{
    check as Check, clear as Clear, click as Click, fill as Fill, focus as Focus, hover as Hover,
    press as Press, scroll_into_view as ScrollIntoView, select as Select, tap as Tap,
    type_text as Type, uncheck as Uncheck,
};
pub(crate) use crate::nav::{
    back as Back, eval as Eval, forward as Forward, open as Open, reload as Reload, title as Title,
    url as Url,
};
pub(crate) use crate::read::{
    attribute as Attribute, count as Count, html as Html, inner_text as InnerText,
    input_value as InputValue, is_checked as IsChecked, is_enabled as IsEnabled,
    is_visible as IsVisible, text as Text,
};
pub(crate) use crate::snapshot::handle as Snapshot;
pub(crate) use crate::tabs::{
    tab_close as TabClose, tab_list as TabList, tab_new as TabNew, tab_switch as TabSwitch,
};
pub(crate) use crate::wait::handle as Wait;
