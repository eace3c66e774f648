//! A requestAnimationFrame loop that stops when its handle is dropped.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Calls `tick(now)` once per animation frame until `tick` returns `false` or the handle is
/// dropped. One closure serves every frame (no allocation per frame); it holds only a weak
/// reference to the loop, so dropping the handle frees everything.
pub struct FrameLoop {
    inner: Rc<Inner>,
}

/// The JS function handed to requestAnimationFrame.
type FrameCallback = Closure<dyn FnMut(f64)>;

struct Inner {
    /// The pending request, to cancel on drop.
    pending: Cell<Option<i32>>,
    callback: RefCell<Option<FrameCallback>>,
    tick: RefCell<Box<dyn FnMut(f64) -> bool>>,
}

impl FrameLoop {
    /// Starts the loop; the first tick comes with the next frame.
    pub fn start(tick: impl FnMut(f64) -> bool + 'static) -> Result<Self, JsValue> {
        let inner = Rc::new(Inner {
            pending: Cell::new(None),
            callback: RefCell::new(None),
            tick: RefCell::new(Box::new(tick)),
        });
        let weak: Weak<Inner> = Rc::downgrade(&inner);
        let callback = FrameCallback::new(move |now: f64| {
            let Some(inner) = weak.upgrade() else { return };
            inner.pending.set(None);
            let again = (inner.tick.borrow_mut())(now);
            if again {
                // A failed request ends the loop; nothing else can be done from inside a frame.
                let _ = inner.request();
            }
        });
        *inner.callback.borrow_mut() = Some(callback);
        inner.request()?;
        Ok(Self { inner })
    }

    /// Whether a frame is scheduled (false once `tick` has returned `false`).
    pub fn is_running(&self) -> bool {
        self.inner.pending.get().is_some()
    }
}

impl Inner {
    fn request(&self) -> Result<(), JsValue> {
        let callback = self.callback.borrow();
        let Some(callback) = callback.as_ref() else { return Ok(()) };
        let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
        let id = window.request_animation_frame(callback.as_ref().unchecked_ref())?;
        self.pending.set(Some(id));
        Ok(())
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let (Some(id), Some(window)) = (self.inner.pending.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        // Breaks the closure's hold on the tick (and whatever the tick captured).
        self.inner.callback.borrow_mut().take();
    }
}
