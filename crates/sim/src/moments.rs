//! The course's part of a run: the scenario's key moments, attached to the events they name
//! once the run has been simulated and judged (the last stage of [`crate::run`]).

use crate::scenario::Scenario;
use crate::trace::{Moments, Run};
use crate::witness::fingerprint;

/// Each moment's narration, on the event it names (`"<tag> [actor] [#n]"`), where its
/// condition holds (`scenario::When`) and, if it has witnesses (`seen`), where the run did what a
/// run it was written for did (`crate::witness`); the texts of moments on one
/// event are joined by a space.
pub fn attach(run: &Run, sc: &Scenario) -> Moments {
    // Serialized once, and only if a moment asks about settings.
    let mut value = None;
    // The run's fingerprint, made once, and only if a moment has witnesses.
    let mut print = None;
    let mut out: Vec<(usize, String)> = Vec::new();
    for m in &sc.moments {
        let set = &m.when.settings;
        let settings = |v: &mut Option<crate::json::Value>| {
            set.is_empty() || crate::scenario::settings_hold(sc, v.get_or_insert_with(|| sc.to_value()), set)
        };
        let network = |id: usize| m.when.network_holds(&sc.faults, run.events[id].at_us, &|a| run.actor_id(a).is_some());
        let witnessed =
            |print: &mut Option<String>| m.seen.is_empty() || m.seen.contains(print.get_or_insert_with(|| fingerprint(sc, run)));
        let Some(id) = run.find(&m.on).filter(|&id| run.holds(&m.when, id) && network(id) && settings(&mut value) && witnessed(&mut print))
        else {
            continue;
        };
        match out.iter_mut().find(|(e, _)| *e == id) {
            Some((_, text)) => {
                text.push(' ');
                text.push_str(&m.text);
            }
            None => out.push((id, m.text.clone())),
        }
    }
    Moments::new(out)
}
