//! The palettes, and what a curve or a reference line stands for ([`Ink`]), which decides
//! its colour, its line and its marker.

use plotters::style::RGBColor;

/// Okabe–Ito colours (yellow left out: too faint on white), in series order: policies.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// Paul Tol's "light" colours, for classes, size bins and VM types. The order puts the light
/// colours least like the policies' first (yellow, cyan, pear), so a lane whose jobs are of
/// class 1 or 2 does not take on a policy's colour.
pub const CLASS_PALETTE: [RGBColor; 8] = [
    RGBColor(0xEE, 0xDD, 0x88), // light yellow
    RGBColor(0x99, 0xDD, 0xFF), // light cyan
    RGBColor(0xBB, 0xCC, 0x33), // pear
    RGBColor(0xFF, 0xAA, 0xBB), // pink
    RGBColor(0x44, 0xBB, 0x99), // mint
    RGBColor(0xEE, 0x88, 0x66), // orange
    RGBColor(0x77, 0xAA, 0xDD), // light blue
    RGBColor(0xAA, 0xAA, 0x00), // olive
];

/// The dark grey that cases class lines and outlines class blocks.
pub const CASING: RGBColor = RGBColor(0x44, 0x44, 0x44);
/// Reference lines (bounds, offered load).
pub(crate) const REFERENCE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// The colour of series `i`, as CSS hex (for legends drawn outside the chart).
pub fn css_color(i: usize) -> String {
    Ink::Policy(i).css()
}

/// The casing of class lines and the outline of class blocks, as CSS hex.
pub fn casing_css() -> String {
    let RGBColor(r, g, b) = CASING;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// What a curve or a reference line stands for, which decides its colour and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ink {
    /// Policy `i`: Okabe–Ito, a solid line.
    Policy(usize),
    /// Class, size bin or VM type `i`: Tol's light colours, a line cased in dark grey.
    Class(usize),
    /// A reference value (a bound, the offered load): grey.
    Reference,
}

impl Ink {
    pub fn rgb(self) -> RGBColor {
        match self {
            Ink::Policy(i) => PALETTE[i % PALETTE.len()],
            Ink::Class(i) => CLASS_PALETTE[i % CLASS_PALETTE.len()],
            Ink::Reference => REFERENCE,
        }
    }

    /// As CSS hex.
    pub fn css(self) -> String {
        let RGBColor(r, g, b) = self.rgb();
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The marker shape (one of four), so series differ by more than colour.
    pub(crate) fn shape(self) -> usize {
        match self {
            Ink::Policy(i) | Ink::Class(i) => i % 4,
            Ink::Reference => 0,
        }
    }
}
