//! A policy's colour as a legend entry, drawn as packlab-plot draws it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SwatchProps {
    /// Palette index.
    pub color: usize,
    /// Whether the chart marks the curve's points (then the legend shows the marker too).
    #[prop_or_default]
    pub markers: bool,
}

/// A legend entry drawn like packlab-plot's: the line, with the series' marker if its points
/// are marked. SVG presentation attributes, not inline styles, so the page's CSP needs no
/// `'unsafe-inline'`.
#[component]
pub fn Swatch(props: &SwatchProps) -> Html {
    let color = packlab_plot::css_color(props.color);
    // packlab-plot's marker order: circle, triangle, square, cross.
    let marker = match (props.markers, props.color % 4) {
        (false, _) => html! {},
        (true, 0) => html! { <circle cx="9" cy="6" r="3.5" fill={color.clone()} /> },
        (true, 1) => html! { <polygon points="9,1.5 13.5,9.5 4.5,9.5" fill={color.clone()} /> },
        (true, 2) => html! { <rect x="6" y="3" width="6" height="6" fill={color.clone()} /> },
        (true, _) => {
            html! { <path d="M5.5,2.5 L12.5,9.5 M12.5,2.5 L5.5,9.5" stroke={color.clone()} stroke-width="2" /> }
        }
    };
    html! {
        <svg class="swatch" width="18" height="12" viewBox="0 0 18 12" aria-hidden="true">
            <line x1="0" y1="6" x2="18" y2="6" stroke={color} stroke-width="2.5" />
            { marker }
        </svg>
    }
}
