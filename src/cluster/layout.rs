//! Where a cluster view puts things on its canvas: the servers' layout (bars side by side, or a
//! grid of heat squares), the bars and slots within a server, and what a click there points at
//! ([`hit`], the inverse of the drawing).

use packlab_core::view::{Block, ClusterView};

/// Height of the server area and of the bins area, in CSS pixels, and the gap between.
pub const SERVERS_HEIGHT: f64 = 150.0;
pub const BINS_HEIGHT: f64 = 96.0;
pub const GAP: f64 = 18.0;

/// How the servers are laid out in a canvas `width` wide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Servers per row.
    pub columns: usize,
    pub rows: usize,
    /// Cell width and height (a cell holds a bar or a heat square, with its gap).
    pub cell_width: f64,
    pub cell_height: f64,
}

impl Layout {
    /// Bars side by side in one row when there are few servers; else as square a grid as
    /// fits in the server area. A lone machine (one server, or the k cores of the
    /// multiserver model) gets a wide bar, so its label and thin jobs stay readable.
    pub fn new(servers: usize, width: f64, detail: bool) -> Self {
        let servers = servers.max(1);
        if detail {
            let widest = if servers == 1 { 200.0 } else { 72.0 };
            let cell_width = (width / servers as f64).min(widest);
            return Layout { columns: servers, rows: 1, cell_width, cell_height: SERVERS_HEIGHT };
        }
        // The largest square cell with which `servers` cells fit in width × SERVERS_HEIGHT.
        let mut side = (width * SERVERS_HEIGHT / servers as f64).sqrt().floor().max(2.0);
        while side > 2.0 && (width / side).floor() * (SERVERS_HEIGHT / side).floor() < servers as f64 {
            side -= 1.0;
        }
        let columns = ((width / side).floor() as usize).max(1);
        Layout { columns, rows: servers.div_ceil(columns), cell_width: side, cell_height: side }
    }
}

/// What a click on a lane's canvas points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Server(usize),
    /// A job drawn in a server (where the model names its jobs).
    Job {
        server: usize,
        job: u64,
    },
    Bin(usize),
    /// A job drawn in a server where the model does not name its jobs: its server and bin.
    Block {
        server: usize,
        bin: usize,
    },
}

/// What the point `(x, y)` (CSS pixels from the canvas's corner) of a canvas `width` wide
/// showing `view` points at: the inverse of [`draw`](crate::cluster::paint::draw).
pub fn hit(view: &ClusterView, style: ServerStyle, width: f64, detail: bool, x: f64, y: f64) -> Option<Hit> {
    let servers = view.servers.len();
    if y >= SERVERS_HEIGHT + GAP {
        let n = view.bins.len().max(1);
        let cell = (width / n as f64).min(90.0);
        let bin = (x / cell).floor();
        return (bin >= 0.0 && (bin as usize) < view.bins.len()).then_some(Hit::Bin(bin as usize));
    }
    if y >= SERVERS_HEIGHT || x < 0.0 || y < 0.0 {
        return None;
    }
    let layout = Layout::new(servers, width.max(1.0), detail);
    let (col, row) = ((x / layout.cell_width).floor() as usize, (y / layout.cell_height).floor() as usize);
    if col >= layout.columns {
        return None;
    }
    let i = row * layout.columns + col;
    let server = view.servers.get(i)?;
    let block = |k: usize| {
        let b: &Block = &server.blocks[k];
        b.job.map_or(Hit::Block { server: i, bin: usize::from(b.bin) }, |job| Hit::Job { server: i, job })
    };
    // The block under the point, found as the drawing placed it (without detail, a heat strip).
    if detail {
        let within = x - i as f64 * layout.cell_width;
        match style {
            ServerStyle::Bars => {
                let bars = BarGeometry::new(view, &layout);
                let resource = ((within - bars.pad / 2.0) / (bars.bar_width + bars.bar_gap)).floor();
                if resource >= 0.0 && (resource as usize) < bars.bars {
                    let mut from_bottom = bars.top + bars.height - y;
                    for (k, b) in server.blocks.iter().enumerate() {
                        let h = f64::from(b.shares[resource as usize]) * bars.height;
                        if from_bottom >= 0.0 && from_bottom < h {
                            return Some(block(k));
                        }
                        from_bottom -= h;
                    }
                }
            }
            ServerStyle::Slots => {
                let grid = SlotGrid::new(view, &layout);
                let (col, row) = ((within - grid.pad / 2.0) / grid.side, (grid.top + grid.height - y) / grid.side);
                if col >= 0.0 && row >= 0.0 && (col as usize) < grid.columns {
                    let k = row as usize * grid.columns + col as usize;
                    if k < server.blocks.len() {
                        return Some(block(k));
                    }
                }
            }
        }
    }
    Some(Hit::Server(i))
}

/// Where [`draw`](crate::cluster::paint::draw) puts a server's bars (one per resource) within its cell.
pub(crate) struct BarGeometry {
    pub(crate) top: f64,
    pub(crate) height: f64,
    pub(crate) pad: f64,
    pub(crate) bars: usize,
    pub(crate) bar_gap: f64,
    pub(crate) bar_width: f64,
}

impl BarGeometry {
    pub(crate) fn new(view: &ClusterView, layout: &Layout) -> Self {
        let pad = (layout.cell_width * 0.15).clamp(1.0, 10.0);
        let group_width = layout.cell_width - pad;
        let bars = view.resources.len().max(1);
        let bar_gap = if bars > 1 { 2.0 } else { 0.0 };
        let bar_width = (group_width - bar_gap * (bars - 1) as f64) / bars as f64;
        Self { top: BAR_LABEL_ROOM, height: SERVERS_HEIGHT - 2.0 * BAR_LABEL_ROOM, pad, bars, bar_gap, bar_width }
    }
}

/// Where [`draw`](crate::cluster::paint::draw) puts a server's slots: squares of `side`, `columns` to a row, filled from
/// the bottom.
pub(crate) struct SlotGrid {
    pub(crate) top: f64,
    pub(crate) height: f64,
    pub(crate) pad: f64,
    pub(crate) group_width: f64,
    pub(crate) side: f64,
    pub(crate) columns: usize,
}

impl SlotGrid {
    pub(crate) fn new(view: &ClusterView, layout: &Layout) -> Self {
        let label_room = 16.0;
        let (top, height) = (label_room, SERVERS_HEIGHT - 2.0 * label_room);
        let pad = (layout.cell_width * 0.15).clamp(1.0, 10.0);
        let group_width = layout.cell_width - pad;
        let most = view.servers.iter().map(|s| s.blocks.len()).max().unwrap_or(0).max(1);
        // The largest square side with which the fullest server's slots fit the cell.
        let side = (2..=16)
            .rev()
            .map(f64::from)
            .find(|&side| {
                let columns = (group_width / side).floor().max(1.0);
                (most as f64 / columns).ceil() * side <= height
            })
            .unwrap_or(2.0);
        let columns = ((group_width / side).floor() as usize).max(1);
        Self { top, height, pad, group_width, side, columns }
    }
}

/// Room above and below a detailed bar for its labels.
pub const BAR_LABEL_ROOM: f64 = 16.0;

/// How a detailed server is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerStyle {
    /// A bar per resource, filled by its jobs' shares of the capacity.
    #[default]
    Bars,
    /// A grid of slots (PG-AS): a filled square per job, a hollow one per reserved empty slot.
    Slots,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_finds_what_was_drawn_there() {
        use packlab_core::view::{Block, ServerView};
        let block = |share: f32, job: u64| Block::scalar(share, 0, false).with_job(job);
        let view = ClusterView {
            servers: vec![
                ServerView { fill: 0.5, blocks: vec![block(0.25, 7), block(0.25, 9)], ..ServerView::default() },
                ServerView::default(),
            ],
            bins: vec![3, 1],
            ..ClusterView::default()
        };
        let bar_height = SERVERS_HEIGHT - 2.0 * BAR_LABEL_ROOM;
        let bottom = BAR_LABEL_ROOM + bar_height;
        // Two servers of 72 px: the first's lowest quarter is job 7, the next job 9.
        assert_eq!(
            hit(&view, ServerStyle::Bars, 400.0, true, 10.0, bottom - 1.0),
            Some(Hit::Job { server: 0, job: 7 })
        );
        assert_eq!(
            hit(&view, ServerStyle::Bars, 400.0, true, 10.0, bottom - bar_height * 0.3),
            Some(Hit::Job { server: 0, job: 9 })
        );
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, 10.0, BAR_LABEL_ROOM + 1.0), Some(Hit::Server(0)));
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, 80.0, 50.0), Some(Hit::Server(1)));
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, 300.0, 50.0), None, "right of the last server");
        // Bins: cells of at most 90 px under the servers.
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, 100.0, SERVERS_HEIGHT + GAP + 20.0), Some(Hit::Bin(1)));
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, 200.0, SERVERS_HEIGHT + GAP + 20.0), None);
        // A heat strip: row by row.
        let many = ClusterView { servers: vec![ServerView::default(); 1000], ..ClusterView::default() };
        let layout = Layout::new(1000, 400.0, false);
        let (x, y) = (layout.cell_width * 2.5, layout.cell_height * 1.5);
        assert_eq!(hit(&many, ServerStyle::Bars, 400.0, false, x, y), Some(Hit::Server(layout.columns + 2)));
    }

    #[test]
    fn a_click_finds_a_slot_or_an_unnamed_job() {
        use packlab_core::view::{Block, ServerView};
        // PG-AS: slots in a grid from the bottom left; the second is job 5, the third reserved.
        let slot = |job: Option<u64>, reserved: bool| Block { job, reserved, bin: 1, ..Block::scalar(0.1, 1, false) };
        let blocks = vec![slot(Some(4), false), slot(Some(5), false), slot(None, true)];
        let view =
            ClusterView { servers: vec![ServerView { blocks, ..ServerView::default() }], ..ClusterView::default() };
        let layout = Layout::new(1, 400.0, true);
        let grid = SlotGrid::new(&view, &layout);
        let bottom = grid.top + grid.height - grid.side / 2.0;
        let at = |k: f64| grid.pad / 2.0 + (k + 0.5) * grid.side;
        assert_eq!(hit(&view, ServerStyle::Slots, 400.0, true, at(1.0), bottom), Some(Hit::Job { server: 0, job: 5 }));
        assert_eq!(
            hit(&view, ServerStyle::Slots, 400.0, true, at(2.0), bottom),
            Some(Hit::Block { server: 0, bin: 1 })
        );
        assert_eq!(
            hit(&view, ServerStyle::Slots, 400.0, true, at(3.0), bottom),
            Some(Hit::Server(0)),
            "past the slots"
        );
        // GH-RA: three resource bars; a job with no name is found in the bar clicked.
        let vm = Block { shares: [0.0, 0.5, 0.0, 0.0], bin: 2, ..Block::scalar(0.0, 2, false) };
        let view = ClusterView {
            servers: vec![ServerView { blocks: vec![vm], ..ServerView::default() }],
            resources: vec!["memory", "CPU", "storage"],
            ..ClusterView::default()
        };
        let bars = BarGeometry::new(&view, &Layout::new(1, 400.0, true));
        let cpu = bars.pad / 2.0 + bars.bar_width + bars.bar_gap + bars.bar_width / 2.0;
        let low = bars.top + bars.height - 1.0;
        assert_eq!(hit(&view, ServerStyle::Bars, 400.0, true, cpu, low), Some(Hit::Block { server: 0, bin: 2 }));
        assert_eq!(
            hit(&view, ServerStyle::Bars, 400.0, true, bars.pad / 2.0 + 1.0, low),
            Some(Hit::Server(0)),
            "no memory"
        );
    }

    #[test]
    fn few_servers_are_bars_many_are_a_grid() {
        let bars = Layout::new(5, 600.0, true);
        assert_eq!((bars.columns, bars.rows), (5, 1));
        assert_eq!(bars.cell_width, 72.0);
        for servers in [100, 1000, 5000, 100_000] {
            let grid = Layout::new(servers, 600.0, false);
            assert!(grid.columns * grid.rows >= servers);
            if grid.cell_width > 2.0 {
                assert!(grid.rows as f64 * grid.cell_height <= SERVERS_HEIGHT, "{servers}: {grid:?}");
            }
        }
    }
}
