//! How each type of a scenario is read: its fields, their defaults (those of its serde
//! attributes), and serde's names for its variants.

use crate::json::Value;

use super::teach::{Challenge, Choice, Fact, Question};
use super::*;
use crate::from_value::{fields, struct_variant, unit_enums, FromValue, Path, Read};
use crate::time::Millis;
use crate::verdict::{Kind, Safety};

impl FromValue for Scenario {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Scenario", Scenario {
            version, id, title, chapter = String::new(), story = String::new(), setup = String::new(),
            notice = Vec::new(), moments = Vec::new(), simplifications = Vec::new(), sources = Vec::new(),
            seed, duration_ms, lock, token = TokenSource::default(), resource = Resource::default(),
            network = Network::default(), clients, clocks = crate::flat::Map::new(), faults = Vec::new(),
            fix = None, questions = Vec::new(), challenge = None,
        })
    }
}

impl FromValue for Moment {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Moment", Moment { on, text, when = When::default(), seen = Vec::new(), not_on = Vec::new() })
    }
}

impl FromValue for When {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct When", When {
            verdict = None, finding = Vec::new(), overlap = None, token = None, settings = Vec::new(),
            value = None, owner = None, below = None, above = None, after = Vec::new(), before = Vec::new(),
            not_after = Vec::new(), with = Vec::new(), highest = None, reach = Vec::new(), apart = Vec::new(),
        })
    }
}

impl FromValue for Fix {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Fix", Fix { label, explain, set })
    }
}

impl FromValue for Setting {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Setting", Setting { path, value })
    }
}

impl FromValue for Replica {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Replica", Replica { lag_ms })
    }
}

impl FromValue for TokenSource {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct TokenSource", TokenSource { source, start = default_token_start(), store = default_store() })
    }
}

impl FromValue for Resource {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Resource", Resource { kind, fencing, idempotency = false, check_write_gap_ms = default_gap() })
    }
}

impl FromValue for Network {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Network", Network { latency_ms, links = Vec::new() })
    }
}

impl FromValue for Link {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Link", Link { from, to, latency_ms })
    }
}

impl FromValue for ClockSpec {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct ClockSpec", ClockSpec { offset_ms = 0, drift_ppm = 0 })
    }
}

impl FromValue for Client {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Client", Client { name, start_ms = Millis::ZERO, steps })
    }
}

impl FromValue for Step {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        const NAMES: &[&str] = &["acquire", "read", "work", "write", "renew", "release", "check_deadline"];
        let (i, at, v) = struct_variant(v, at, NAMES)?;
        let at = &at;
        match i {
            0 => fields!(v, at, "struct variant Step::Acquire", Step::Acquire {
                retry_ms = default_retry(), attempts = default_attempts(), timeout_ms = default_timeout(),
            }),
            1 => fields!(v, at, "struct variant Step::Read", Step::Read { activate = false }),
            2 => fields!(v, at, "struct variant Step::Work", Step::Work { ms }),
            3 => fields!(v, at, "struct variant Step::Write", Step::Write {
                op = WriteOp::Set, request = None, timeout_ms = None, retries = 0, conditional = false, effect = None,
            }),
            4 => fields!(v, at, "struct variant Step::Renew", Step::Renew { on_timeout = OnTimeout::GiveUp }),
            5 => fields!(v, at, "struct variant Step::Release", Step::Release {}),
            _ => fields!(v, at, "struct variant Step::CheckDeadline", Step::CheckDeadline { margin_ms = Millis::ZERO }),
        }
    }
}

impl FromValue for Question {
    // Its field `at` would hide a path named `at`.
    fn read(v: &Value, path: &Path) -> Read<Self> {
        fields!(v, path, "struct Question", Question { at, ask, fact, choices, answer, why })
    }
}

impl FromValue for Choice {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Choice", Choice { text, value })
    }
}

impl FromValue for Challenge {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        fields!(v, at, "struct Challenge", Challenge { ask, goal, hint = String::new(), solution, explain })
    }
}

impl FromValue for Fact {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        const NAMES: &[&str] = &["write", "next-holder", "token", "votes", "valid", "key-touched", "read", "final-value", "verdict"];
        let (i, at, v) = struct_variant(v, at, NAMES)?;
        let at = &at;
        match i {
            0 => fields!(v, at, "struct variant Fact::Write", Fact::Write { client }),
            1 => fields!(v, at, "struct variant Fact::NextHolder", Fact::NextHolder {}),
            2 => fields!(v, at, "struct variant Fact::Token", Fact::Token { client }),
            3 => fields!(v, at, "struct variant Fact::Votes", Fact::Votes { client }),
            4 => fields!(v, at, "struct variant Fact::Valid", Fact::Valid { client }),
            5 => fields!(v, at, "struct variant Fact::KeyTouched", Fact::KeyTouched { client }),
            6 => fields!(v, at, "struct variant Fact::Read", Fact::Read { client }),
            7 => fields!(v, at, "struct variant Fact::FinalValue", Fact::FinalValue {}),
            _ => fields!(v, at, "struct variant Fact::Verdict", Fact::Verdict {}),
        }
    }
}

unit_enums! {
    ReleaseStyle { "compare-and-delete" => ReleaseStyle::CompareAndDelete, "del" => ReleaseStyle::Del }
    RenewStyle { "compare-and-extend" => RenewStyle::CompareAndExtend, "pexpire" => RenewStyle::Pexpire,
        "none" => RenewStyle::None }
    Persistence { "none" => Persistence::None, "always" => Persistence::Always }
    TokenKind { "none" => TokenKind::None, "counter" => TokenKind::Counter, "random-owner" => TokenKind::RandomOwner }
    CounterStore { "redis" => CounterStore::Redis, "durable" => CounterStore::Durable }
    ResourceKind { "store" => ResourceKind::Store, "database" => ResourceKind::Database,
        "external" => ResourceKind::External }
    Fencing { "none" => Fencing::None, "atomic" => Fencing::Atomic, "check-then-write" => Fencing::CheckThenWrite }
    WriteOp { "set" => WriteOp::Set, "add" => WriteOp::Add, "rebuild" => WriteOp::Rebuild }
    OnTimeout { "give-up" => OnTimeout::GiveUp, "keep-working" => OnTimeout::KeepWorking }
    Safety { "safe" => Safety::Safe, "unsafe" => Safety::Unsafe }
    Kind { "lost-update" => Kind::LostUpdate, "out-of-order-write" => Kind::OutOfOrderWrite,
        "duplicate-effect" => Kind::DuplicateEffect, "double-grant" => Kind::DoubleGrant,
        "foreign-release" => Kind::ForeignRelease, "foreign-renew" => Kind::ForeignRenew,
        "belief-overlap" => Kind::BeliefOverlap, "token-regression" => Kind::TokenRegression,
        "liveness" => Kind::Liveness, "wasted-work" => Kind::WastedWork, "incomplete" => Kind::Incomplete,
        "in-flight" => Kind::InFlight, "overrun" => Kind::Overrun, "cut-short" => Kind::CutShort,
        "omitted" => Kind::Omitted }
}
