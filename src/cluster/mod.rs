//! A policy's cluster on a canvas, apart from the component that shows it
//! ([`crate::components::cluster_canvas`]): where things go and what a click hits
//! ([`layout`]), and the painting ([`paint`]). A model whose servers need a new kind of picture
//! (a new `Drawing`) is drawn here.

pub mod layout;
pub mod paint;
pub mod pen;
