//! The page's colours (the core's [`ThemeChoice`], a page key) and the chart theme they give.

pub use packlab_core::page::Theme as ThemeChoice;

/// The chart theme of `choice`, with `system_dark` saying what the system prefers, thicker for
/// presenting.
pub fn chart_theme(choice: ThemeChoice, system_dark: bool, presenting: bool) -> packlab_plot::Theme {
    let theme = match choice {
        _ if choice.is_dark(system_dark) => packlab_plot::Theme::DARK,
        ThemeChoice::HighContrast => packlab_plot::Theme::HIGH_CONTRAST,
        _ => packlab_plot::Theme::LIGHT,
    };
    if presenting { theme.presenting() } else { theme }
}
