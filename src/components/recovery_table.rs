//! How each lane came through each change of the scenario (issue 54, RES-94): the core's table,
//! the one `packlab run` prints, shown under the stats table while a race with changes plays.
//! Where a queue waits, its peak and drain time after each change; in a loss system (nothing
//! waits), the reward and the rejections before the first change and from each change on.
//! Nothing is shown without changes.

use packlab_core::model::Table;
use packlab_core::report::{recovery_table, stretch_table};
use yew::prelude::*;

use crate::play::snapshot::LaneStats;

#[derive(Properties, PartialEq)]
pub struct RecoveryTableProps {
    pub lanes: Vec<LaneStats>,
}

/// The core's table, its caption, and which columns a row carries as data for tests and tools
/// (`data-NAME` from column `i`).
struct Shown {
    table: Table,
    caption: &'static str,
    data: &'static [(&'static str, usize)],
}

fn shown(lanes: &[LaneStats]) -> Option<Shown> {
    let names: Vec<String> = lanes.iter().map(|l| l.label.clone()).collect();
    let recoveries: Vec<&[packlab_core::metrics::Recovery]> = lanes.iter().map(|l| &*l.recovery).collect();
    if let Some(table) = recovery_table(&names, &recoveries) {
        // The core's columns: change at, policy, band before, peak, peak at, drain time.
        return Some(Shown {
            table,
            caption: "How each queue recovered from each change",
            data: &[("data-peak", 3), ("data-drain", 5)],
        });
    }
    let stretches: Vec<&[packlab_core::metrics::Stretch]> = lanes.iter().map(|l| &*l.stretches).collect();
    // The core's columns: from change, policy, measured over, reward per server, arrived,
    // rejected, blocking.
    stretch_table(&names, &stretches).map(|table| Shown {
        table,
        caption: "Reward and rejections before and after each change",
        data: &[("data-reward", 3), ("data-blocking", 6)],
    })
}

#[component]
pub fn RecoveryTable(props: &RecoveryTableProps) -> Html {
    let Some(Shown { table, caption, data }) = shown(&props.lanes) else { return Html::default() };
    // Numbers align right; the policy, the texts and a stretch's "a..b" stay left.
    let numeric = |i: usize| !table.left.contains(&i) && i != 2;
    html! {
        // Reachable by the keyboard: on a narrow screen the table scrolls sideways in it.
        <div id="recovery" tabindex="0" role="region" aria-labelledby="recovery-caption">
            <table>
                <caption id="recovery-caption">{ caption }</caption>
                <thead>
                    <tr>
                        { for table.header.iter().enumerate().map(|(i, h)| html! {
                            <th scope="col" class={classes!(numeric(i).then_some("num"))}>{ h.clone() }</th>
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for table.rows.iter().map(|row| {
                        let cells = row.iter().enumerate().map(|(i, cell)| if i == 1 {
                            html! { <th scope="row">{ cell.clone() }</th> }
                        } else {
                            html! { <td class={classes!(numeric(i).then_some("num"))}>{ cell.clone() }</td> }
                        });
                        let mut tr = html! {
                            <tr data-change={row[0].clone()} data-policy-label={row[1].clone()}>
                                { for cells }
                            </tr>
                        };
                        if let Html::VTag(tag) = &mut tr {
                            let tag = std::rc::Rc::make_mut(tag);
                            for &(name, i) in data {
                                tag.add_attribute(name, row[i].clone());
                            }
                        }
                        tr
                    }) }
                </tbody>
            </table>
            { for table.notes.iter().map(|n| html! { <p class="note">{ n.clone() }</p> }) }
        </div>
    }
}
