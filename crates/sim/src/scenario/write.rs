//! How each type of a scenario is written as a JSON value: its fields, and those its serde
//! attributes leave out (`skip_serializing_if`).

use crate::json::Value;

use super::teach::{Challenge, Choice, Fact, Question};
use super::*;
use crate::to_value::{Object, ToValue};

impl ToValue for Scenario {
    fn to_value(&self) -> Value {
        let Scenario {
            version,
            id,
            title,
            chapter,
            story,
            setup,
            notice,
            moments,
            simplifications,
            sources,
            seed,
            duration_ms,
            lock,
            token,
            resource,
            network,
            clients,
            clocks,
            faults,
            fix,
            questions,
            challenge,
        } = self;
        Object::new()
            .put("version", version)
            .put("id", id)
            .put("title", title)
            .put("chapter", chapter)
            .put("story", story)
            .put_unless(setup.is_empty(), "setup", setup)
            .put("notice", notice)
            .put("moments", moments)
            .put("simplifications", simplifications)
            .put("sources", sources)
            .put("seed", seed)
            .put("duration_ms", duration_ms)
            .put("lock", lock)
            .put("token", token)
            .put("resource", resource)
            .put("network", network)
            .put("clients", clients)
            .put_unless(clocks.is_empty(), "clocks", clocks)
            .put("faults", faults)
            .put_unless(fix.is_none(), "fix", fix)
            .put_unless(questions.is_empty(), "questions", questions)
            .put_unless(challenge.is_none(), "challenge", challenge)
            .done()
    }
}

impl ToValue for Moment {
    fn to_value(&self) -> Value {
        let Moment { on, text, when, seen, not_on } = self;
        Object::new()
            .put("on", on)
            .put("text", text)
            .put_unless(when.is_always(), "when", when)
            .put_unless(seen.is_empty(), "seen", seen)
            .put_unless(not_on.is_empty(), "not_on", not_on)
            .done()
    }
}

impl ToValue for When {
    fn to_value(&self) -> Value {
        let When {
            verdict,
            finding,
            overlap,
            token,
            settings,
            value,
            owner,
            below,
            above,
            after,
            before,
            not_after,
            with,
            highest,
            reach,
            apart,
        } = self;
        Object::new()
            .put_unless(verdict.is_none(), "verdict", verdict)
            .put_unless(finding.is_empty(), "finding", finding)
            .put_unless(overlap.is_none(), "overlap", overlap)
            .put_unless(token.is_none(), "token", token)
            .put_unless(settings.is_empty(), "settings", settings)
            .put_unless(value.is_none(), "value", value)
            .put_unless(owner.is_none(), "owner", owner)
            .put_unless(below.is_none(), "below", below)
            .put_unless(above.is_none(), "above", above)
            .put_unless(after.is_empty(), "after", after)
            .put_unless(before.is_empty(), "before", before)
            .put_unless(not_after.is_empty(), "not_after", not_after)
            .put_unless(with.is_empty(), "with", with)
            .put_unless(highest.is_none(), "highest", highest)
            .put_unless(reach.is_empty(), "reach", reach)
            .put_unless(apart.is_empty(), "apart", apart)
            .done()
    }
}

impl ToValue for Fix {
    fn to_value(&self) -> Value {
        let Fix { label, explain, set } = self;
        Object::new().put("label", label).put("explain", explain).put("set", set).done()
    }
}

impl ToValue for Setting {
    fn to_value(&self) -> Value {
        let Setting { path, value } = self;
        Object::new().put("path", path).put("value", value).done()
    }
}

impl ToValue for Replica {
    fn to_value(&self) -> Value {
        Object::new().put("lag_ms", &self.lag_ms).done()
    }
}

impl ToValue for TokenSource {
    fn to_value(&self) -> Value {
        let TokenSource { source, start, store } = self;
        Object::new().put("source", source).put("start", start).put("store", store).done()
    }
}

impl ToValue for Resource {
    fn to_value(&self) -> Value {
        let Resource { kind, fencing, idempotency, check_write_gap_ms } = self;
        let o = Object::new().put("kind", kind).put("fencing", fencing).put("idempotency", idempotency);
        o.put("check_write_gap_ms", check_write_gap_ms).done()
    }
}

impl ToValue for Network {
    fn to_value(&self) -> Value {
        let Network { latency_ms, links } = self;
        Object::new().put("latency_ms", latency_ms).put_unless(links.is_empty(), "links", links).done()
    }
}

impl ToValue for Link {
    fn to_value(&self) -> Value {
        let Link { from, to, latency_ms } = self;
        Object::new().put("from", from).put("to", to).put("latency_ms", latency_ms).done()
    }
}

impl ToValue for ClockSpec {
    fn to_value(&self) -> Value {
        let ClockSpec { offset_ms, drift_ppm } = self;
        Object::new().put("offset_ms", offset_ms).put("drift_ppm", drift_ppm).done()
    }
}

impl ToValue for Client {
    fn to_value(&self) -> Value {
        let Client { name, start_ms, steps } = self;
        Object::new().put("name", name).put("start_ms", start_ms).put("steps", steps).done()
    }
}

impl ToValue for Step {
    fn to_value(&self) -> Value {
        let o = Object::new();
        match self {
            Step::Acquire { retry_ms, attempts, timeout_ms } => {
                o.put("retry_ms", retry_ms).put("attempts", attempts).put("timeout_ms", timeout_ms).variant("acquire")
            }
            Step::Read { activate } => o.put("activate", activate).variant("read"),
            Step::Work { ms } => o.put("ms", ms).variant("work"),
            Step::Write { op, request, timeout_ms, retries, conditional, effect } => o
                .put("op", op)
                .put_unless(request.is_none(), "request", request)
                .put_unless(timeout_ms.is_none(), "timeout_ms", timeout_ms)
                .put("retries", retries)
                .put("conditional", conditional)
                .put_unless(effect.is_none(), "effect", effect)
                .variant("write"),
            Step::Renew { on_timeout } => o.put_unless(on_timeout.is_give_up(), "on_timeout", on_timeout).variant("renew"),
            Step::Release {} => o.variant("release"),
            Step::CheckDeadline { margin_ms } => o.put("margin_ms", margin_ms).variant("check_deadline"),
        }
    }
}

impl ToValue for Question {
    fn to_value(&self) -> Value {
        let Question { at, ask, fact, choices, answer, why } = self;
        let o = Object::new().put("at", at).put("ask", ask).put("fact", fact);
        o.put("choices", choices).put("answer", answer).put("why", why).done()
    }
}

impl ToValue for Choice {
    fn to_value(&self) -> Value {
        Object::new().put("text", &self.text).put("value", &self.value).done()
    }
}

impl ToValue for Challenge {
    fn to_value(&self) -> Value {
        let Challenge { ask, goal, hint, solution, explain } = self;
        let o = Object::new().put("ask", ask).put("goal", goal).put("hint", hint);
        o.put("solution", solution).put("explain", explain).done()
    }
}

impl ToValue for Fact {
    fn to_value(&self) -> Value {
        let o = Object::new();
        match self {
            Fact::Write { client } => o.put("client", client).variant("write"),
            Fact::NextHolder {} => o.variant("next-holder"),
            Fact::Token { client } => o.put("client", client).variant("token"),
            Fact::Votes { client } => o.put("client", client).variant("votes"),
            Fact::Valid { client } => o.put("client", client).variant("valid"),
            Fact::KeyTouched { client } => o.put("client", client).variant("key-touched"),
            Fact::Read { client } => o.put("client", client).variant("read"),
            Fact::FinalValue {} => o.variant("final-value"),
            Fact::Verdict {} => o.variant("verdict"),
        }
    }
}
