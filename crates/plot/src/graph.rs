//! A chart the core describes as data ([`packlab_core::graph::Graph`]: a sweep's figure, the
//! theory's curves) as a [`Chart`] to draw, so the CLI's SVG and the page's canvas draw the
//! same figure from one description.

use packlab_core::graph::{Graph, Legend};

use crate::{Chart, Curve, Ink, LegendAt, Mark, Point};

/// A graph with its points in the chart's form; [`GraphChart::chart`] borrows them.
pub struct GraphChart<'a> {
    graph: &'a Graph,
    points: Vec<Vec<Point>>,
}

impl<'a> GraphChart<'a> {
    pub fn new(graph: &'a Graph) -> Self {
        let points = graph
            .lines
            .iter()
            .map(|line| line.points.iter().map(|p| Point { x: p.x, y: p.y, interval: p.interval }).collect())
            .collect();
        Self { graph, points }
    }

    /// The chart, in the default theme.
    pub fn chart(&self) -> Chart<'_> {
        let g = self.graph;
        Chart {
            title: &g.title,
            x_label: &g.x_label,
            y_label: &g.y_label,
            curves: g
                .lines
                .iter()
                .zip(&self.points)
                .map(|(line, points)| Curve {
                    label: &line.label,
                    color: Ink::Policy(line.color),
                    points,
                    markers: line.markers,
                    stroke: line.stroke,
                })
                .collect(),
            x_marks: g.x_marks.iter().map(|m| Mark::new(m.value, &m.label)).collect(),
            y_marks: g
                .y_marks
                .iter()
                .map(|m| Mark {
                    over: m.span,
                    stroke: m.stroke,
                    ..Mark::inked(m.value, &m.label, m.color.map_or(Ink::Reference, Ink::Policy))
                })
                .collect(),
            x_names: &g.x_names,
            log_y: g.log_y,
            x_range: g.x_range,
            y_range: g.y_range,
            legend: match g.legend {
                Legend::UpperLeft => LegendAt::UpperLeft,
                Legend::UpperRight => LegendAt::UpperRight,
                Legend::LowerLeft => LegendAt::LowerLeft,
                Legend::LowerRight => LegendAt::LowerRight,
                Legend::Below => LegendAt::Below,
            },
            verdicts: &g.verdicts,
            ..Chart::default()
        }
    }
}
