//! Whether the system asks for dark colours (`prefers-color-scheme`), followed while the page is
//! open.

use yew::prelude::*;

use crate::hooks::use_media::use_media;

/// Whether the system asks for dark colours, following its changes while the page is open.
#[hook]
pub fn use_system_dark() -> bool {
    use_media("(prefers-color-scheme: dark)")
}
