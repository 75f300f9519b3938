//! The API server as inputs → effects: optimistic updates and the grants they stand for.

use super::*;
use crate::actor::testing::{events, records, sends, FakeEnv};
use crate::trace::{EventKind, ServiceEvent};
use crate::time::{Micros, Millis};

const API: ActorId = 2;
const A: ActorId = 0;
const B: ActorId = 1;

fn server() -> (ApiServer, FakeEnv) {
    (ApiServer::new(API, Settings { lease_ms: Millis::new(15_000), tokens: true }), FakeEnv::new(&["A", "B", "apiserver"]))
}

fn rec(holder: &str, transitions: u64) -> Record {
    Record { holder: holder.into(), transitions, acquire_local: Micros::ZERO, renew_local: Micros::ZERO }
}

fn ask(s: &mut ApiServer, env: &FakeEnv, from: ActorId, m: Msg) -> Out<Timer> {
    let mut out = Vec::new();
    s.on_message(0, from, Payload::Kubernetes(Box::new(m)), env, &mut out);
    out
}

fn reply(out: &Out<Timer>) -> Msg {
    match sends(out).last() {
        Some((_, _, Payload::Kubernetes(m))) => (**m).clone(),
        other => panic!("no reply: {other:?}"),
    }
}

#[test]
fn a_missing_lease_is_404_then_created_as_grant_zero_with_token_zero() {
    let (mut s, env) = server();
    assert_eq!(reply(&ask(&mut s, &env, A, Msg::Get { req: 1 })), Msg::Got { req: 1, lease: None });
    let out = ask(&mut s, &env, A, Msg::Create { req: 2, record: rec("A", 0) });
    assert_eq!(reply(&out), Msg::Done { req: 2, rv: 1, grant: Some(0) });
    let grants: Vec<_> = records(&out).into_iter().filter_map(|r| if let Fact::Grant(g) = r { Some(g) } else { None }).collect();
    assert_eq!(grants.len(), 1);
    assert_eq!((grants[0].client, grants[0].token, grants[0].term_end_us), (A, Some(0), Micros::us(15_000_000)));
}

#[test]
fn an_update_naming_a_stale_version_is_refused_with_409() {
    let (mut s, env) = server();
    ask(&mut s, &env, A, Msg::Create { req: 1, record: rec("A", 0) });
    ask(&mut s, &env, A, Msg::Update { req: 2, rv: 1, record: rec("A", 0) });
    let out = ask(&mut s, &env, B, Msg::Update { req: 3, rv: 1, record: rec("B", 1) });
    assert_eq!(reply(&out), Msg::Conflict { req: 3 });
    assert_eq!(events(&out), vec![(API, EventKind::Service(ServiceEvent::Kubernetes(Event::Conflict { client: B, sent: Some(1), rv: Some(2) })))]);
    assert!(records(&out).is_empty(), "nothing changes");
    let out = ask(&mut s, &env, B, Msg::Create { req: 4, record: rec("B", 0) });
    assert_eq!(reply(&out), Msg::Conflict { req: 4 }, "the Lease already exists");
}

#[test]
fn a_renewal_extends_the_term_and_a_takeover_ends_the_old_grant() {
    let (mut s, mut env) = server();
    ask(&mut s, &env, A, Msg::Create { req: 1, record: rec("A", 0) });
    env.grants = 1;
    env.now = Micros::us(2_000_000);
    let out = ask(&mut s, &env, A, Msg::Update { req: 2, rv: 1, record: rec("A", 0) });
    assert_eq!(records(&out), vec![Fact::GrantTerm { grant: 0, until_us: Micros::us(17_000_000) }]);
    assert_eq!(reply(&out), Msg::Done { req: 2, rv: 2, grant: Some(0) });
    // The API server checks the version, not whether A is still working.
    env.now = Micros::us(30_000_000);
    let out = ask(&mut s, &env, B, Msg::Update { req: 3, rv: 2, record: rec("B", 1) });
    assert_eq!(reply(&out), Msg::Done { req: 3, rv: 3, grant: Some(1) });
    let r = records(&out);
    assert_eq!(r[0], Fact::GrantEnded { grant: 0 });
    assert!(r.iter().any(|x| matches!(x, Fact::Grant(g) if g.client == B && g.token == Some(1))));
    assert_eq!(
        events(&out),
        vec![(API, EventKind::Service(ServiceEvent::Kubernetes(Event::Written { client: B, change: Change::TookOver, rv: 3, transitions: 1 })))]
    );
}

#[test]
fn a_release_gives_the_grant_back() {
    let (mut s, env) = server();
    ask(&mut s, &env, A, Msg::Create { req: 1, record: rec("A", 0) });
    let out = ask(&mut s, &env, A, Msg::Update { req: 2, rv: 1, record: rec("", 0) });
    assert_eq!(reply(&out), Msg::Done { req: 2, rv: 2, grant: None });
    assert_eq!(records(&out)[0], Fact::GrantReleased { grant: 0 });
}
