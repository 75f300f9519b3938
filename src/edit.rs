//! Edits to a scenario from the "Change the run" panel, the timeline and the fix toggle:
//! [`Field`] names what is edited, [`apply`] turns a typed value into a new, validated scenario
//! or a message for the field.

use sim::json::Value;
use sim::scenario::{Fault, Scenario, Setting, Step};

/// An editable setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    Ttl,
    Release,
    Renew,
    Persistence,
    ReplicaLag,
    TokenSource,
    TokenStore,
    ResourceKind,
    Fencing,
    Idempotency,
    Gap,
    LatencyMin,
    LatencyMax,
    Seed,
    Duration,
    Nodes,
    NodeTimeout,
    Parallel,
    DriftFactor,
    ClientStart(usize),
    /// The `ms` of step `.1` of client `.0`, a `work` step.
    WorkMs(usize, usize),
    FaultAt(usize),
    FaultDuration(usize),
    FaultBy(usize),
    FaultExtra(usize),
}

impl Field {
    /// A stable id for the input element (and its error message).
    pub fn id(&self) -> String {
        match self {
            Field::ClientStart(c) => format!("f-client-{c}-start"),
            Field::WorkMs(c, s) => format!("f-client-{c}-step-{s}"),
            Field::FaultAt(i) => format!("f-fault-{i}-at"),
            Field::FaultDuration(i) => format!("f-fault-{i}-duration"),
            Field::FaultBy(i) => format!("f-fault-{i}-by"),
            Field::FaultExtra(i) => format!("f-fault-{i}-extra"),
            Field::Ttl => "f-ttl".into(),
            Field::Release => "f-release".into(),
            Field::Renew => "f-renew".into(),
            Field::Persistence => "f-persistence".into(),
            Field::ReplicaLag => "f-replicalag".into(),
            Field::TokenSource => "f-tokensource".into(),
            Field::TokenStore => "f-tokenstore".into(),
            Field::ResourceKind => "f-resourcekind".into(),
            Field::Fencing => "f-fencing".into(),
            Field::Idempotency => "f-idempotency".into(),
            Field::Gap => "f-gap".into(),
            Field::LatencyMin => "f-latencymin".into(),
            Field::LatencyMax => "f-latencymax".into(),
            Field::Seed => "f-seed".into(),
            Field::Duration => "f-duration".into(),
            Field::Nodes => "f-nodes".into(),
            Field::NodeTimeout => "f-nodetimeout".into(),
            Field::Parallel => "f-parallel".into(),
            Field::DriftFactor => "f-driftfactor".into(),
        }
    }
}

fn whole(raw: &str, what: &str) -> Result<i64, String> {
    let t = raw.trim();
    if t.is_empty() {
        return Err(format!("enter {what}"));
    }
    t.parse::<i64>().map_err(|_| format!("`{t}` is not a whole number; enter {what}"))
}

fn non_negative(raw: &str, what: &str) -> Result<u64, String> {
    let v = whole(raw, what)?;
    u64::try_from(v).map_err(|_| format!("{v} is negative; enter {what}"))
}

/// A decimal number as people type one (`0.01`, `.01`, `+0.01`, `1.`, `007`, `1e-3`), read as
/// JSON reads numbers once put in its form: the standard library's `str::parse::<f64>` would add
/// its 20 KB of tables to the download for this one field.
fn decimal(raw: &str) -> Option<f64> {
    let t = raw.trim();
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    if t.starts_with(['+', '-']) {
        return None;
    }
    let (number, exponent) = t.find(['e', 'E']).map_or((t, ""), |i| t.split_at(i));
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let fraction = if fraction.is_empty() { String::new() } else { format!(".{fraction}") };
    if number.is_empty() || number == "." {
        return None;
    }
    sim::json::parse(&format!("{sign}{whole}{fraction}{exponent}")).ok()?.as_f64()
}

fn choice<T: sim::from_value::FromValue>(raw: &str) -> Result<T, String> {
    // Through the scenario's own reader, whose code for each choice's type is compiled already.
    sim::from_value::deserialize(&Value::String(raw.to_string())).map_err(|_| format!("`{raw}` is not one of the choices"))
}

/// The scenario with `field` set from the text the user typed or chose.
pub fn apply(sc: &Scenario, field: &Field, raw: &str) -> Result<Scenario, String> {
    let mut s = sc.clone();
    let ms = "a number of milliseconds";
    match field {
        Field::Ttl => s.lock.ttl_ms = non_negative(raw, ms)?,
        Field::Release => s.lock.release = choice(raw)?,
        Field::Renew => s.lock.renew = choice(raw)?,
        Field::Persistence => s.lock.persistence = choice(raw)?,
        Field::ReplicaLag => match &mut s.lock.replica {
            Some(r) => r.lag_ms = non_negative(raw, ms)?,
            None => return Err("this scenario has no replica".into()),
        },
        Field::TokenSource => s.token.source = choice(raw)?,
        Field::TokenStore => s.token.store = choice(raw)?,
        Field::ResourceKind => s.resource.kind = choice(raw)?,
        Field::Fencing => s.resource.fencing = choice(raw)?,
        Field::Idempotency => s.resource.idempotency = raw == "true",
        Field::Gap => s.resource.check_write_gap_ms = non_negative(raw, ms)?,
        Field::LatencyMin => s.network.latency_ms[0] = non_negative(raw, ms)?,
        Field::LatencyMax => s.network.latency_ms[1] = non_negative(raw, ms)?,
        Field::Seed => s.seed = non_negative(raw, "a whole number from 0 to 9,007,199,254,740,991 (2⁵³ − 1)")?,
        Field::Duration => s.duration_ms = non_negative(raw, ms)?,
        Field::Nodes => {
            let n = non_negative(raw, "a number of nodes from 1 to 9")?;
            s.lock.nodes = u8::try_from(n).map_err(|_| format!("{n} nodes: Redlock here takes 1 to 9"))?;
        }
        Field::NodeTimeout => s.lock.node_timeout_ms = non_negative(raw, ms)?,
        Field::Parallel => s.lock.parallel = raw == "true",
        Field::DriftFactor => {
            s.lock.clock_drift_factor =
                decimal(raw).ok_or_else(|| format!("`{}` is not a number; enter a factor such as 0.01", raw.trim()))?
        }
        Field::ClientStart(c) => s.clients.get_mut(*c).ok_or("no such client")?.start_ms = non_negative(raw, ms)?,
        Field::WorkMs(c, i) => match s.clients.get_mut(*c).and_then(|c| c.steps.get_mut(*i)) {
            Some(Step::Work { ms: m }) => *m = non_negative(raw, ms)?,
            _ => return Err("no such work step".into()),
        },
        Field::FaultAt(i) | Field::FaultDuration(i) | Field::FaultBy(i) | Field::FaultExtra(i) => {
            let f = s.faults.get_mut(*i).ok_or("no such fault")?;
            set_fault_field(f, field, raw)?;
        }
    }
    s.validate().map_err(|e| e.message)?;
    Ok(s)
}

fn set_fault_field(f: &mut Fault, field: &Field, raw: &str) -> Result<(), String> {
    let ms = "a number of milliseconds";
    match (field, f) {
        (Field::FaultAt(_), f) => *f.at_ms_mut() = non_negative(raw, ms)?,
        (Field::FaultDuration(_), Fault::Pause { duration_ms, .. } | Fault::Partition { duration_ms, .. }) => {
            *duration_ms = non_negative(raw, ms)?
        }
        (Field::FaultBy(_), Fault::ClockJump { by_ms, .. }) => *by_ms = whole(raw, "a number of milliseconds (negative steps back)")?,
        (Field::FaultExtra(_), Fault::Delay { extra_ms, .. }) => *extra_ms = non_negative(raw, ms)?,
        _ => return Err("this fault has no such setting".into()),
    }
    Ok(())
}

/// The values the fix's settings have now, so that the fix can be undone.
pub fn current_settings(sc: &Scenario, set: &[Setting]) -> Vec<(String, Option<Value>)> {
    let v = sc.to_value();
    set.iter().map(|s| (s.path.clone(), v.pointer(&format!("/{}", s.path.replace('.', "/"))).cloned())).collect()
}

/// The scenario with the given settings restored (`None`: the field is removed, so it takes
/// its default again).
pub fn restore(sc: &Scenario, saved: &[(String, Option<Value>)]) -> Result<Scenario, String> {
    let mut v = sc.to_value();
    for (path, value) in saved {
        let (parent, last) = match path.rsplit_once('.') {
            Some((p, l)) => (format!("/{}", p.replace('.', "/")), l),
            None => (String::new(), path.as_str()),
        };
        let Some(slot) = v.pointer_mut(&parent) else { continue };
        match (slot, value) {
            (Value::Object(map), Some(val)) => {
                map.insert(last.to_string(), val.clone());
            }
            (Value::Object(map), None) => {
                map.remove(last);
            }
            (Value::Array(items), Some(val)) => {
                if let Some(item) = last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    *item = val.clone();
                }
            }
            _ => {}
        }
    }
    Scenario::from_value(v).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gc() -> Scenario {
        sim::library::get("gc-pause-unfenced").unwrap()
    }

    #[test]
    fn a_valid_value_changes_the_scenario() {
        let s = apply(&gc(), &Field::Ttl, "30000").unwrap();
        assert_eq!(s.lock.ttl_ms, 30_000);
        let s = apply(&gc(), &Field::Fencing, "atomic").unwrap();
        assert_eq!(s.resource.fencing, sim::scenario::Fencing::Atomic);
        let s = apply(&gc(), &Field::FaultDuration(0), "2000").unwrap();
        assert!(matches!(s.faults[0], Fault::Pause { duration_ms: 2000, .. }));
    }

    #[test]
    fn bad_values_are_refused_with_a_message() {
        assert_eq!(apply(&gc(), &Field::Ttl, "abc").unwrap_err(), "`abc` is not a whole number; enter a number of milliseconds");
        assert_eq!(apply(&gc(), &Field::Ttl, "-5").unwrap_err(), "-5 is negative; enter a number of milliseconds");
        assert!(apply(&gc(), &Field::Ttl, "0").unwrap_err().starts_with("must be between 1"));
        assert!(apply(&gc(), &Field::FaultAt(0), "999999999").unwrap_err().contains("after the end of the run"));
        assert!(apply(&gc(), &Field::LatencyMin, "50").unwrap_err().contains("above the maximum"));
        assert_eq!(apply(&gc(), &Field::Ttl, "").unwrap_err(), "enter a number of milliseconds");
    }

    #[test]
    fn a_drift_factor_is_read_as_a_decimal() {
        let typed =
            [("0.01", 0.01), (" .02 ", 0.02), ("1e-3", 0.001), ("0", 0.0), ("-.5", -0.5), ("+0.01", 0.01), ("1.", 1.0), ("0.", 0.0)];
        for (typed, want) in typed.into_iter().chain([("007", 7.0), ("00.5", 0.5), ("2.5E-2", 0.025), ("-0", 0.0)]) {
            assert_eq!(decimal(typed), Some(want), "{typed}");
        }
        for bad in ["", ".", "-", "+", "abc", "0.01x", "1e999", "\"0.01\"", "NaN", "inf", "0,01", "1..2", "--1", "+-1", "e5", ".e5"] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
        assert_eq!(apply(&gc(), &Field::DriftFactor, "x").unwrap_err(), "`x` is not a number; enter a factor such as 0.01");
    }

    /// The ids are those the fields always had (the variant's name in lower case), which links
    /// into the page and the tests name.
    #[test]
    fn field_ids_are_stable() {
        use Field::*;
        let named = [Ttl, Release, Renew, Persistence, ReplicaLag, TokenSource, TokenStore, ResourceKind, Fencing, Idempotency];
        for f in named.into_iter().chain([Gap, LatencyMin, LatencyMax, Seed, Duration, Nodes, NodeTimeout, Parallel, DriftFactor]) {
            assert_eq!(f.id(), format!("f-{}", format!("{f:?}").to_lowercase()));
        }
        assert_eq!(Field::NodeTimeout.id(), "f-nodetimeout");
        assert_eq!(Field::WorkMs(1, 2).id(), "f-client-1-step-2");
    }

    #[test]
    fn a_fix_can_be_undone_exactly() {
        let s = gc();
        let fix = s.fix.clone().unwrap();
        let saved = current_settings(&s, &fix.set);
        let fixed = s.with_settings(&fix.set).unwrap();
        assert_ne!(fixed, s);
        assert_eq!(restore(&fixed, &saved).unwrap(), s);
        // A fix that sets a field left at its default (absent from the JSON) removes it again.
        let f = sim::library::get("fresh-owner-not-yet-seen").unwrap();
        let fix = f.fix.clone().unwrap();
        let saved = current_settings(&f, &fix.set);
        let fixed = f.with_settings(&fix.set).unwrap();
        assert_eq!(restore(&fixed, &saved).unwrap(), f);
    }
}
