//! The page's components, one view or panel per file. They draw and dispatch [`Action`]s to the
//! reducer ([`crate::state`]); none of them simulates: the race is played through
//! [`crate::play::use_race`] and they render its snapshots.
//!
//! * [`app`]: the root, routing to the gallery, the workbench or the embedded page;
//! * [`gallery`]: the landing view, every preset as a card with its thumbnail (markup and
//!   thumbnails written when the page is built: [`crate::first_paint`]);
//! * [`preset_picker`]: the preset picker in the header;
//! * [`scripts_loading`]: what the page's first download shows while it loads the build with
//!   the script engine;
//! * [`workbench`]: the full page's lab; [`embedded`]: the lab inside an iframe;
//! * [`notices`], [`tour_panel`], [`keyboard_help`]: rejected input, a guided tour's step, the
//!   list of shortcuts;
//! * [`form`]: the scenario form (preset, policies and lanes, keys and their editors);
//! * [`playback`], [`timeline`]: the playback bar and the scrubber under it;
//! * [`record`]: recording the lanes and charts as a video;
//! * [`stats_table`], [`swatch`]: the numbers of each policy, and its colour as a legend entry;
//! * [`lanes`], [`cluster_canvas`]: each policy's cluster;
//! * [`event_log`], [`inspector`]: the decisions and why;
//! * [`charts`], [`live_chart`]: the live charts;
//! * [`theory_view`]: what the scenario's theory draws without simulating, computed on the page;
//! * [`sweep_view`]: a preset's swept figure, run in Web Workers;
//! * [`stability_view`]: the stability map, computed in Web Workers round after round;
//! * [`map_chart`]: the map's chart, its tested loads coloured by verdict and clickable;
//! * [`share`]: the link, the command and the exports.
//!
//! [`Action`]: crate::state::Action

pub mod announcer;
pub mod app;
pub mod charts;
pub mod cluster_canvas;
pub mod embedded;
pub mod event_log;
pub mod exercise_panel;
pub mod form;
pub mod gallery;
pub mod inspector;
pub mod keyboard_help;
pub mod lanes;
pub mod live_chart;
pub mod map_chart;
pub mod notices;
pub mod playback;
pub mod preset_picker;
pub mod record;
pub mod recovery_table;
pub mod scripts_loading;
pub mod share;
pub mod stability_view;
pub mod stats_table;
pub mod swatch;
pub mod sweep_view;
pub mod theory_view;
pub mod timeline;
pub mod tour_panel;
pub mod workbench;
