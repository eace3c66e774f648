//! The colours and weights a chart is drawn with.

use packlab_core::stability::Verdict;
use plotters::style::RGBColor;

use crate::ink::{Ink, REFERENCE};

/// The colours and weights a chart is drawn with: the light theme of papers and the CLI's
/// SVGs, a dark one, a high-contrast one, and any of them for presenting (thicker lines,
/// larger text, for the back of a lecture hall).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    /// Titles, ticks, axes.
    pub ink: RGBColor,
    /// Legend and reference-line labels.
    pub text: RGBColor,
    /// The major and minor grid lines.
    pub grid: RGBColor,
    pub fine_grid: RGBColor,
    /// Reference lines (bounds, offered load).
    pub reference: RGBColor,
    /// Width of the curves in pixels.
    pub line_width: u32,
    /// Text sizes are multiplied by it.
    pub text_scale: f64,
    /// The stability map's verdicts: stable, not stable, undecided. Each at least 3:1 against
    /// the background (WCAG's contrast for graphics), and told apart by shape as well.
    pub verdicts: [RGBColor; 3],
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        ink: RGBColor(0x00, 0x00, 0x00),
        text: RGBColor(0x22, 0x22, 0x22),
        grid: RGBColor(0xCC, 0xCC, 0xCC),
        fine_grid: RGBColor(0xEE, 0xEE, 0xEE),
        reference: REFERENCE,
        line_width: 2,
        text_scale: 1.0,
        verdicts: [RGBColor(0x1B, 0x78, 0x37), RGBColor(0xB2, 0x18, 0x2B), RGBColor(0x6A, 0x6A, 0x6A)],
    };
    pub const DARK: Theme = Theme {
        background: RGBColor(0x16, 0x1A, 0x21),
        ink: RGBColor(0xE6, 0xE9, 0xEE),
        text: RGBColor(0xD4, 0xD8, 0xDE),
        grid: RGBColor(0x44, 0x4B, 0x56),
        fine_grid: RGBColor(0x24, 0x29, 0x31),
        reference: RGBColor(0xA8, 0xB0, 0xBB),
        line_width: 2,
        text_scale: 1.0,
        verdicts: [RGBColor(0x7F, 0xBF, 0x7B), RGBColor(0xFF, 0x8A, 0x80), RGBColor(0xC2, 0xC8, 0xD0)],
    };
    pub const HIGH_CONTRAST: Theme = Theme {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        ink: RGBColor(0x00, 0x00, 0x00),
        text: RGBColor(0x00, 0x00, 0x00),
        grid: RGBColor(0x66, 0x66, 0x66),
        fine_grid: RGBColor(0xBB, 0xBB, 0xBB),
        reference: RGBColor(0x00, 0x00, 0x00),
        line_width: 3,
        text_scale: 1.0,
        verdicts: [RGBColor(0x00, 0x64, 0x00), RGBColor(0xA0, 0x00, 0x00), RGBColor(0x00, 0x00, 0x00)],
    };

    /// The same colours with lines and text for a projector.
    pub const fn presenting(self) -> Theme {
        Theme { line_width: self.line_width + 2, text_scale: 1.45, ..self }
    }

    /// The colour `ink` takes on this theme: a reference line takes the theme's, and a black
    /// series turns to the theme's ink on a dark background.
    pub fn color(&self, ink: Ink) -> RGBColor {
        match ink {
            Ink::Reference => self.reference,
            _ if ink.rgb() == RGBColor(0, 0, 0) => self.ink,
            _ => ink.rgb(),
        }
    }

    /// The colour of `verdict` on this theme.
    pub fn verdict(&self, verdict: Verdict) -> RGBColor {
        match verdict {
            Verdict::Stable => self.verdicts[0],
            Verdict::Unstable => self.verdicts[1],
            Verdict::Undecided => self.verdicts[2],
        }
    }

    /// [`Theme::verdict`] as CSS hex, for legends drawn outside the chart.
    pub fn verdict_css(&self, verdict: Verdict) -> String {
        let RGBColor(r, g, b) = self.verdict(verdict);
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// A text size on this theme.
    pub(crate) fn size(&self, size: u32) -> u32 {
        (f64::from(size) * self.text_scale).round() as u32
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::LIGHT
    }
}
