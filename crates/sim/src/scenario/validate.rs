//! [`Scenario::validate`]: references, ranges and limits, each error naming its field, so
//! that no scenario can make the engine hang.

use crate::flat::Set;
use crate::time::Millis;

mod lock;

use super::{limits, teach, LockKind, RenewStyle, ResourceKind, Scenario, ScenarioError, Step};

impl Scenario {
    /// Checks references, ranges and limits. Every error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.check_text()?;
        self.check_lock()?;
        self.check_clients()?;
        self.check_network()?;
        self.check_faults()?;
        if let Some(fix) = &self.fix {
            if fix.set.is_empty() || fix.set.len() > 16 {
                return Err(ScenarioError::at("fix.set", "a fix changes between 1 and 16 settings"));
            }
        }
        teach::validate(self)
    }

    /// Whether `a` names an actor of this scenario.
    fn check_actor(&self, names: &[String], p: String, a: &str) -> Result<(), ScenarioError> {
        if names.iter().any(|n| n == a) {
            Ok(())
        } else {
            Err(ScenarioError::at(p, format!("no actor is called `{a}` (actors: {})", names.join(", "))))
        }
    }

    /// The version, the id, the teaching text, the seed and the duration.
    fn check_text(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        if self.version != 1 {
            return err("version".into(), format!("only version 1 exists, not {}", self.version));
        }
        let id_ok =
            !self.id.is_empty() && self.id.len() <= 64 && self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !id_ok {
            return err("id".into(), "use 1 to 64 characters: lowercase letters, digits and '-'".into());
        }
        for (path, text) in [("title", &self.title), ("story", &self.story), ("setup", &self.setup), ("chapter", &self.chapter)] {
            if text.len() > TEXT {
                return err(path.into(), format!("longer than {TEXT} bytes"));
            }
        }
        for (i, n) in self.notice.iter().enumerate() {
            if n.len() > TEXT {
                return err(format!("notice[{i}]"), format!("longer than {TEXT} bytes"));
            }
        }
        if self.moments.len() > 200 || self.sources.len() > 100 || self.simplifications.len() > 100 {
            return err("moments".into(), "too many moments, sources or simplifications (200, 100, 100 at most)".into());
        }
        for (i, m) in self.moments.iter().enumerate() {
            if m.text.len() > TEXT || m.on.len() > 100 {
                return err(format!("moments[{i}]"), "text too long".into());
            }
            let network = [("reach", &m.when.reach), ("apart", &m.when.apart)];
            for (field, entries) in network {
                if let Some(j) = entries.iter().position(|e| super::When::groups(e).is_none()) {
                    let msg = format!("\"{}\" is not two groups of names either side of one '/' (\"redis A / replica B\")", entries[j]);
                    return err(format!("moments[{i}].when.{field}[{j}]"), msg);
                }
            }
            if m.seen.len() > 8 {
                return err(format!("moments[{i}].seen"), "more than 8 fingerprints (one per run it was written for)".into());
            }
            if let Some(j) = m.seen.iter().position(|f| f.len() != 16 || !f.bytes().all(|b| b.is_ascii_hexdigit())) {
                let msg = format!("\"{}\" is not a run's fingerprint (16 hexadecimal digits, as `leaselab` writes them)", m.seen[j]);
                return err(format!("moments[{i}].seen[{j}]"), msg);
            }
            if let Some(j) = m.not_on.iter().position(|r| !matches!(r.as_str(), "as written" | "fixed" | "solved")) {
                let msg = format!("\"{}\" is not a run a moment is written for: \"as written\", \"fixed\" or \"solved\"", m.not_on[j]);
                return err(format!("moments[{i}].not_on[{j}]"), msg);
            }
        }
        if self.seed > SEED {
            return err("seed".into(), format!("must be at most {SEED} (2^53 - 1)"));
        }
        if self.duration_ms == Millis::ZERO || self.duration_ms > DURATION_MS {
            return err("duration_ms".into(), format!("must be between 1 and {DURATION_MS} (one hour)"));
        }
        Ok(())
    }

    /// The clients and their programs.
    fn check_clients(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        let dur = self.duration_ms;
        if self.clients.is_empty() {
            return err("clients".into(), "at least one client is needed".into());
        }
        if self.clients.len() > CLIENTS {
            return err("clients".into(), format!("{} clients; at most {CLIENTS} are allowed", self.clients.len()));
        }
        let mut seen = Set::new();
        // The servers' lanes of this lock service (and below, the names any service may give one).
        let servers = self.actor_names().split_off(self.clients.len());
        for (i, c) in self.clients.iter().enumerate() {
            let ok =
                !c.name.is_empty() && c.name.len() <= 16 && c.name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
            if !ok {
                return err(format!("clients[{i}].name"), "use 1 to 16 letters, digits, '-' or '_'".into());
            }
            let reserved = LockKind::ALL.iter().flat_map(|k| k.declaration().reserved);
            if c.name == "resource" || reserved.clone().any(|r| *r == c.name) || servers.contains(&c.name) {
                return err(format!("clients[{i}].name"), format!("`{}` is the name of a server", c.name));
            }
            if !seen.insert(c.name.clone()) {
                return err(format!("clients[{i}].name"), format!("`{}` is used by another client", c.name));
            }
            if c.start_ms > dur {
                return err(format!("clients[{i}].start_ms"), format!("starts after the end of the run ({dur} ms)"));
            }
            if c.steps.len() > STEPS {
                return err(format!("clients[{i}].steps"), format!("{} steps; at most {STEPS} are allowed", c.steps.len()));
            }
            for (j, s) in c.steps.iter().enumerate() {
                let p = format!("clients[{i}].steps[{j}]");
                self.validate_step(&p, s)?;
            }
        }
        Ok(())
    }

    /// Latencies, links and clocks.
    fn check_network(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        let names = self.actor_names();
        let actor = |p: String, a: &str| self.check_actor(&names, p, a);
        let range = |p: String, r: [Millis; 2]| -> Result<(), ScenarioError> {
            if r[0] > r[1] {
                Err(ScenarioError::at(p, format!("the minimum {} is above the maximum {}", r[0], r[1])))
            } else if r[1].get() > 600_000 {
                Err(ScenarioError::at(p, "latencies above 600000 ms (ten minutes) are not supported; use a delay fault"))
            } else {
                Ok(())
            }
        };
        range("network.latency_ms".into(), self.network.latency_ms)?;
        if self.network.links.len() > 256 {
            return err("network.links".into(), "at most 256 links".into());
        }
        for (i, link) in self.network.links.iter().enumerate() {
            actor(format!("network.links[{i}].from"), &link.from)?;
            actor(format!("network.links[{i}].to"), &link.to)?;
            range(format!("network.links[{i}].latency_ms"), link.latency_ms)?;
        }
        for (name, c) in &self.clocks {
            actor(format!("clocks.{name}"), name)?;
            // `unsigned_abs`: `abs` of i64::MIN overflows.
            if c.offset_ms.unsigned_abs() > CLOCK_MS as u64 {
                return err(format!("clocks.{name}.offset_ms"), format!("must be within ±{CLOCK_MS}"));
            }
            if c.drift_ppm.unsigned_abs() > DRIFT_PPM as u64 {
                return err(format!("clocks.{name}.drift_ppm"), format!("must be within ±{DRIFT_PPM}"));
            }
        }
        Ok(())
    }

    /// The faults.
    fn check_faults(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        let dur = self.duration_ms;
        let names = self.actor_names();
        if self.faults.len() > FAULTS {
            return err("faults".into(), format!("{} faults; at most {FAULTS} are allowed", self.faults.len()));
        }
        for (i, f) in self.faults.iter().enumerate() {
            let c = super::fault::Check { sc: self, names: &names, i, tag: f.kind().tag };
            if f.at_ms() > dur {
                return err(c.path("at_ms"), format!("comes after the end of the run ({dur} ms)"));
            }
            f.validate(&c)?;
        }
        Ok(())
    }

    fn validate_step(&self, p: &str, s: &Step) -> Result<(), ScenarioError> {
        let no_lock = self.lock.kind == LockKind::None;
        let renews_itself = self.lock.kind.declaration().renews_itself;
        let e = |f: &str, m: String| Err(ScenarioError::at(format!("{p}.{f}"), m));
        let max = limits::DURATION_MS;
        match s {
            Step::Acquire { retry_ms, attempts, timeout_ms } => {
                if no_lock {
                    return e("acquire", "there is no lock service (lock.kind is none)".into());
                }
                if *retry_ms == Millis::ZERO || *retry_ms > max {
                    return e("acquire.retry_ms", format!("must be between 1 and {max}"));
                }
                if *attempts == 0 || *attempts > limits::ATTEMPTS {
                    return e("acquire.attempts", format!("must be between 1 and {}", limits::ATTEMPTS));
                }
                if *timeout_ms == Millis::ZERO || *timeout_ms > max {
                    return e("acquire.timeout_ms", format!("must be between 1 and {max}"));
                }
            }
            Step::Work { ms } if *ms > max => return e("work.ms", format!("must be at most {max}")),
            Step::Write { request, timeout_ms, retries, conditional, effect, .. } => {
                if let Some(r) = request {
                    if r.is_empty() || r.len() > 64 {
                        return e("write.request", "use 1 to 64 characters".into());
                    }
                }
                if let Some(t) = timeout_ms {
                    if *t == Millis::ZERO || *t > max {
                        return e("write.timeout_ms", format!("must be between 1 and {max}"));
                    }
                }
                if *retries > 100 {
                    return e("write.retries", "must be at most 100".into());
                }
                if *retries > 0 && timeout_ms.is_none() {
                    return e("write.retries", "retries need a timeout_ms to decide when to resend".into());
                }
                if *conditional && self.resource.kind != ResourceKind::Database {
                    return e("write.conditional", "conditional writes need a database (resource.kind: database)".into());
                }
                if let Some(k) = effect {
                    if k.is_empty() || k.len() > 64 {
                        return e("write.effect", "use 1 to 64 characters".into());
                    }
                    if self.resource.kind != ResourceKind::Database {
                        return e(
                            "write.effect",
                            "an effect sent from inside a transaction needs a database (resource.kind: database)".into(),
                        );
                    }
                }
            }
            // A session or a Lease renews itself.
            Step::Renew { .. } if renews_itself.is_some() => return e("renew", renews_itself.unwrap_or_default().into()),
            Step::Renew { .. } if no_lock || self.lock.renew == RenewStyle::None => {
                return e("renew", "this lock service does not renew (lock.renew is none)".into());
            }
            Step::Release {} if no_lock => return e("release", "there is no lock service (lock.kind is none)".into()),
            Step::CheckDeadline { margin_ms } if *margin_ms > max => {
                return e("check_deadline.margin_ms", format!("must be at most {max}"));
            }
            _ => {}
        }
        Ok(())
    }
}
