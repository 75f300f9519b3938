//! A moment's `when`, evaluated again at the event it is shown on, written here from the run's
//! events rather than through `Run::holds`, so that the two must agree.

use sim::json::Value;
use sim::scenario::When;
use sim::trace::{EventId, ServiceEvent};
use sim::{EventKind, Run, Scenario};

/// The parts of `when` that do not hold at event `id`, each named.
pub fn failing(sc: &Scenario, run: &Run, when: &When, id: EventId) -> Vec<String> {
    let e = &run.events[id];
    let mut out = Vec::new();
    let mut need = |ok: bool, what: &str| {
        if !ok {
            out.push(what.to_string());
        }
    };
    if let Some(v) = when.verdict {
        need(run.verdict.verdict == v, "verdict");
    }
    if !when.finding.is_empty() {
        let mut all = run.verdict.violations.iter().chain(&run.verdict.hazards);
        need(all.any(|f| when.finding.contains(&f.property)), "finding");
    }
    if let Some(o) = when.overlap {
        let mut holders: Vec<usize> =
            run.intervals.beliefs.iter().filter(|b| b.from_us <= e.at_us && e.at_us < b.to_us).map(|b| b.client).collect();
        holders.sort();
        holders.dedup();
        need((holders.len() > 1) == o, "overlap");
    }
    if let Some(t) = when.token {
        let carried = match e.kind {
            EventKind::Acquired { token, .. } | EventKind::Accepted { token, .. } | EventKind::Rejected { token, .. } => token,
            EventKind::KeySet { token, .. } | EventKind::Checked { token, .. } => token,
            // A new holder's leaseTransitions.
            EventKind::Service(ServiceEvent::Kubernetes(sim::wire::kubernetes::Event::Written { change, transitions, .. }))
                if matches!(change, sim::wire::kubernetes::Change::Created | sim::wire::kubernetes::Change::TookOver) =>
            {
                Some(transitions)
            }
            _ => None,
        };
        need(carried == Some(t), "token");
    }
    let v = sc.to_value();
    for s in &when.settings {
        // A setting left at its default is not in the JSON: its declaration reads it.
        let text = |v: &sim::json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
        let holds = match at_path(&v, &s.path) {
            Some(x) => *x == s.value,
            None => sim::scenario::settings::setting(sc, &s.path).is_some_and(|d| (d.get)(sc) == text(&s.value)),
        };
        need(holds, "settings");
    }
    if let Some(n) = when.value {
        let after = run.resource_log.iter().filter(|s| s.event <= id).last().map_or(0, |s| s.value);
        need(after == n, "value");
    }
    if let Some(o) = &when.owner {
        let owner = match e.kind {
            EventKind::KeyDeleted { owner, .. } | EventKind::KeyExtended { owner, .. } | EventKind::KeyExpired { owner } => owner,
            EventKind::KeyBusy { holder } => holder,
            EventKind::Demoted { discarded, .. } => discarded,
            EventKind::KeySet { owner, .. } => Some(owner),
            _ => None,
        };
        need(owner.is_some_and(|x| run.name(x) == o), "owner");
    }
    for (who, lower, what) in [(&when.below, true, "below"), (&when.above, false, "above")] {
        let Some(who) = who else { continue };
        let theirs = run.events[..id].iter().filter(|x| run.name(x.actor) == who).filter_map(|x| match x.kind {
            EventKind::Acquired { token, .. } => token,
            _ => None,
        });
        let theirs = theirs.last();
        let ours = e.kind.token();
        need(matches!((ours, theirs), (Some(a), Some(b)) if a != b && (a < b) == lower), what);
    }
    let found = |spec: &String| -> Vec<EventId> { spec.split('|').filter_map(|s| run.find(s)).collect() };
    for s in &when.after {
        need(found(s).iter().any(|&x| x < id), "after");
    }
    for s in &when.before {
        need(found(s).iter().any(|&x| x > id), "before");
    }
    for s in &when.not_after {
        need(found(s).iter().all(|&x| x > id), "not_after");
    }
    for s in &when.with {
        need(found(s).iter().any(|&x| x < id && run.events[x].at_us == e.at_us), "with");
    }
    if let Some(h) = when.highest {
        let highest = run.resource_log.iter().filter(|s| s.event <= id).last().map_or(0, |s| s.highest);
        need(highest == h, "highest");
    }
    for (entries, apart, what) in [(&when.reach, false, "reach"), (&when.apart, true, "apart")] {
        for entry in entries {
            let (xs, ys) = entry.split_once('/').unwrap_or((entry, ""));
            for (x, y) in xs.split_whitespace().flat_map(|x| ys.split_whitespace().map(move |y| (x, y))) {
                let known = run.actor_id(x).is_some() && run.actor_id(y).is_some();
                need(known && cut(sc, x, y, e.at_us) == apart, what);
            }
        }
    }
    out
}

/// Whether one of the scenario's partitions cuts `a` off from `b` at true time `at`.
fn cut(sc: &Scenario, a: &str, b: &str, at: sim::time::Micros) -> bool {
    sc.faults.iter().any(|f| {
        let sim::scenario::Fault::Partition(p) = f else { return false };
        let (from, to) = (p.at_ms.get() as i64 * 1000, (p.at_ms + p.duration_ms).get() as i64 * 1000);
        let t = at.get();
        let (ia, ib) = (p.isolate.iter().any(|n| n == a), p.isolate.iter().any(|n| n == b));
        let (fa, fb) = (p.from.iter().any(|n| n == a), p.from.iter().any(|n| n == b));
        let cuts = if p.from.is_empty() { ia != ib } else { (ia && fb) || (ib && fa) };
        from <= t && t < to && cuts
    })
}

/// The value at a dot-separated path of a serialized scenario.
fn at_path<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| match v {
        Value::Object(o) => o.get(k),
        Value::Array(a) => a.get(k.parse::<usize>().ok()?),
        _ => None,
    })
}
