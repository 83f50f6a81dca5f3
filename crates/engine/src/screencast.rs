//! The session's screencast: JPEG frames of the tab the browser shows, through the DevTools
//! protocol's `Page.startScreencast`, for whoever subscribes (video recording, trace screenshots,
//! a live view). Nothing runs and nothing costs while no one subscribes.
//!
//! - A [`Subscription`] (from [`Screencast::subscribe`]) registers what its holder asks (the
//!   largest image and the JPEG quality: [`CastOptions`]); the cast runs at the largest size and
//!   the best quality any subscriber asks. Dropping the subscription unsubscribes; when the last
//!   one is gone, the cast stops (`Page.stopScreencast`) and its task ends.
//! - The cast runs on its own DevTools session attached to the *front* tab (the active one, or
//!   the one a command runs in meanwhile: [`crate::popups::Front`]), so it never disturbs the
//!   page's own session. It follows the front tab: when the session switches tabs, a popup is
//!   shown or the active tab closes, the cast stops on the old page and starts on the new one.
//!   A page that navigates keeps casting (the cast belongs to the target, across documents); a
//!   target that goes away (its session detaches) is cast again once the front tab changes.
//!   When the browser itself is replaced, the subscriptions go on with the new browser.
//! - Every frame is acknowledged (`Page.screencastFrameAck`) as soon as it arrives, numbered
//!   ([`Frame::seq`], increasing for the session's life) and sent to every subscriber through a
//!   `tokio::sync::broadcast` channel (a slow subscriber loses the oldest frames: `Lagged`).
//! - Headless Chromium sends a frame only when the page paints: a page that does not change
//!   sends none. The cast therefore keeps the latest frame ([`Subscription::latest`], and a
//!   watch to wait for one: [`Subscription::latest_watch`]); it is cleared when the cast moves
//!   to another tab or stops, so it is always a picture of the front tab. Chromium sends a first
//!   frame soon after a cast starts.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentbrowser_cdp::{Connection, Event, Session};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use crate::cx::Cx;
use crate::error::Result;
use crate::popups::Front;

/// How many frames the broadcast channel holds for a subscriber that has not read them yet.
const FRAME_BUFFER: usize = 64;

/// One picture of the front tab, as the browser painted it.
#[derive(Debug)]
#[allow(dead_code)] // The video reads the image only; the trace recorder reads the rest.
pub(crate) struct Frame {
    /// Its number: increasing for the session's life (across tabs and browsers).
    pub seq: u64,
    /// When it was received.
    pub at: Instant,
    /// When the browser painted it (from the frame's metadata, else when it was received), in
    /// milliseconds since the Unix epoch.
    pub epoch_ms: f64,
    /// The tab it shows, as the protocol names tabs (`t1`).
    pub tab: String,
    /// The JPEG image.
    pub jpeg: Arc<[u8]>,
    /// The image's width in pixels.
    pub width: u32,
    /// The image's height in pixels.
    pub height: u32,
    /// The page's viewport in CSS pixels (the metadata's `deviceWidth`, `deviceHeight`).
    pub viewport: (f64, f64),
    /// The page's scroll offset in CSS pixels (`scrollOffsetX`, `scrollOffsetY`).
    pub scroll: (f64, f64),
}

/// What a subscriber asks of the cast: the image fits in `max_width` x `max_height` pixels
/// (scaled down keeping its aspect, never up), JPEG at `quality` (0-100).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CastOptions {
    /// Widest image wanted, in pixels.
    pub max_width: u32,
    /// Tallest image wanted, in pixels.
    pub max_height: u32,
    /// JPEG quality, 0-100.
    pub quality: u8,
}

impl Default for CastOptions {
    fn default() -> CastOptions {
        CastOptions {
            max_width: 1280,
            max_height: 1280,
            quality: 80,
        }
    }
}

impl CastOptions {
    /// The options that serve every one of `all`: the largest size and the best quality asked.
    fn merged<'a>(all: impl IntoIterator<Item = &'a CastOptions>) -> Option<CastOptions> {
        all.into_iter().copied().reduce(|a, b| CastOptions {
            max_width: a.max_width.max(b.max_width),
            max_height: a.max_height.max(b.max_height),
            quality: a.quality.max(b.quality),
        })
    }
}

/// The session's screencast (a part of the session; cheap to clone).
#[derive(Clone)]
pub(crate) struct Screencast(Arc<Shared>);

impl Default for Screencast {
    fn default() -> Screencast {
        Screencast(Arc::new(Shared {
            frames: broadcast::channel(FRAME_BUFFER).0,
            latest: watch::channel(None).0,
            wants: watch::channel(BTreeMap::new()).0,
            next_id: AtomicU64::new(1),
            seq: AtomicU64::new(1),
            caster: Mutex::new(None),
        }))
    }
}

/// What the screencast's subscribers and its task share.
struct Shared {
    /// Every frame, to every subscriber.
    frames: broadcast::Sender<Arc<Frame>>,
    /// The front tab's latest frame, while the cast runs on it.
    latest: watch::Sender<Option<Arc<Frame>>>,
    /// What each subscriber asks, by subscription id.
    wants: watch::Sender<BTreeMap<u64, CastOptions>>,
    /// The next subscription id.
    next_id: AtomicU64,
    /// The next frame number.
    seq: AtomicU64,
    /// The task that casts, while one runs.
    caster: Mutex<Option<Caster>>,
}

/// The task casting the tabs of one browser.
struct Caster {
    /// The browser's DevTools URL.
    ws_url: String,
    task: tokio::task::JoinHandle<()>,
}

/// A subscriber's hold on the screencast: frames come through [`Subscription::frames`] while
/// it lives; dropping it unsubscribes (the cast stops with the last one).
pub(crate) struct Subscription {
    shared: Arc<Shared>,
    id: u64,
    /// Every frame from the subscription on (a reader that falls behind by more than
    /// `FRAME_BUFFER` frames gets `Lagged` and loses the oldest).
    pub frames: broadcast::Receiver<Arc<Frame>>,
}

impl Subscription {
    /// The front tab's latest frame, if the browser painted one since the cast started on it.
    pub(crate) fn latest(&self) -> Option<Arc<Frame>> {
        self.shared.latest.borrow().clone()
    }

    /// A watch on the front tab's latest frame (to wait for one: the live view's `watch`).
    pub(crate) fn latest_watch(&self) -> watch::Receiver<Option<Arc<Frame>>> {
        self.shared.latest.subscribe()
    }

    /// The next frame, skipping those lost while the reader lagged; `None` never comes while
    /// the session lives (the sender is the session's).
    pub(crate) async fn next(&mut self) -> Option<Arc<Frame>> {
        loop {
            match self.frames.recv().await {
                Ok(frame) => return Some(frame),
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("id", &self.id)
            .finish()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let id = self.id;
        self.shared.wants.send_modify(|w| {
            w.remove(&id);
        });
    }
}

impl Screencast {
    /// Subscribes to the session's screencast with `options`, starting the session's browser
    /// when none runs and the cast when none runs.
    pub(crate) async fn subscribe(cx: &mut Cx<'_>, options: CastOptions) -> Result<Subscription> {
        let cast = cx.engine.part::<Screencast>().clone();
        let browser = cx.browser().await?;
        let shared = cast.0.clone();
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        let frames = shared.frames.subscribe();
        let subscription = Subscription {
            shared: shared.clone(),
            id,
            frames,
        };
        let mut caster = shared.caster.lock().unwrap_or_else(|e| e.into_inner());
        shared.wants.send_modify(|w| {
            w.insert(id, options);
        });
        let running = caster
            .as_ref()
            .is_some_and(|c| c.ws_url == browser.ws_url && !c.task.is_finished());
        if !running {
            cast_in(&shared, &mut caster, browser);
        }
        drop(caster);
        Ok(subscription)
    }

    /// The front tab's latest frame, while anyone subscribes and the browser painted one.
    pub(crate) fn latest(&self) -> Option<Arc<Frame>> {
        self.0.latest.borrow().clone()
    }

    /// Whether anyone subscribes.
    pub(crate) fn is_subscribed(&self) -> bool {
        !self.0.wants.borrow().is_empty()
    }
}

/// After the session's browser started (a first one, or one replacing a closed one): the cast
/// goes on in it when anyone subscribes.
pub(crate) fn on_started<'a>(cx: &'a mut Cx<'_>) -> futures::future::BoxFuture<'a, ()> {
    Box::pin(async move {
        let cast = cx.engine.part::<Screencast>().clone();
        if !cast.is_subscribed() {
            return;
        }
        let Some(browser) = cx.engine.browser.as_ref() else {
            return;
        };
        let mut caster = cast.0.caster.lock().unwrap_or_else(|e| e.into_inner());
        cast_in(&cast.0, &mut caster, browser);
    })
}

/// Starts the task that casts `browser`'s front tab in `caster` (the slot's lock held), ending
/// the one that ran there (for a browser that is gone).
fn cast_in(shared: &Arc<Shared>, caster: &mut Option<Caster>, browser: &crate::browser::Browser) {
    if let Some(old) = caster.take() {
        old.task.abort();
    }
    *caster = Some(Caster {
        ws_url: browser.ws_url.clone(),
        task: tokio::spawn(run(
            shared.clone(),
            browser.cdp.connection().clone(),
            browser.watch_front(),
        )),
    });
}

/// The cast on one tab: its own session, its events.
struct Cast {
    session: Session,
    tab: String,
    events: mpsc::UnboundedReceiver<Event>,
}

impl Cast {
    /// Attaches to the front tab's target and starts casting it with `options`.
    async fn start(conn: &Connection, front: &Front, options: CastOptions) -> Result<Cast> {
        let session = Session::attach(conn, &front.target).await?;
        // Subscribed before the start, so the first frame cannot pass unseen.
        let events = session.events();
        let started = session
            .call(
                "Page.startScreencast",
                json!({
                    "format": "jpeg",
                    "quality": options.quality,
                    "maxWidth": options.max_width,
                    "maxHeight": options.max_height,
                    "everyNthFrame": 1,
                }),
            )
            .await;
        let cast = Cast {
            session,
            tab: front.tab.clone(),
            events,
        };
        match started {
            Ok(_) => Ok(cast),
            Err(e) => {
                cast.stop().await;
                Err(e.into())
            }
        }
    }

    /// Stops casting and detaches its session (bounded: the target may be gone).
    async fn stop(self) {
        let short = std::time::Duration::from_secs(2);
        let _ = self
            .session
            .call_timeout("Page.stopScreencast", json!({}), short)
            .await;
        if let Some(sid) = self.session.id() {
            let _ = self
                .session
                .connection()
                .call_timeout(
                    None,
                    "Target.detachFromTarget",
                    json!({"sessionId": sid}),
                    short,
                )
                .await;
        }
    }
}

/// Why the cast on a tab ended.
enum Next {
    /// The front tab or the options changed: cast again.
    Again,
    /// The browser is gone: the task ends.
    Gone,
}

/// The task that casts the front tab of one browser while anyone subscribes.
async fn run(shared: Arc<Shared>, conn: Connection, mut front: watch::Receiver<Option<Front>>) {
    let mut wants = shared.wants.subscribe();
    let mut on: Option<String> = None;
    loop {
        let options = CastOptions::merged(wants.borrow_and_update().values());
        let Some(options) = options else {
            // No one subscribes: ends, unless someone subscribed meanwhile (checked under the
            // lock `subscribe` holds to decide whether to start a task).
            let mut caster = shared.caster.lock().unwrap_or_else(|e| e.into_inner());
            if shared.wants.borrow().is_empty() {
                *caster = None;
                shared.latest.send_replace(None);
                return;
            }
            continue;
        };
        let target = front.borrow_and_update().clone();
        if on.as_deref() != target.as_ref().map(|f| f.tab.as_str()) {
            // Another tab: the latest frame is no picture of it.
            shared.latest.send_replace(None);
            on = target.as_ref().map(|f| f.tab.clone());
        }
        let mut cast = match &target {
            Some(f) => match Cast::start(&conn, f, options).await {
                Ok(c) => Some(c),
                Err(e) => {
                    if conn.is_closed() {
                        return;
                    }
                    eprintln!(
                        "agentbrowser daemon: the screencast of tab {} did not start: {e}",
                        f.tab
                    );
                    None
                }
            },
            None => None,
        };
        let next = loop {
            tokio::select! {
                changed = front.changed() => {
                    if changed.is_err() {
                        break Next::Gone;
                    }
                    if *front.borrow() != target {
                        break Next::Again;
                    }
                }
                changed = wants.changed() => {
                    if changed.is_err() {
                        break Next::Gone;
                    }
                    if CastOptions::merged(wants.borrow().values()) != Some(options) {
                        break Next::Again;
                    }
                }
                ev = async {
                    match cast.as_mut() {
                        Some(c) => c.events.recv().await,
                        None => std::future::pending().await,
                    }
                } => match ev {
                    Some(ev) if ev.method == "Page.screencastFrame" => {
                        if let Some(c) = &cast {
                            on_frame(&shared, c, ev.params);
                        }
                    }
                    Some(_) => {}
                    None => {
                        // The session detached (the target closed) or the browser is gone.
                        if conn.is_closed() {
                            break Next::Gone;
                        }
                        cast = None;
                    }
                },
            }
        };
        if let Some(c) = cast {
            c.stop().await;
        }
        if let Next::Gone = next {
            shared.latest.send_replace(None);
            return;
        }
    }
}

/// A frame from the cast `cast`: acknowledged at once (the browser sends the next one only
/// then), decoded and sent to the subscribers.
fn on_frame(shared: &Shared, cast: &Cast, params: Value) {
    let at = Instant::now();
    if let Some(sid) = params.get("sessionId").and_then(Value::as_i64) {
        // Sent without waiting: the answer matters not, and frames keep coming meanwhile.
        drop(
            cast.session
                .start("Page.screencastFrameAck", json!({"sessionId": sid})),
        );
    }
    let Some(frame) = frame_of(&params, &cast.tab, at) else {
        return;
    };
    let frame = Arc::new(Frame {
        seq: shared.seq.fetch_add(1, Ordering::Relaxed),
        ..frame
    });
    // Broadcast first: whoever the latest's change wakes finds the frame in its subscription.
    // No receiver is no error: a subscriber may be between frames.
    let _ = shared.frames.send(frame.clone());
    shared.latest.send_replace(Some(frame));
}

/// The frame a `Page.screencastFrame` event carries (its `seq` is set by the caller); `None`
/// when its image does not decode.
pub(crate) fn frame_of(params: &Value, tab: &str, at: Instant) -> Option<Frame> {
    let data = params.get("data")?.as_str()?;
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(data)
        .ok()?;
    let (width, height) =
        image::ImageReader::with_format(std::io::Cursor::new(&jpeg), image::ImageFormat::Jpeg)
            .into_dimensions()
            .ok()?;
    let meta = params.get("metadata").cloned().unwrap_or(Value::Null);
    let num = |key: &str| meta.get(key).and_then(Value::as_f64).unwrap_or(0.0);
    let epoch_ms = meta
        .get("timestamp")
        .and_then(Value::as_f64)
        .map_or_else(crate::network::now_ms, |s| s * 1000.0);
    Some(Frame {
        seq: 0,
        at,
        epoch_ms,
        tab: tab.to_string(),
        jpeg: jpeg.into(),
        width,
        height,
        viewport: (num("deviceWidth"), num("deviceHeight")),
        scroll: (num("scrollOffsetX"), num("scrollOffsetY")),
    })
}

#[cfg(test)]
mod tests {
    use super::{CastOptions, frame_of};
    use base64::Engine as _;
    use serde_json::json;

    #[test]
    fn the_largest_size_and_best_quality_asked_win() {
        let a = CastOptions {
            max_width: 800,
            max_height: 200,
            quality: 50,
        };
        let b = CastOptions {
            max_width: 300,
            max_height: 600,
            quality: 90,
        };
        let m = CastOptions::merged([&a, &b]).unwrap();
        assert_eq!((m.max_width, m.max_height, m.quality), (800, 600, 90));
        assert!(CastOptions::merged([]).is_none());
    }

    #[test]
    fn a_frame_event_is_decoded_with_its_metadata() {
        let mut jpeg = Vec::new();
        image::RgbImage::from_pixel(7, 5, image::Rgb([200, 10, 10]))
            .write_to(
                &mut std::io::Cursor::new(&mut jpeg),
                image::ImageFormat::Jpeg,
            )
            .unwrap();
        let params = json!({
            "data": base64::engine::general_purpose::STANDARD.encode(&jpeg),
            "sessionId": 3,
            "metadata": {"deviceWidth": 700.0, "deviceHeight": 500.0, "scrollOffsetX": 0.0,
                         "scrollOffsetY": 40.0, "timestamp": 1700000000.5, "offsetTop": 0.0,
                         "pageScaleFactor": 1.0},
        });
        let f = frame_of(&params, "t2", tokio::time::Instant::now()).unwrap();
        assert_eq!((f.width, f.height), (7, 5));
        assert_eq!(f.viewport, (700.0, 500.0));
        assert_eq!(f.scroll, (0.0, 40.0));
        assert_eq!(f.epoch_ms, 1_700_000_000_500.0);
        assert_eq!(f.tab, "t2");
        assert!(frame_of(&json!({"data": "bm90IGEganBlZw=="}), "t1", f.at).is_none());
    }

    /// The centre pixel of a frame's image.
    fn centre(f: &super::Frame) -> [u8; 3] {
        let img = image::load_from_memory_with_format(&f.jpeg, image::ImageFormat::Jpeg)
            .unwrap()
            .to_rgb8();
        img.get_pixel(f.width / 2, f.height / 2).0
    }

    /// Whether a pixel is near `want` (JPEG blurs colours a little).
    fn near(p: [u8; 3], want: [u8; 3]) -> bool {
        p.iter().zip(want).all(|(a, b)| a.abs_diff(b) < 40)
    }

    /// Waits (bounded) for a frame of `sub` of tab `tab` whose centre is near `colour`.
    async fn frame_like(
        sub: &mut super::Subscription,
        tab: &str,
        colour: [u8; 3],
    ) -> std::sync::Arc<super::Frame> {
        let seen = |f: &super::Frame| f.tab == tab && near(centre(f), colour);
        if let Some(f) = sub.latest().filter(|f| seen(f)) {
            return f;
        }
        let wait = async {
            loop {
                let f = sub.next().await.expect("the frames channel closed");
                if seen(&f) {
                    return f;
                }
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(15), wait)
            .await
            .unwrap_or_else(|_| panic!("no frame of {tab} coloured {colour:?} came"))
    }

    /// Runs one protocol command on `engine`, which must succeed.
    async fn run(engine: &mut crate::Engine, line: serde_json::Value) {
        let r = engine
            .execute(agentbrowser_protocol::Request::from_value(line.clone()).unwrap())
            .await;
        assert!(r.success, "{line} failed: {r:?}");
    }

    /// A context for a call outside any command.
    fn cx(engine: &mut crate::Engine) -> crate::cx::Cx<'_> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        crate::cx::Cx {
            engine,
            limits: crate::cx::Limits {
                deadline,
                actionable: deadline,
            },
            scope: Default::default(),
        }
    }

    /// Against a real Chromium: the cast follows the front tab (a new tab, a switch back), goes
    /// on across a navigation, casts at the largest size asked, and stops when the last
    /// subscriber leaves.
    #[tokio::test]
    async fn the_cast_follows_the_front_tab_and_stops_with_its_last_subscriber() {
        use agentbrowser_testkit::{Page, Server};
        let server = Server::start();
        let page = |colour: &str| {
            Page::html(format!(
                "<!doctype html><style>html,body{{margin:0;height:100%;background:{colour}}}</style><p>x</p>"
            ))
        };
        server.route("/red", page("rgb(220,20,20)"));
        server.route("/blue", page("rgb(20,20,220)"));
        server.route("/green", page("rgb(20,200,20)"));
        let (red, blue, green) = ([220, 20, 20], [20, 20, 220], [20, 200, 20]);
        let mut engine = crate::Engine::new(
            crate::session::SessionInfo::default(),
            crate::launch::LaunchOptions::default(),
        );
        run(
            &mut engine,
            json!({"action": "open", "url": server.url("/red")}),
        )
        .await;
        let cast = engine.part::<super::Screencast>().clone();
        assert!(!cast.is_subscribed());
        let small = CastOptions {
            max_width: 200,
            max_height: 200,
            quality: 60,
        };
        let mut sub = super::Screencast::subscribe(&mut cx(&mut engine), small)
            .await
            .unwrap();
        let first = frame_like(&mut sub, "t1", red).await;
        assert!(first.width <= 200 && first.height <= 200, "{first:?}");
        assert!(
            first.viewport.0 > 200.0,
            "the viewport is in CSS pixels: {first:?}"
        );

        // A second subscriber asking a larger picture: the cast runs at the larger size.
        let large = CastOptions {
            max_width: 400,
            ..small
        };
        let mut big = super::Screencast::subscribe(&mut cx(&mut engine), large)
            .await
            .unwrap();
        run(
            &mut engine,
            json!({"action": "open", "url": server.url("/green")}),
        )
        .await;
        let wide = frame_like(&mut big, "t1", green).await;
        assert!(wide.width > 200 && wide.width <= 400, "{wide:?}");
        drop(big);

        run(
            &mut engine,
            json!({"action": "tab_new", "url": server.url("/blue")}),
        )
        .await;
        let second = frame_like(&mut sub, "t2", blue).await;
        assert!(second.seq > first.seq);
        run(&mut engine, json!({"action": "tab_switch", "tab": "t1"})).await;
        frame_like(&mut sub, "t1", green).await;
        // The page navigates: the cast goes on.
        run(
            &mut engine,
            json!({"action": "open", "url": server.url("/red")}),
        )
        .await;
        frame_like(&mut sub, "t1", red).await;

        // The task clears its slot, then the latest frame, as it ends.
        let mut latest = cast.0.latest.subscribe();
        drop(sub);
        let stopped = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            latest.wait_for(Option::is_none),
        )
        .await;
        assert!(
            stopped.is_ok() && cast.0.caster.lock().unwrap().is_none(),
            "the cast task did not end with its last subscriber"
        );
        assert!(cast.0.latest.borrow().is_none());
        engine.shutdown().await;
    }
}
