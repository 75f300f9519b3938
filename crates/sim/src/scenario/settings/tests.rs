use super::*;

/// Every setting's path is one a scenario has and takes back.
#[test]
fn every_declaration_is_one_the_engine_has() {
    for sc in crate::library::all() {
        for s in settings_of(&sc) {
            let value = (s.get)(&sc);
            let json = match s.kind {
                Kind::Choice(_) => crate::json::Value::String(value.clone()),
                Kind::Switch(..) => crate::json::Value::Bool(value == "true"),
                _ => crate::json::parse(&value).unwrap(),
            };
            let same = sc.with_settings(&[super::super::Setting { path: s.path.into(), value: json }]);
            assert_eq!(same.as_ref().ok(), Some(&sc), "{} {}: {} = {value}", sc.id, s.path, s.label);
            if let Kind::Choice(choices) = s.kind {
                assert!(choices.iter().any(|(v, _)| *v == value), "{} {}: {value} is not among the choices", sc.id, s.path);
            }
        }
    }
    // Each lock service's settings are the editor's: etcd's and ZooKeeper's too.
    let zk = crate::library::all().into_iter().find(|s| s.lock.kind == ZooKeeper).unwrap();
    let labels: Vec<&str> = settings_of(&zk).filter(|s| s.section == Section::Lock).map(|s| s.label).collect();
    assert_eq!(labels, ["Session timeout", "Servers", "Election timeout"]);
}
