//! The handler of every protocol command, under the command's variant name, and the dispatch
//! generated from the protocol's one list of commands: a command without a handler here, or a
//! handler whose result is not the command's declared output, does not compile. Each capability
//! module names its handlers in its `handles` module; adding a command to a capability is its
//! handler and its name there (a new capability module: one glob line here).

use agentbrowser_protocol::*;

use crate::cx::Cx;
pub(crate) use crate::cx::Output;
use crate::error::Result;

pub(crate) use crate::audit::handles::*;
pub(crate) use crate::capture::handles::*;
pub(crate) use crate::clipboard::handles::*;
pub(crate) use crate::control::handles::*;
pub(crate) use crate::devices::handles::*;
pub(crate) use crate::devtools::handles::*;
pub(crate) use crate::diagnostics::handles::*;
pub(crate) use crate::dialogs::handles::*;
pub(crate) use crate::diff::handles::*;
pub(crate) use crate::drag::handles::*;
pub(crate) use crate::emulation::handles::*;
pub(crate) use crate::files::handles::*;
pub(crate) use crate::frames::handles::*;
pub(crate) use crate::highlight::handles::*;
pub(crate) use crate::interact::handles::*;
pub(crate) use crate::intercept::handles::*;
pub(crate) use crate::layout::handles::*;
pub(crate) use crate::live::handles::*;
pub(crate) use crate::nav::handles::*;
pub(crate) use crate::network::handles::*;
pub(crate) use crate::profiler::handles::*;
pub(crate) use crate::read::handles::*;
pub(crate) use crate::reading::handles::*;
pub(crate) use crate::record::handles::*;
pub(crate) use crate::recorder::handles::*;
pub(crate) use crate::safety::confirm::handles::*;
pub(crate) use crate::session_id::handles::*;
pub(crate) use crate::snapshot::handles::*;
pub(crate) use crate::state::handles::*;
pub(crate) use crate::tabs::handles::*;
pub(crate) use crate::targets::handles::*;
pub(crate) use crate::wait::handles::*;
pub(crate) use crate::webmcp::handles::*;

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
