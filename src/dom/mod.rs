//! The page's plumbing: what talks to the browser directly (web-sys, js-sys) and is shared by
//! several parts of the page, so the components, the race and the sweep say what they do and
//! leave the how here.
//!
//! * [`page`]: the page's address, form values, media queries, element sizes, downloads;
//! * [`workers`]: starting Web Workers on the page's own wasm, and the clock they share;
//! * [`cores`]: the cores shared between the race that plays and the sweeps and maps;
//! * [`focus`]: where the keyboard focus goes when what held it leaves, and the page's title;
//! * [`recorder`]: the lanes and charts recorded as a WebM video;
//! * [`crash`]: the message a panic leaves on the page;
//! * [`boot`]: what the app and www/boot.js tell each other (the first picture, the script engine).

pub mod boot;
pub mod cores;
pub mod crash;
pub mod focus;
pub mod page;
pub mod recorder;
pub mod workers;
