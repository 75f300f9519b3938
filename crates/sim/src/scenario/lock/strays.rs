//! The settings a lock service does not have (issue 49, D6): one flat `lock` object holds every
//! service's settings, and a value given to one the service does not read was taken and ignored.

use super::LockService;

impl LockService {
    /// The settings given a value other than their default that this lock service does not
    /// have: neither its declaration nor the common list (`scenario::settings`) names them,
    /// whether or not the lab shows them now. Validation refuses them (issue 49, D6).
    pub fn strays(&self) -> Vec<String> {
        use crate::to_value::ToValue;
        let crate::json::Value::Object(given) = self.to_value() else { return Vec::new() };
        let bare = crate::to_value::Object::new().put("kind", &self.kind).done();
        let Ok(defaults) = crate::from_value::deserialize::<LockService>(&bare) else { return Vec::new() };
        let crate::json::Value::Object(defaults) = defaults.to_value() else { return Vec::new() };
        let has = |key: &str| {
            let path = format!("lock.{key}");
            let of = |s: &crate::scenario::settings::Setting| s.path == path || s.path.starts_with(&format!("{path}."));
            self.kind.declaration().settings.iter().any(|s| of(s)) || crate::scenario::settings::COMMON.iter().any(of)
        };
        given.iter().filter(|(key, _)| defaults.get(key).is_none() && !has(key)).map(|(key, _)| key.clone()).collect()
    }

    /// This lock with each of its [`strays`](LockService::strays) back at its default.
    pub fn only_its_own(&self) -> LockService {
        use crate::to_value::ToValue;
        let strays = self.strays();
        let crate::json::Value::Object(given) = self.to_value() else { return self.clone() };
        let mut kept = crate::to_value::Object::new();
        for (key, v) in given.iter().filter(|(k, _)| !strays.contains(k)) {
            kept = kept.put(key, v);
        }
        crate::from_value::deserialize(&kept.done()).unwrap_or_else(|_| self.clone())
    }
}
