//! The link codec of the lab: the state a link describes ([`Lab::from_link`]) and the link that
//! reproduces a state ([`Lab::query`]), with the page-only keys (speed, theme, presenter mode,
//! embedding, tours, the moment to open at) besides the scenario's.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::scenario::{PAGE_KEYS, Setup, decode_link, encode_link};
use packlab_core::tours;

use crate::state::speed::{SPEED_KEY, Speed};
use crate::state::theme::{PRESENT_KEY, THEME_KEY, ThemeChoice};
use crate::state::tour::{STEP_KEY, TOUR_KEY, TourAt};
use crate::state::views::{EMBED_KEY, Embed, VIEWS_KEY, View};
use crate::state::{Lab, MAX_POLICIES, raced_policies, too_many_policies};

/// The moment a link opens at (`t=1200`): the page plays there at full speed and pauses.
pub const TIME_KEY: &str = "t";

impl Lab {
    /// The state a link describes: a full URL or just its query. Every bad key becomes a
    /// notice and the rest loads.
    pub fn from_link(input: &str) -> Self {
        let (link, errors) = decode_link(input, PAGE_KEYS);
        // A link without policies races what choosing its preset races.
        let policies = if link.named_policies { link.policies } else { raced_policies(&link.policies) };
        let mut lab = Lab {
            setup: Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies }),
            speed: Speed::DEFAULT,
            notices: Vec::new(),
            embed: None,
            theme: ThemeChoice::Auto,
            present: false,
            gallery: link_is_bare(input),
            tour: None,
            open_at: None,
        };
        // One notice per key, saying everything the link got wrong about it (`policy=msf,dra`
        // on a PG-RR preset names both).
        for error in errors {
            match lab.notices.iter_mut().find(|n| n.key == error.key) {
                Some(earlier) => earlier.message = format!("{}; {}", earlier.message, error.message),
                None => lab.notices.push(error),
            }
        }
        if lab.setup.policies.len() > MAX_POLICIES {
            lab.notice(too_many_policies());
            Rc::make_mut(&mut lab.setup).policies.truncate(MAX_POLICIES);
        }
        let mut views = Vec::new();
        for (key, value) in &link.extras {
            let result = match key.as_str() {
                SPEED_KEY => Speed::parse(value).map(|speed| lab.speed = speed),
                EMBED_KEY => match value.trim() {
                    "1" | "true" => {
                        lab.embed = Some(Embed::default());
                        Ok(())
                    }
                    "0" | "false" => {
                        lab.embed = None;
                        Ok(())
                    }
                    other => Err(ConfigError::new(EMBED_KEY, format!("must be 1 or 0 (got '{other}')"))),
                },
                VIEWS_KEY => View::parse_list(value).map(|v| views = v),
                THEME_KEY => ThemeChoice::parse(value).map(|t| lab.theme = t),
                PRESENT_KEY => match value.trim() {
                    "1" | "true" => {
                        lab.present = true;
                        Ok(())
                    }
                    "0" | "false" => Ok(()),
                    other => Err(ConfigError::new(PRESENT_KEY, format!("must be 1 or 0 (got '{other}')"))),
                },
                TIME_KEY => {
                    let horizon = lab.setup.scenario.horizon();
                    let info = lab.setup.scenario.info();
                    let slotted = info.time == packlab_core::models::TimeUnit::Slots;
                    value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|t| (0.0..=horizon as f64).contains(t) && (!slotted || t.fract() == 0.0))
                        .map(|t| lab.open_at = Some(t))
                        .ok_or_else(|| {
                            let kind = if slotted {
                                format!("a whole number of {}", info.time.plural())
                            } else {
                                format!("a number of {}", info.time.plural())
                            };
                            ConfigError::new(
                                TIME_KEY,
                                format!(
                                    "must be a moment of the run, {kind} in 0..={horizon} (got '{}')",
                                    value.trim()
                                ),
                            )
                        })
                }
                _ => Ok(()),
            };
            if let Err(e) = result {
                lab.notice(e);
            }
        }
        if let Some(embed) = &mut lab.embed {
            embed.views = views;
        }
        // A tour's step sets the scenario, whatever else the link says.
        let tour = link.extras.iter().rev().find(|(k, _)| k == TOUR_KEY).map(|(_, v)| v.clone());
        if let Some(id) = tour {
            let step = link.extras.iter().rev().find(|(k, _)| k == STEP_KEY).map(|(_, v)| v.clone());
            match tours::tour(&id) {
                Ok(tour) => {
                    let count = tour.steps.len();
                    let k = match step.as_deref().map(str::trim) {
                        None => Ok(0),
                        Some(text) => {
                            text.parse::<usize>().ok().filter(|k| (1..=count).contains(k)).map(|k| k - 1).ok_or_else(
                                || {
                                    ConfigError::new(
                                        STEP_KEY,
                                        format!("must be a step of the tour, an integer in 1..={count} (got '{text}')"),
                                    )
                                },
                            )
                        }
                    };
                    match k {
                        Ok(k) => lab.go_to(TourAt { tour, step: k }),
                        Err(e) => {
                            lab.notice(e);
                            lab.go_to(TourAt { tour, step: 0 });
                        }
                    }
                }
                Err(e) => lab.notice(e),
            }
        }
        lab
    }

    /// The link query (without `?`) that reproduces this state; empty for the gallery.
    pub fn query(&self) -> String {
        if self.gallery {
            return String::new();
        }
        let s = &self.setup;
        let mut extras =
            if self.speed == Speed::DEFAULT { Vec::new() } else { vec![(SPEED_KEY, self.speed.to_string())] };
        if let Some(at) = &self.tour {
            extras.push((TOUR_KEY, at.tour.id.to_string()));
            extras.push((STEP_KEY, (at.step + 1).to_string()));
        }
        if self.theme != ThemeChoice::Auto {
            extras.push((THEME_KEY, self.theme.name().into()));
        }
        if self.present {
            extras.push((PRESENT_KEY, "1".into()));
        }
        if let Some(t) = self.open_at {
            extras.push((TIME_KEY, t.to_string()));
        }
        if let Some(embed) = &self.embed {
            extras.push((EMBED_KEY, "1".into()));
            if !embed.views.is_empty() {
                let names: Vec<&str> = embed.views.iter().map(|v| v.name()).collect();
                extras.push((VIEWS_KEY, names.join(",")));
            }
        }
        encode_link(&s.preset, &s.policies, &s.scenario, &extras)
    }

    /// The link query of this state opening at moment `t` (none: from time 0).
    pub fn query_at(&self, t: Option<f64>) -> String {
        Lab { open_at: t, ..self.clone() }.query()
    }
}

/// Whether a link (a full URL or its query) has no key at all: the page's own address,
/// which opens the gallery.
fn link_is_bare(input: &str) -> bool {
    let input = input.trim();
    let query = match input.split_once('?') {
        Some((_, query)) => query,
        None if input.contains("://") => "",
        None => input,
    };
    query.split('#').next().unwrap_or("").trim_matches('&').is_empty()
}
