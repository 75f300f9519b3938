//! Instrumentation for the browser tests, in debug builds only (a release build keeps nothing):
//! how many times each component rendered ([`rendered`], [`renders`]), and the mounted lab's
//! dispatch ([`dispatch`]), so that a test can play the run without waiting for a timer.

use sim::flat::Map;

use yew::Callback;

use crate::state::Action;

#[cfg(debug_assertions)]
thread_local! {
    static RENDERS: std::cell::RefCell<Map<&'static str, u32>> = Default::default();
    static DISPATCH: std::cell::RefCell<Option<Callback<Action>>> = Default::default();
}

/// Counts a render of component `name` (call it first thing in the component).
pub fn rendered(name: &'static str) {
    #[cfg(debug_assertions)]
    RENDERS.with(|r| *r.borrow_mut().entry(name).or_default() += 1);
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// The renders counted since the last [`forget`], by component.
pub fn renders() -> Map<&'static str, u32> {
    #[cfg(debug_assertions)]
    return RENDERS.with(|r| r.borrow().clone());
    #[cfg(not(debug_assertions))]
    Map::new()
}

/// Starts counting again.
pub fn forget() {
    #[cfg(debug_assertions)]
    RENDERS.with(|r| r.borrow_mut().clear());
}

/// Remembers the lab's dispatch (the last lab mounted wins).
pub fn lab_mounted(d: &Callback<Action>) {
    #[cfg(debug_assertions)]
    DISPATCH.with(|x| *x.borrow_mut() = Some(d.clone()));
    #[cfg(not(debug_assertions))]
    let _ = d;
}

/// Sends an action to the last lab mounted, as its own controls would.
pub fn dispatch(a: Action) {
    #[cfg(debug_assertions)]
    DISPATCH.with(|x| x.borrow().as_ref().map(|d| d.emit(a)));
    #[cfg(not(debug_assertions))]
    let _ = a;
}
