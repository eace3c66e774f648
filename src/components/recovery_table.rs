//! How each lane's queue recovered from each change of the scenario (issue 54, RES-94): the
//! core's recovery table, the one `packlab run` prints, shown under the stats table while a race
//! with changes plays. Nothing is shown without changes, or in a model where nothing waits.

use packlab_core::report::recovery_table;
use yew::prelude::*;

use crate::play::snapshot::LaneStats;

#[derive(Properties, PartialEq)]
pub struct RecoveryTableProps {
    pub lanes: Vec<LaneStats>,
}

#[component]
pub fn RecoveryTable(props: &RecoveryTableProps) -> Html {
    let names: Vec<String> = props.lanes.iter().map(|l| l.label.clone()).collect();
    let recoveries: Vec<&[packlab_core::metrics::Recovery]> = props.lanes.iter().map(|l| &*l.recovery).collect();
    let Some(table) = recovery_table(&names, &recoveries) else { return Html::default() };
    // The core's columns: change at, policy, band before, peak, peak at, drain time.
    let numeric = |i: usize| !table.left.contains(&i) && i != 2;
    html! {
        // Reachable by the keyboard: on a narrow screen the table scrolls sideways in it.
        <div id="recovery" tabindex="0" role="region" aria-labelledby="recovery-caption">
            <table>
                <caption id="recovery-caption">{ "How each queue recovered from each change" }</caption>
                <thead>
                    <tr>
                        { for table.header.iter().enumerate().map(|(i, h)| html! {
                            <th scope="col" class={classes!(numeric(i).then_some("num"))}>{ h.clone() }</th>
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for table.rows.iter().map(|row| html! {
                        <tr data-change={row[0].clone()} data-policy-label={row[1].clone()}
                            data-peak={row[3].clone()} data-drain={row[5].clone()}>
                            { for row.iter().enumerate().map(|(i, cell)| if i == 1 {
                                html! { <th scope="row">{ cell.clone() }</th> }
                            } else {
                                html! { <td class={classes!(numeric(i).then_some("num"))}>{ cell.clone() }</td> }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
            { for table.notes.iter().map(|n| html! { <p class="note">{ n.clone() }</p> }) }
        </div>
    }
}
