//! The link codec of the lab: the state a link describes ([`Lab::from_link`]) and the link that
//! reproduces a state ([`Lab::query`]). The page's own keys (speed, theme, presenter mode,
//! embedding, tours, the moment to open at) are the core's rows ([`packlab_core::page`]), so
//! the page, its workers and `packlab run --link` read them alike.

use std::rc::Rc;

use packlab_core::link::{decode_link, encode_link};
use packlab_core::page::PageSettings;
use packlab_core::scenario::Setup;

use crate::state::views::{Embed, View};
use crate::state::{Lab, MAX_POLICIES, raced_policies, too_many_policies};

impl Lab {
    /// The state a link describes: a full URL or just its query. Every bad key becomes a
    /// notice and the rest loads.
    pub fn from_link(input: &str) -> Self {
        let (link, errors) = decode_link(input);
        // A link without policies races what choosing its preset races.
        let policies = if link.named_policies { link.policies } else { raced_policies(&link.policies) };
        let page = link.page;
        let mut lab = Lab {
            setup: Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies }),
            speed: page.speed(),
            notices: Vec::new(),
            embed: page.embed.then(|| Embed { views: page.views.iter().filter_map(|v| View::named(v)).collect() }),
            theme: page.theme,
            present: page.present,
            gallery: link_is_bare(input),
            tour: None,
            open_at: page.at,
            predictions: Vec::new(),
            finished_tour: None,
            map: page.map.clone(),
            attempt: None,
            pending_trace: None,
            live_note: None,
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
        // A tour's step sets the scenario, whatever else the link says.
        if let Some(at) = page.tour {
            lab.go_to(at);
            // The core kept it only for an exercise's step.
            lab.attempt = page.attempt;
        }
        lab
    }

    /// The page's keys of this state, as a link writes them.
    pub fn page(&self) -> PageSettings {
        PageSettings {
            speed: Some(self.speed),
            theme: self.theme,
            present: self.present,
            embed: self.embed.is_some(),
            views: self.embed.iter().flat_map(|e| e.views.iter().map(|v| v.name())).collect(),
            tour: self.tour,
            at: self.open_at,
            map: self.map.clone(),
            attempt: self.attempt.clone(),
        }
    }

    /// The link query (without `?`) that reproduces this state; empty for the gallery.
    pub fn query(&self) -> String {
        if self.gallery {
            return String::new();
        }
        let s = &self.setup;
        encode_link(&s.preset, &s.policies, &s.scenario, &self.page())
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
