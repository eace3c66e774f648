//! The page's colours ([`ThemeChoice`]) and presenter mode: their link keys, and the chart theme
//! they give.

use packlab_core::ConfigError;

/// The link key of the colour theme (`theme=dark`).
pub const THEME_KEY: &str = "theme";
/// The link key of presenter mode (`present=1`).
pub const PRESENT_KEY: &str = "present";

/// The page's colours: the system's choice (`prefers-color-scheme`) unless one is picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
    HighContrast,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 4] =
        [ThemeChoice::Auto, ThemeChoice::Light, ThemeChoice::Dark, ThemeChoice::HighContrast];

    /// The link form, also the `data-theme` of the page.
    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
            ThemeChoice::HighContrast => "high-contrast",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "as the system",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
            ThemeChoice::HighContrast => "high contrast",
        }
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        Self::ALL.into_iter().find(|t| t.name() == text.trim()).ok_or_else(|| {
            ConfigError::new(THEME_KEY, format!("must be auto, light, dark or high-contrast (got '{}')", text.trim()))
        })
    }

    /// Whether the colours are dark: picked so, or following a system that prefers them.
    pub fn is_dark(self, system_dark: bool) -> bool {
        self == ThemeChoice::Dark || (self == ThemeChoice::Auto && system_dark)
    }

    /// The chart theme, with `system_dark` saying what the system prefers.
    pub fn chart_theme(self, system_dark: bool, presenting: bool) -> packlab_plot::Theme {
        let theme = match self {
            _ if self.is_dark(system_dark) => packlab_plot::Theme::DARK,
            ThemeChoice::HighContrast => packlab_plot::Theme::HIGH_CONTRAST,
            _ => packlab_plot::Theme::LIGHT,
        };
        if presenting { theme.presenting() } else { theme }
    }
}
