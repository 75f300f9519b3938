//! The Lease Lab web app's entry point (built by Trunk).

fn main() {
    // A page that loaded embed.js mounts runs itself (LeaseLab.mount); leave it alone.
    let host = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &wasm_bindgen::JsValue::from_str("LEASELAB_HOST")).ok())
        .is_some_and(|v| v.is_truthy());
    if !host {
        app::start();
    }
}
