//! Edits to a scenario from the "Change the run" panel, the timeline and the fix toggle:
//! [`Field`] names what is edited, [`apply`] turns a typed value into a new, validated scenario
//! or a message for the field.

use sim::json::Value;
use sim::scenario::fault_kinds::{self, FAULTS};
use sim::scenario::settings::{self, Kind};
use sim::scenario::{Scenario, Setting, Step};
use sim::time::Millis;

/// An editable setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// A setting of [`sim::scenario::settings::all`], by its path (`lock.ttl_ms`).
    Setting(&'static str),
    ClientStart(usize),
    /// The `ms` of step `.1` of client `.0`, a `work` step.
    WorkMs(usize, usize),
    FaultAt(usize),
    /// A number of fault `.0`, by its name in the fault's JSON (`duration_ms`): one of its kind's
    /// [`sim::scenario::fault_kinds::FaultKind::fields`].
    FaultField(usize, &'static str),
}

impl Field {
    /// A stable id for the input element (and its error message).
    pub fn id(&self) -> String {
        match self {
            Field::Setting(path) => {
                let id = settings::all().find(|s| s.path == *path).map_or(*path, |s| s.id);
                format!("f-{id}")
            }
            Field::ClientStart(c) => format!("f-client-{c}-start"),
            Field::WorkMs(c, s) => format!("f-client-{c}-step-{s}"),
            Field::FaultAt(i) => format!("f-fault-{i}-at"),
            Field::FaultField(i, name) => {
                let id = FAULTS.iter().flat_map(|k| k.fields).find(|f| f.name == *name).map_or(*name, |f| f.id);
                format!("f-fault-{i}-{id}")
            }
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

/// The scenario with `field` set from the text the user typed or chose.
pub fn apply(sc: &Scenario, field: &Field, raw: &str) -> Result<Scenario, String> {
    let ms = "a number of milliseconds";
    let mut s = sc.clone();
    match field {
        Field::Setting(path) => {
            let decl = settings::setting(sc, path).ok_or("this scenario has no such setting")?;
            let value = read(decl.kind, raw)?;
            return sc.with_settings(&[Setting { path: path.to_string(), value }]).map_err(|e| e.problem.to_string());
        }
        Field::ClientStart(c) => s.clients.get_mut(*c).ok_or("no such client")?.start_ms = Millis::new(non_negative(raw, ms)?),
        Field::WorkMs(c, i) => match s.clients.get_mut(*c).and_then(|c| c.steps.get_mut(*i)) {
            Some(Step::Work { ms: m }) => *m = Millis::new(non_negative(raw, ms)?),
            _ => return Err("no such work step".into()),
        },
        Field::FaultAt(i) => *s.faults.get_mut(*i).ok_or("no such fault")?.at_ms_mut() = Millis::new(non_negative(raw, ms)?),
        Field::FaultField(i, name) => {
            let f = sc.faults.get(*i).ok_or("no such fault")?;
            let kind = fault_kinds::kind_of(f);
            let decl = kind.fields.iter().find(|d| d.name == *name).ok_or("this fault has no such setting")?;
            let value = read(decl.kind, raw)?;
            let path = format!("faults.{i}.{}.{name}", kind.tag);
            return sc.with_settings(&[Setting { path, value }]).map_err(|e| e.problem.to_string());
        }
    }
    s.validate().map_err(|e| e.problem.to_string())?;
    Ok(s)
}

/// What was typed for a setting of `kind`, as the scenario's JSON has it.
fn read(kind: Kind, raw: &str) -> Result<Value, String> {
    let ms = "a number of milliseconds";
    Ok(match kind {
        Kind::Ms { .. } => Value::from(non_negative(raw, ms)?),
        Kind::SignedMs => Value::from(whole(raw, "a number of milliseconds (negative steps back)")?),
        Kind::Ppm => Value::from(whole(raw, "a rate in parts per million (negative runs slow)")?),
        Kind::Count { min, max } => {
            let what = format!("a whole number from {min} to {max}");
            let n = non_negative(raw, &what)?;
            if n < min || n > max {
                return Err(format!("{n} is out of range; enter {what}"));
            }
            Value::from(n)
        }
        Kind::Decimal => Value::from(decimal(raw).ok_or_else(|| format!("`{}` is not a number; enter a factor such as 0.01", raw.trim()))?),
        Kind::Choice(choices) => {
            choices.iter().find(|(v, _)| *v == raw).ok_or_else(|| format!("`{raw}` is not one of the choices"))?;
            Value::String(raw.to_string())
        }
        Kind::Switch(..) => Value::Bool(raw == "true"),
    })
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
        let s = apply(&gc(), &Field::Setting("lock.ttl_ms"), "30000").unwrap();
        assert_eq!(s.lock.ttl_ms, Millis::new(30_000));
        let s = apply(&gc(), &Field::Setting("resource.fencing"), "atomic").unwrap();
        assert_eq!(s.resource.fencing, sim::scenario::Fencing::Atomic);
        let s = apply(&gc(), &Field::FaultField(0, "duration_ms"), "2000").unwrap();
        assert!(matches!(&s.faults[0], sim::scenario::Fault::Pause(p) if p.duration_ms == Millis::new(2000)));
    }

    #[test]
    fn bad_values_are_refused_with_a_message() {
        assert_eq!(
            apply(&gc(), &Field::Setting("lock.ttl_ms"), "abc").unwrap_err(),
            "`abc` is not a whole number; enter a number of milliseconds"
        );
        assert_eq!(apply(&gc(), &Field::Setting("lock.ttl_ms"), "-5").unwrap_err(), "-5 is negative; enter a number of milliseconds");
        assert!(apply(&gc(), &Field::Setting("lock.ttl_ms"), "0").unwrap_err().starts_with("must be between 1"));
        assert!(apply(&gc(), &Field::FaultAt(0), "999999999").unwrap_err().contains("after the end of the run"));
        assert!(apply(&gc(), &Field::Setting("network.latency_ms.0"), "50").unwrap_err().contains("above the maximum"));
        assert_eq!(apply(&gc(), &Field::Setting("lock.ttl_ms"), "").unwrap_err(), "enter a number of milliseconds");
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
        assert_eq!(
            apply(&sim::library::get("redlock-happy").unwrap(), &Field::Setting("lock.clock_drift_factor"), "x").unwrap_err(),
            "`x` is not a number; enter a factor such as 0.01"
        );
    }

    /// The ids are those the fields always had (the variant's name in lower case), which links
    /// into the page and the tests name.
    #[test]
    fn field_ids_are_stable() {
        let named = [
            ("lock.ttl_ms", "ttl"),
            ("lock.release", "release"),
            ("lock.renew", "renew"),
            ("lock.persistence", "persistence"),
            ("lock.replica.lag_ms", "replicalag"),
            ("token.source", "tokensource"),
            ("token.store", "tokenstore"),
            ("resource.kind", "resourcekind"),
            ("resource.fencing", "fencing"),
            ("resource.idempotency", "idempotency"),
            ("resource.check_write_gap_ms", "gap"),
            ("network.latency_ms.0", "latencymin"),
            ("network.latency_ms.1", "latencymax"),
            ("seed", "seed"),
            ("duration_ms", "duration"),
            ("lock.nodes", "nodes"),
            ("lock.node_timeout_ms", "nodetimeout"),
            ("lock.parallel", "parallel"),
            ("lock.clock_drift_factor", "driftfactor"),
        ];
        for (path, id) in named {
            assert_eq!(Field::Setting(path).id(), format!("f-{id}"));
        }
        assert_eq!(Field::WorkMs(1, 2).id(), "f-client-1-step-2");
        assert_eq!(Field::FaultField(0, "duration_ms").id(), "f-fault-0-duration");
        assert_eq!(Field::FaultField(3, "extra_ms").id(), "f-fault-3-extra");
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
