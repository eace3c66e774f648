//! A requestAnimationFrame loop that stops when its handle is dropped, and that can tell when
//! each frame's rendering is done.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageChannel, MessagePort};

use crate::dom::workers::now_ms;

/// Calls `tick(now)` once per animation frame until `tick` returns `false` or the handle is
/// dropped, and then `rendered(now)` once the browser has finished that frame (see
/// [`FrameLoop::start`]). One closure of each kind serves every frame (no allocation per
/// frame); they hold only a weak reference to the loop, so dropping the handle frees
/// everything.
pub struct FrameLoop {
    inner: Rc<Inner>,
}

/// The JS function handed to requestAnimationFrame.
type FrameCallback = Closure<dyn FnMut(f64)>;
/// The JS function receiving the after-frame messages.
type MessageCallback = Closure<dyn FnMut(JsValue)>;

struct Inner {
    /// The pending request, to cancel on drop.
    pending: Cell<Option<i32>>,
    callback: RefCell<Option<FrameCallback>>,
    tick: RefCell<Box<dyn FnMut(f64) -> bool>>,
    /// A channel whose message, posted at the end of a tick, is delivered after the browser
    /// has run the rest of that frame (the page's rendering, style, layout, paint).
    channel: MessageChannel,
    on_message: RefCell<Option<MessageCallback>>,
}

impl FrameLoop {
    /// Starts the loop; the first tick comes with the next frame. `rendered` receives the
    /// `performance.now()` at which the main thread finished each ticked frame: the message
    /// posted at the end of the tick waits behind the frame's rendering work, so the time from
    /// the tick's start to `rendered` is what the frame cost the main thread.
    pub fn start(
        tick: impl FnMut(f64) -> bool + 'static,
        mut rendered: impl FnMut(f64) + 'static,
    ) -> Result<Self, JsValue> {
        let inner = Rc::new(Inner {
            pending: Cell::new(None),
            callback: RefCell::new(None),
            tick: RefCell::new(Box::new(tick)),
            channel: MessageChannel::new()?,
            on_message: RefCell::new(None),
        });
        let weak: Weak<Inner> = Rc::downgrade(&inner);
        let callback = FrameCallback::new(move |now: f64| {
            let Some(inner) = weak.upgrade() else { return };
            inner.pending.set(None);
            let again = (inner.tick.borrow_mut())(now);
            // A lost message only loses one frame's measurement.
            let _ = inner.channel.port2().post_message(&JsValue::NULL);
            if again {
                // A failed request ends the loop; nothing else can be done from inside a frame.
                let _ = inner.request();
            }
        });
        let on_message = MessageCallback::new(move |_: JsValue| rendered(now_ms()));
        inner.port().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        *inner.on_message.borrow_mut() = Some(on_message);
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

    /// The port the after-frame messages arrive at.
    fn port(&self) -> MessagePort {
        self.channel.port1()
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let (Some(id), Some(window)) = (self.inner.pending.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        let port = self.inner.port();
        port.set_onmessage(None);
        port.close();
        self.inner.channel.port2().close();
        // Breaks the closures' hold on the tick (and whatever the tick captured).
        self.inner.callback.borrow_mut().take();
        self.inner.on_message.borrow_mut().take();
    }
}
