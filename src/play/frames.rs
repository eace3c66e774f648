//! The race's snapshots as they arrive, for the parts of the page that draw every frame (the
//! lanes' canvases, the charts), while the component that owns the race renders only at the
//! pace of its text.
//!
//! A playing race publishes a snapshot with every animation frame. Rendering the whole lab
//! with each one (its form, stats, timeline, exports and tour, to find that almost nothing
//! changed) took about a tenth of a core in a race on two workers, which the workers' lanes
//! then lacked (docs/speed.md, "The lab renders at the text's pace"). So [`use_race`] renders
//! its component when the text would move ([`crate::hooks::use_text_pace::TextPace`]: ten
//! times a second while playing, at once for a pause, a step, a jump or a new race), and the
//! pictures follow [`Frames`] instead: a component that calls [`use_frames`] renders with
//! every snapshot, and reads the latest.
//!
//! [`use_race`]: crate::play::use_race::use_race

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use crate::play::snapshot::Snapshot;

/// The latest snapshot of a component's race, and who to tell when a new one arrives. Cloning
/// shares it; two handles are equal when they are the same feed.
#[derive(Clone)]
pub struct Frames(Rc<Feed>);

struct Feed {
    latest: RefCell<Rc<Snapshot>>,
    /// The components that render with every snapshot, by a number of their own.
    listeners: RefCell<Vec<(u64, Callback<()>)>>,
    next: Cell<u64>,
}

impl PartialEq for Frames {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Frames {
    pub fn new(first: Rc<Snapshot>) -> Self {
        Self(Rc::new(Feed { latest: RefCell::new(first), listeners: RefCell::default(), next: Cell::new(0) }))
    }

    /// The snapshot on screen now: the lanes' frame.
    pub fn latest(&self) -> Rc<Snapshot> {
        self.0.latest.borrow().clone()
    }

    /// Keeps `snapshot` as the latest without telling anyone: the owner renders with it.
    pub fn keep(&self, snapshot: Rc<Snapshot>) {
        *self.0.latest.borrow_mut() = snapshot;
    }

    /// Keeps `snapshot` and tells every listener.
    pub fn publish(&self, snapshot: Rc<Snapshot>) {
        self.keep(snapshot);
        // Cloned out first: a listener may subscribe or leave while it is told.
        let listeners: Vec<Callback<()>> = self.0.listeners.borrow().iter().map(|(_, c)| c.clone()).collect();
        for listener in listeners {
            listener.emit(());
        }
    }

    /// Calls `listener` with every published snapshot until the returned guard is dropped.
    pub fn listen(&self, listener: Callback<()>) -> Listening {
        let id = self.0.next.get();
        self.0.next.set(id + 1);
        self.0.listeners.borrow_mut().push((id, listener));
        Listening { frames: self.clone(), id }
    }

    #[cfg(test)]
    fn listeners(&self) -> usize {
        self.0.listeners.borrow().len()
    }
}

/// A listener of [`Frames`], removed when dropped.
pub struct Listening {
    frames: Frames,
    id: u64,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.frames.0.listeners.borrow_mut().retain(|(id, _)| *id != self.id);
    }
}

/// The latest snapshot of `frames`; the calling component renders again with every new one.
#[hook]
pub fn use_frames(frames: &Frames) -> Rc<Snapshot> {
    let redraw = use_force_update();
    use_effect_with(frames.clone(), move |frames| {
        let listening = frames.listen(Callback::from(move |()| redraw.force_update()));
        move || drop(listening)
    });
    frames.latest()
}

#[cfg(test)]
mod tests {
    use super::*;
    use packlab_core::scenario::Setup;

    fn snapshot(slot: u64) -> Rc<Snapshot> {
        let mut s = Snapshot::before_race(&Setup::from_preset("pgrr-a1").unwrap());
        s.slot = slot;
        Rc::new(s)
    }

    #[test]
    fn listeners_hear_what_is_published_until_they_leave() {
        let frames = Frames::new(snapshot(0));
        let heard = Rc::new(Cell::new(0));
        let listening = {
            let heard = heard.clone();
            frames.listen(Callback::from(move |()| heard.set(heard.get() + 1)))
        };
        frames.keep(snapshot(1));
        assert_eq!((heard.get(), frames.latest().slot), (0, 1), "kept, not told");
        frames.publish(snapshot(2));
        assert_eq!((heard.get(), frames.latest().slot), (1, 2));
        drop(listening);
        assert_eq!(frames.listeners(), 0);
        frames.publish(snapshot(3));
        assert_eq!((heard.get(), frames.latest().slot), (1, 3), "no one told after leaving");
        assert!(frames == frames.clone() && frames != Frames::new(snapshot(0)));
    }

    /// A playing race published every frame (16.7 ms) renders its owner ten times a second;
    /// a pause renders it at once.
    #[test]
    fn the_owner_renders_at_the_text_s_pace() {
        use crate::play::player::{Command, Player};
        use crate::state::Speed;
        let mut player = Player::new(Rc::new(Setup::from_preset("pgrr-a1").unwrap()), Speed::Max);
        player.apply(Command::Play);
        let playing = Rc::new(player.snapshot());
        let mut pace = crate::hooks::use_text_pace::TextPace::default();
        let told: Vec<bool> = (0..13).map(|frame| pace.due(&playing, frame as f64 * 16.7)).collect();
        // Frames 0 and 6 (100.2 ms) and 12 (200.4 ms).
        let expected: Vec<bool> = (0..13).map(|frame| frame % 6 == 0).collect();
        assert_eq!(told, expected);
        player.apply(Command::Pause);
        assert!(pace.due(&Rc::new(player.snapshot()), 201.0), "a pause at once");
        assert!(pace.due(&Rc::new(player.snapshot()), 202.0), "a stopped race: every snapshot");
    }
}
