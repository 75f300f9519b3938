//! Tests that run in headless Chromium (wasm-bindgen-test): the engine gives the same traces
//! in WebAssembly as natively, and the components respond to clicks and input.
//! Run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p leaselab-app --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use app::state::Screen;
use app::view::lab::{Lab, LabProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! golden {
    ($name:ident, $suffix:literal, [$($id:literal),* $(,)?]) => {
        const $name: &[(&str, &str)] = &[$(($id, include_str!(concat!("../crates/sim/tests/golden/", $id, $suffix)))),*];
    };
}

golden!(
    PLAIN,
    ".txt",
    [
        "check-then-write",
        "chubby-lock-delay",
        "client-deadline",
        "consensus-disk-stall",
        "consensus-fenced",
        "consensus-quorum-loss",
        "consensus-wait-expired",
        "db-transaction",
        "delayed-write",
        "efficiency-lock",
        "etcd-10811",
        "failover-lost-lock",
        "fresh-owner-not-yet-seen",
        "gc-pause-fenced",
        "gc-pause-unfenced",
        "github-fileserver-pair",
        "hbase-gc-pause",
        "holder-crash",
        "idempotent-not-fenced",
        "k8s-lease-clock-rate",
        "k8s-lease-fenced",
        "k8s-lease-paused-leader",
        "lease-basics",
        "longer-ttl",
        "lost-contact",
        "non-fencing-downstream",
        "random-owner-not-token",
        "redis-sentinel-split",
        "redisson-watchdog",
        "redlock-clock-jump",
        "redlock-delayed-write",
        "redlock-drift",
        "redlock-happy",
        "redlock-pause-after-acquire",
        "redlock-restart",
        "redlock-slow-acquire",
        "redlock-split-vote",
        "same-owner-retry",
        "token-reset",
        "transaction-external-effect",
        "unchecked-renew",
        "unsafe-release",
        "work-claim-queue",
        "zookeeper-fenced",
        "zookeeper-unfenced",
    ]
);
golden!(
    FIXED,
    ".fix.txt",
    [
        "check-then-write",
        "chubby-lock-delay",
        "client-deadline",
        "consensus-wait-expired",
        "delayed-write",
        "etcd-10811",
        "failover-lost-lock",
        "fresh-owner-not-yet-seen",
        "gc-pause-unfenced",
        "github-fileserver-pair",
        "idempotent-not-fenced",
        "k8s-lease-clock-rate",
        "k8s-lease-paused-leader",
        "longer-ttl",
        "lost-contact",
        "non-fencing-downstream",
        "random-owner-not-token",
        "redis-sentinel-split",
        "redisson-watchdog",
        "redlock-clock-jump",
        "redlock-delayed-write",
        "redlock-drift",
        "redlock-pause-after-acquire",
        "redlock-restart",
        "same-owner-retry",
        "token-reset",
        "transaction-external-effect",
        "unchecked-renew",
        "unsafe-release",
        "work-claim-queue",
        "zookeeper-unfenced",
    ]
);

#[wasm_bindgen_test]
fn traces_in_wasm_match_the_native_golden_files() {
    assert_eq!(PLAIN.len(), sim::library::FILES.len(), "every library scenario has a golden trace");
    for (id, want) in PLAIN {
        let s = sim::library::get(id).unwrap();
        let run = sim::run(&s).unwrap();
        assert_eq!(&sim::render::trace_text(&run, &s), want, "{id} (seed {}) differs in wasm", s.seed);
    }
    for (id, want) in FIXED {
        let s = sim::library::get(id).unwrap().fixed().unwrap().unwrap();
        let run = sim::run(&s).unwrap();
        assert_eq!(&sim::render::trace_text(&run, &s), want, "{id} --fix (seed {}) differs in wasm", s.seed);
    }
}

#[path = "../crates/sim/tests/gen/mod.rs"]
mod gen;

/// Generated scenarios (the fuzz test's generator) give the same traces in wasm as natively:
/// their fingerprints are in a reviewed file written by `crates/draw/tests/fuzz.rs`.
#[wasm_bindgen_test]
fn generated_traces_in_wasm_match_the_native_fingerprints() {
    let want = include_str!("../crates/sim/tests/golden/generated.txt");
    let mut n = 0;
    for line in want.lines().filter(|l| !l.starts_with('#')) {
        let (seed, print) = line.split_once(' ').expect("seed and fingerprint");
        let seed: u64 = seed.parse().unwrap();
        let s = sim::Scenario::parse(&gen::scenario(seed).to_json()).unwrap();
        let run = sim::run(&s).unwrap_or_else(|e| panic!("generator seed {seed}: {e}"));
        let got = format!("{:016x}", gen::fingerprint(&sim::render::trace_text(&run, &s)));
        assert_eq!(got, print, "generator seed {seed} (scenario seed {}) differs in wasm", s.seed);
        n += 1;
    }
    assert_eq!(n, 40);
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A screen showing the whole run (1×): a run crowded at its first key moment opens zoomed in
/// on it, drawing only what is near the part in view, and these tests compare whole drawings.
fn whole(sc: sim::scenario::Scenario) -> Rc<Screen> {
    let mut s = Screen::new(sc, false).unwrap();
    s.view = Default::default();
    Rc::new(s)
}

async fn mount(id: &str) -> web_sys::Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let start = whole(sim::library::get(id).unwrap());
    yew::Renderer::<Lab>::with_root_and_props(root.clone(), LabProps { start, embed: None, active: true, nav: None, open: None }).render();
    yew::scheduler::flush().await;
    root
}

fn app(root: &web_sys::Element) -> web_sys::Element {
    root.query_selector("#app").unwrap().expect("the app root")
}

fn attr(root: &web_sys::Element, name: &str) -> String {
    app(root).get_attribute(name).unwrap_or_default()
}

fn click(root: &web_sys::Element, selector: &str) {
    let el = root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"));
    el.dyn_into::<web_sys::HtmlElement>().unwrap().click();
}

#[wasm_bindgen_test]
async fn the_root_carries_the_test_hooks() {
    let root = mount("gc-pause-unfenced").await;
    assert_eq!(attr(&root, "data-verdict"), "unsafe");
    assert_eq!(attr(&root, "data-step"), "1");
    let steps: usize = attr(&root, "data-steps").parse().unwrap();
    assert!(steps > 50, "{steps}");
    root.remove();
}

#[wasm_bindgen_test]
async fn stepping_moves_the_cursor_and_the_narration_follows() {
    let root = mount("gc-pause-unfenced").await;
    click(&root, "button[aria-label='Step forward (Right)']");
    yew::scheduler::flush().await;
    assert_eq!(attr(&root, "data-step"), "2");
    let live = root.query_selector(".narration[aria-live=polite]").unwrap().unwrap().text_content().unwrap();
    // The message is quoted as code, not between literal backticks.
    assert!(live.contains("A sends SET lock") && !live.contains('`'), "{live}");
    let code = root.query_selector(".narration .text code").unwrap().expect("the command shown as code").text_content().unwrap();
    assert!(code.starts_with("SET lock ") && code.ends_with("NX PX 10000"), "{code}");
    click(&root, "button[aria-label='Next violation (V)']");
    yew::scheduler::flush().await;
    let live = root.query_selector(".narration[aria-live=polite]").unwrap().unwrap().text_content().unwrap();
    assert!(live.contains("accepts A's write with token 33"), "{live}");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_fix_flips_the_verdict() {
    let root = mount("gc-pause-unfenced").await;
    click(&root, "button.fix");
    yew::scheduler::flush().await;
    assert_eq!(attr(&root, "data-verdict"), "safe");
    assert_eq!(attr(&root, "data-fixed"), "true");
    click(&root, "button.fix");
    yew::scheduler::flush().await;
    assert_eq!(attr(&root, "data-verdict"), "unsafe");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_bad_value_is_refused_next_to_its_field() {
    let root = mount("gc-pause-unfenced").await;
    click(&root, "#tab-Change");
    yew::scheduler::flush().await;
    let input: web_sys::HtmlInputElement = root.query_selector("#f-ttl").unwrap().unwrap().dyn_into().unwrap();
    input.set_value("-5");
    input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    yew::scheduler::flush().await;
    let err = root.query_selector("#f-ttl-error").unwrap().expect("an error next to the field").text_content().unwrap();
    assert_eq!(err, "-5 is negative; enter a number of milliseconds");
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(attr(&root, "data-verdict"), "unsafe", "the last good run stays");
    input.set_value("60000");
    input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    yew::scheduler::flush().await;
    assert!(root.query_selector("#f-ttl-error").unwrap().is_none());
    assert_eq!(attr(&root, "data-verdict"), "safe", "a 60 s lease outlasts the 25 s pause");
    root.remove();
}

#[wasm_bindgen_test]
async fn every_control_has_an_accessible_name() {
    let root = mount("gc-pause-unfenced").await;
    let buttons = root.query_selector_all("button, select, input").unwrap();
    for i in 0..buttons.length() {
        let el: web_sys::Element = buttons.item(i).unwrap().dyn_into().unwrap();
        let named = el.get_attribute("aria-label").is_some_and(|l| !l.is_empty())
            || !el.text_content().unwrap_or_default().trim().is_empty()
            || (!el.id().is_empty() && root.query_selector(&format!("label[for='{}']", el.id())).unwrap().is_some());
        assert!(named, "unnamed control: {}", el.outer_html());
    }
    root.remove();
}

/// The components rendered since the counts were last cleared, with how often.
fn rendered() -> sim::flat::Map<&'static str, u32> {
    app::view::probe::renders()
}

async fn after(a: app::state::Action) -> sim::flat::Map<&'static str, u32> {
    app::view::probe::forget();
    app::view::probe::dispatch(a);
    yew::scheduler::flush().await;
    rendered()
}

/// A playback tick renders only what follows the cursor: the timeline's cursor parts, the
/// controls, the narration and the inspector; not the lanes and marks, the header, the story,
/// the verdict, the editor or the course.
#[wasm_bindgen_test]
async fn a_playback_tick_renders_only_what_follows_the_cursor() {
    use app::state::{Action, Panel, STEP_MS};
    let root = mount("gc-pause-unfenced").await;
    let glide = after(Action::Tick(0.0)).await;
    assert!(glide.is_empty(), "a tick while paused renders nothing: {glide:?}");
    // From a step whose next step comes later in time, so that half a step moves the cursor.
    let run = sim::run(&sim::library::get("gc-pause-unfenced").unwrap()).unwrap();
    let from = (10..run.events.len() - 1).find(|&i| run.events[i + 1].at_us - run.events[i].at_us > sim::time::Micros::ms(1)).unwrap();
    after(Action::Seek(from)).await;
    let steps_before = attr(&root, "data-step");
    after(Action::TogglePlay).await;
    let half = after(Action::Tick(STEP_MS / 2.0)).await;
    let whole = after(Action::Tick(STEP_MS)).await;
    after(Action::TogglePlay).await;
    assert_ne!(attr(&root, "data-step"), steps_before, "the ticks moved the cursor");
    assert!(whole.contains_key("Narration"), "a whole step is narrated: {whole:?}");
    for r in [&half, &whole] {
        for follows in ["Lab", "Timeline", "Cursor", "LaneLabels", "Dots", "Controls", "Inspector"] {
            assert!(r.contains_key(follows), "{follows} follows the cursor: {r:?}");
        }
        for stays in ["Header", "Story", "Backdrop", "Marks", "Markers", "Legend", "VerdictPanel", "Predict"] {
            assert!(!r.contains_key(stays), "{stays} rendered on a tick: {r:?}");
        }
    }
    // The other panels: the editor (but for its "add a fault at <time>") and the course.
    for (panel, stays, follows, to) in [(Panel::Change, "Editor", Some("AddFault"), 60), (Panel::Course, "Course", None, 80)] {
        after(Action::SetPanel(panel)).await;
        let moved = after(Action::Seek(to)).await;
        assert!(!moved.contains_key(stays), "{stays} rendered on a step: {moved:?}");
        assert!(follows.is_none_or(|f| moved.contains_key(f)), "{follows:?} follows the cursor: {moved:?}");
        assert!(moved.contains_key("Controls"), "{moved:?}");
    }
    root.remove();
}

/// The counts can fail: an edit re-runs the scenario, and then everything that draws the run
/// renders again.
#[wasm_bindgen_test]
async fn an_edit_renders_the_parts_that_draw_the_run() {
    use app::state::Action;
    let root = mount("gc-pause-unfenced").await;
    let edited = after(Action::Edit(app::edit::Field::Setting("lock.ttl_ms"), "12000".into())).await;
    for part in ["Backdrop", "Marks", "Markers", "VerdictPanel", "Inspector"] {
        assert!(edited.contains_key(part), "{part} draws the new run: {edited:?}");
    }
    // The legend shows the kinds of glyph the run draws: a longer TTL changes none of them.
    assert!(!edited.contains_key("Legend"), "the legend is drawn again only when what it shows changes: {edited:?}");
    let fenced = after(Action::Edit(app::edit::Field::Setting("resource.fencing"), "atomic".into())).await;
    assert!(fenced.contains_key("Legend"), "fencing adds a rejected write to the legend: {fenced:?}");
    root.remove();
}

/// An edit draws again only the chunks of arrows, bars and marks that it changed (a longer TTL
/// moves no message of redlock-split-vote, but it moves the ends of leases), and what it draws
/// is what the edited scenario draws from scratch.
#[wasm_bindgen_test]
async fn an_edit_draws_again_only_the_chunks_it_changed() {
    use app::state::{Action, ZoomTo};
    let id = "redlock-split-vote";
    let root = mount(id).await;
    let chunks = |r: &sim::flat::Map<&'static str, u32>| r.get("Chunk").copied().unwrap_or(0);
    // A zoom moves everything: every chunk is drawn again (at least once).
    let all = chunks(&after(Action::Zoom(ZoomTo::In)).await);
    after(Action::Zoom(ZoomTo::Fit)).await;
    let edited = chunks(&after(Action::Edit(app::edit::Field::Setting("lock.ttl_ms"), "12000".into())).await);
    // Here the lease bars' chunk and the marks' (an expiry moves), out of seven.
    assert!(edited > 0 && edited * 2 < all, "{edited} chunks drawn again, against {all} for a zoom");
    let mut sc = sim::library::get(id).unwrap();
    sc.lock.ttl_ms = sim::time::Millis::new(12000);
    let fresh = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&fresh).unwrap();
    let start = whole(sc);
    yew::Renderer::<Lab>::with_root_and_props(fresh.clone(), LabProps { start, embed: None, active: true, nav: None, open: None }).render();
    yew::scheduler::flush().await;
    let drawn = |r: &web_sys::Element, part: &str| {
        let all = r.query_selector_all(&format!("svg.timeline {part}")).unwrap();
        (0..all.length()).map(|i| all.item(i).unwrap().dyn_into::<web_sys::Element>().unwrap().outer_html()).collect::<Vec<_>>()
    };
    for part in ["g.msgs > *", "[class*=bar]", "g[class*=mark]"] {
        let (a, b) = (drawn(&root, part), drawn(&fresh, part));
        assert!(!a.is_empty(), "{part} drawn");
        assert_eq!(a, b, "{part}: the edited run is drawn as the edited scenario is from scratch");
    }
    root.remove();
    fresh.remove();
}

/// The app's timeline and the SVG export draw from one vocabulary (`draw::glyph`): on every
/// library scenario, the lanes carry the same role labels and the marks the same classes.
#[wasm_bindgen_test]
async fn the_timeline_and_the_svg_export_agree_on_every_library_scenario() {
    let texts = |list: web_sys::NodeList| -> Vec<String> {
        (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default()).collect()
    };
    let classes = |list: web_sys::NodeList| -> Vec<String> {
        (0..list.length())
            .map(|i| list.item(i).unwrap().dyn_into::<web_sys::Element>().unwrap().get_attribute("class").unwrap_or_default())
            .collect()
    };
    for sc in sim::library::all() {
        let root = mount(&sc.id).await;
        let run = sim::run(&sc).unwrap();
        let holder = document().create_element("div").unwrap();
        holder.set_inner_html(&draw::svg::render(&run, &sc, 1000.0, Some(0)));
        let app_roles = texts(root.query_selector_all(".lane-label .role").unwrap());
        let svg_roles = texts(holder.query_selector_all(".lane-role").unwrap());
        assert_eq!(app_roles, svg_roles, "{}: role labels", sc.id);
        let app_marks = classes(root.query_selector_all("svg.timeline g.mark").unwrap());
        // The timeline's marks, not the samples in the legend under it.
        let svg_marks = classes(holder.query_selector_all("g.mark:not(.legend g.mark)").unwrap());
        assert_eq!(app_marks, svg_marks, "{}: marks", sc.id);
        assert!(!app_marks.is_empty(), "{}", sc.id);
        root.remove();
    }
}
