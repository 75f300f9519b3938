//! Tests that run in headless Chromium (wasm-bindgen-test): the engine gives the same traces
//! in WebAssembly as natively, and the components respond to clicks and input.
//! Run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p leaselab-app --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use app::state::Screen;
use app::view::app::{Lab, LabProps};
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
        "client-deadline",
        "consensus-fenced",
        "consensus-quorum-loss",
        "consensus-wait-expired",
        "db-transaction",
        "delayed-write",
        "failover-lost-lock",
        "fresh-owner-not-yet-seen",
        "gc-pause-fenced",
        "gc-pause-unfenced",
        "holder-crash",
        "lease-basics",
        "longer-ttl",
        "non-fencing-downstream",
        "random-owner-not-token",
        "redlock-clock-jump",
        "redlock-happy",
        "redlock-pause-after-acquire",
        "redlock-restart",
        "redlock-slow-acquire",
        "redlock-split-vote",
        "same-owner-retry",
        "token-reset",
        "unchecked-renew",
        "unsafe-release",
    ]
);
golden!(
    FIXED,
    ".fix.txt",
    [
        "check-then-write",
        "client-deadline",
        "consensus-wait-expired",
        "delayed-write",
        "failover-lost-lock",
        "fresh-owner-not-yet-seen",
        "gc-pause-unfenced",
        "longer-ttl",
        "non-fencing-downstream",
        "random-owner-not-token",
        "redlock-clock-jump",
        "redlock-pause-after-acquire",
        "redlock-restart",
        "same-owner-retry",
        "token-reset",
        "unchecked-renew",
        "unsafe-release",
    ]
);

#[wasm_bindgen_test]
fn traces_in_wasm_match_the_native_golden_files() {
    assert_eq!(PLAIN.len(), sim::library::FILES.len(), "every library scenario has a golden trace");
    for (id, want) in PLAIN {
        let s = sim::library::get(id).unwrap();
        let run = sim::run(&s).unwrap();
        assert_eq!(&sim::render::trace_text(&run, &s.title), want, "{id} (seed {}) differs in wasm", s.seed);
    }
    for (id, want) in FIXED {
        let s = sim::library::get(id).unwrap().fixed().unwrap().unwrap();
        let run = sim::run(&s).unwrap();
        assert_eq!(&sim::render::trace_text(&run, &s.title), want, "{id} --fix (seed {}) differs in wasm", s.seed);
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
        let got = format!("{:016x}", gen::fingerprint(&sim::render::trace_text(&run, &s.title)));
        assert_eq!(got, print, "generator seed {seed} (scenario seed {}) differs in wasm", s.seed);
        n += 1;
    }
    assert_eq!(n, 40);
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

async fn mount(id: &str) -> web_sys::Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let start = Rc::new(Screen::new(sim::library::get(id).unwrap(), false).unwrap());
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
    assert!(live.contains("A sends `SET lock"), "{live}");
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
