//! Hooks that several components use, one per file.
//!
//! * [`use_lab_race`]: the race, load marks, keyboard and chart theme of the full page and the
//!   embedded one;
//! * [`use_keyboard`]: the page's shortcuts;
//! * [`use_live_knobs`]: the form's knobs change a playing race where it is;
//! * [`use_system_dark`]: whether the system asks for dark colours;
//! * [`use_media`]: whether a media query matches (the narrow layout);
//! * [`use_pause_when_hidden`]: an embedded race pauses while out of sight;
//! * [`use_canvas_size`]: a canvas's CSS size from a ResizeObserver;
//! * [`use_backdrop`]: the colour behind a canvas drawn opaque, followed across themes;
//! * [`use_staged`]: a view drawn in stages, a task each (the lab's first render);
//! * [`use_text_pace`]: the race as its text shows it, ten times a second while it plays.
//!
//! The race itself is played through [`crate::play::use_race`].

pub mod use_backdrop;
pub mod use_canvas_size;
pub mod use_keyboard;
pub mod use_lab_race;
pub mod use_live_knobs;
pub mod use_media;
pub mod use_pause_when_hidden;
pub mod use_staged;
pub mod use_system_dark;
pub mod use_text_pace;
