use packlab_core::scenario::presets;
use packlab_core::tours::TOURS;
use serde_json::Value;

use super::*;

fn all() -> Value {
    serde_json::from_str(&first_paint()).expect("first_paint writes JSON")
}

#[test]
fn every_preset_and_tour_step_has_a_first_picture_and_the_gallery_every_card() {
    let all = all();
    let gallery = all["gallery"].as_str().unwrap();
    for preset in presets() {
        let lab = all["labs"][preset.id].as_str().unwrap_or_else(|| panic!("no first picture of {}", preset.id));
        assert!(lab.contains(&escape(preset.figure)), "{}: its figure", preset.id);
        assert!(gallery.contains(&format!("data-preset=\"{}\"", preset.id)), "{}: its card", preset.id);
        let theory_only = preset.scenario.any().theory_only();
        assert_eq!(all["thumbnails"].get(preset.id).is_some(), !theory_only, "{}: a thumbnail if it runs", preset.id);
        if !theory_only {
            assert!(lab.contains("<svg class=\"cluster still\""), "{}: its lanes at time 0", preset.id);
        }
    }
    for tour in TOURS {
        assert!(gallery.contains(&format!("data-tour=\"{}\"", tour.id)));
        for k in 1..=tour.steps.len() {
            let shell = all["tours"][format!("{}-{k}", tour.id)].as_str().unwrap();
            assert!(shell.contains(&escape(tour.steps[k - 1].text)), "{} step {k}: its text", tour.id);
        }
    }
    assert!(all["data"]["presets"].as_array().unwrap().len() == presets().len());
}

#[test]
fn the_first_picture_has_no_inline_style_or_script_and_no_ids_to_clash_with_the_app() {
    // The page's Content-Security-Policy refuses inline styles and scripts; the app mounts
    // beside the first picture for a moment, so an id would be there twice.
    let all = all();
    let mut pictures: Vec<&str> = vec![all["gallery"].as_str().unwrap()];
    pictures.extend(all["labs"].as_object().unwrap().values().filter_map(Value::as_str));
    pictures.extend(all["tours"].as_object().unwrap().values().filter_map(Value::as_str));
    for html in pictures {
        for bad in [" style=", "<script", " id=\""] {
            assert!(!html.contains(bad), "{bad} in {}", &html[..200.min(html.len())]);
        }
        // No event handler attribute (` onclick="`): a tag's attribute names are letters.
        let handler = html.match_indices(" on").any(|(at, _)| {
            let name: String = html[at + 1..].chars().take_while(char::is_ascii_lowercase).collect();
            html[at + 1 + name.len()..].starts_with("=\"")
        });
        assert!(!handler, "an event handler attribute");
    }
}

#[test]
fn a_question_keeps_its_answer_out_of_the_first_picture() {
    let all = all();
    for tour in TOURS {
        for (k, step) in tour.steps.iter().enumerate() {
            let lab = crate::state::Lab::from_link(&format!("tour={}&step={}", tour.id, k + 1));
            let shell = all["tours"][format!("{}-{}", tour.id, k + 1)].as_str().unwrap();
            if step.question.is_some() {
                assert!(!shell.contains(&escape(lab.setup.preset.title)), "{} step {}", tour.id, k + 1);
            }
        }
    }
}

#[test]
fn scripted_steps_are_the_exercises() {
    let all = all();
    let scripted: Vec<&str> = all["data"]["scriptSteps"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let exercises: Vec<String> = TOURS
        .iter()
        .flat_map(|t| {
            t.steps
                .iter()
                .enumerate()
                .filter(|(_, s)| s.check.exercise().is_some())
                .map(|(k, _)| format!("{}-{}", t.id, k + 1))
        })
        .collect();
    assert!(!exercises.is_empty());
    assert_eq!(scripted, exercises);
    assert_eq!(all["data"]["scriptPolicy"], packlab_core::script::NAME);
}

#[test]
fn text_is_escaped() {
    assert_eq!(escape("a < b & \"c\" 'd'"), "a &lt; b &amp; &quot;c&quot; &#39;d&#39;");
}
