//! The settings and fault kinds the lab's editor is made from (sim::scenario::settings and
//! fault_kinds) are ones the engine has: in every library scenario, each declared setting set
//! back to the value its declaration reads gives the same scenario, and each kind of fault makes
//! a fault of its kind that validation takes.

use sim::json::Value;
use sim::library;
use sim::scenario::fault_kinds::{kind_of, Target, FAULTS};
use sim::scenario::settings::{settings_of, Kind, Section};
use sim::scenario::{LockKind, Setting};
use sim::time::Millis;

#[test]
fn every_setting_is_one_the_engine_has() {
    for sc in library::all() {
        for s in settings_of(&sc) {
            let value = (s.get)(&sc);
            let json = match s.kind {
                Kind::Choice(_) => Value::String(value.clone()),
                Kind::Switch(..) => Value::Bool(value == "true"),
                _ => sim::json::parse(&value).unwrap(),
            };
            let same = sc.with_settings(&[Setting { path: s.path.into(), value: json }]);
            assert_eq!(same.as_ref().ok(), Some(&sc), "{} {}: {} = {value}", sc.id, s.path, s.label);
            if let Kind::Choice(choices) = s.kind {
                assert!(choices.iter().any(|(v, _)| *v == value), "{} {}: {value} is not among the choices", sc.id, s.path);
            }
        }
    }
    // Each lock service's settings are the editor's: etcd's and ZooKeeper's too.
    let zk = library::all().into_iter().find(|s| s.lock.kind == LockKind::ZooKeeper).unwrap();
    let labels: Vec<&str> = settings_of(&zk).filter(|s| s.section == Section::Lock).map(|s| s.label).collect();
    assert_eq!(labels, ["Session timeout", "Servers", "Election timeout", "Lock-delay (Chubby's)"]);
}

/// Every kind makes, in every library scenario it fits, a fault of its kind that validation
/// takes, and each of its numbers reads back what it starts with.
#[test]
fn every_kind_makes_a_fault_the_engine_takes() {
    for sc in library::all() {
        let names = sc.actor_names();
        for k in FAULTS.iter().filter(|k| (k.fits)(&sc)) {
            // A lock server's fault strikes the first server (the lane after the clients).
            let who = if k.target == Target::Server { &names[sc.clients.len()] } else { &names[0] };
            let f = k.new_fault(who, names.last().unwrap(), Millis::new(1_000)).unwrap_or_else(|e| panic!("{}: {e}", k.tag));
            assert_eq!(kind_of(&f).tag, k.tag);
            for field in k.fields {
                assert_eq!(k.get(&f, field.name), Some(field.start), "{} {}", k.tag, field.name);
            }
            let mut with = sc.clone();
            with.faults.push(f);
            assert!(with.validate().is_ok(), "{}: {} is refused: {:?}", sc.id, k.tag, with.validate());
        }
    }
}

/// The lane menu is made from the kinds' declarations (`FaultKind::menu`): on every lane of
/// every library run, what each kind offers is a fault of that kind the engine takes, striking
/// that lane; a client's lane offers its holds, a Redis primary with a replica a failover, a
/// lock server a disk stall where one fits, and no lane a kind that does not fit.
#[test]
fn every_lane_menu_offers_faults_the_engine_takes() {
    use sim::scenario::fault_kinds::Lane;
    use sim::scenario::Fault;
    use sim::trace::Role;
    for sc in library::all() {
        let run = sim::run(&sc).unwrap_or_else(|e| panic!("{}: {e}", sc.id));
        for (i, actor) in run.actors.iter().enumerate() {
            // The lane as the lab's menu describes it (src/view/timeline/menu.rs).
            let (role, sends_to) = (run.lane_role(i), run.sends_to(i));
            let lane = Lane { name: &actor.name, role, at_ms: Millis::new(1_000), sc: &sc, sends_to: &sends_to };
            for k in FAULTS {
                let mut offered = Vec::new();
                (k.menu)(&lane, &mut offered);
                if !(k.fits)(&sc) {
                    assert!(offered.is_empty(), "{}: {} offered where it does not fit", sc.id, k.tag);
                }
                for (label, f) in offered {
                    assert_eq!(kind_of(&f).tag, k.tag, "{label}");
                    assert!(label.contains(&actor.name) || k.target == Target::Service, "{}: {label}", sc.id);
                    let mut with = sc.clone();
                    with.faults.push(f);
                    assert!(with.validate().is_ok(), "{} at {}: {label} is refused: {:?}", sc.id, actor.name, with.validate());
                }
            }
            let mut all = Vec::new();
            for k in FAULTS {
                (k.menu)(&lane, &mut all);
            }
            let count = |is: fn(&Fault) -> bool| all.iter().filter(|(_, f)| is(f)).count();
            assert_eq!(count(|f| matches!(f, Fault::Pause(_))), 1, "{}: {all:?}", sc.id);
            // A client holds its message to each lock server and the resource it talks to, and
            // to nothing else; other lanes hold nothing.
            let held: Vec<&str> =
                all.iter().filter_map(|(_, f)| if let Fault::Delay(d) = f { Some(d.to.as_str()) } else { None }).collect();
            if actor.role == Role::Client {
                assert!(
                    !held.is_empty() && held.iter().all(|to| run.actors.iter().any(|a| a.name == *to && a.role != Role::Client)),
                    "{}: {held:?}",
                    sc.id
                );
            } else {
                assert!(held.is_empty(), "{}: {held:?}", sc.id);
            }
            let primary = actor.role == Role::Redis && sc.lock.kind == sim::scenario::LockKind::Redis && sc.lock.replica.is_some();
            assert_eq!(count(|f| matches!(f, Fault::Failover(_))), usize::from(primary), "{}: {all:?}", sc.id);
            assert_eq!(count(|f| matches!(f, Fault::Restart(_))), usize::from(actor.role != Role::Client), "{}: {all:?}", sc.id);
        }
    }
}
