//! The live charts, apart from the components that show them: which charts there are
//! ([`kind`]), what each plots of a snapshot ([`live`]), and drawing a packlab-plot chart on a
//! canvas or as SVG ([`canvas`]), the same chart code the CLI uses for its SVG figures, and in
//! words for a screen reader ([`describe`]).

pub mod canvas;
pub mod describe;
pub mod kind;
pub mod live;
