//! The one list of lock services ([`services!`]): every other place that knows each service, the
//! enums that hold one arm per service and their dispatch, is generated from it. It names
//! nothing else in the crate, so that every layer can read it: the scenario's `LockKind` and
//! each service's declaration (`scenario::lock`), the envelope's arms (`msg::Payload`), the
//! trace's (`trace::ServiceEvent`), the modules of `wire` and `service`, and the servers and
//! protocols of a run (`lock::Service`, `lock::Timer`, `lock::Protocol`).
//!
//! Each entry is `Arm in module as "json"`, then what the service has of its own on the ground
//! floor (`wire::<module>`): `sends T` when its messages travel as one arm of `msg::Payload`
//! carrying `wire::<module>::T`, and `records T` when its events are recorded as one arm of
//! `trace::ServiceEvent` carrying `wire::<module>::T`. Adding a service is a line here and its
//! slice: `service/<module>/` (its server, client protocol and words, behind `service::Slice`),
//! `wire/<module>.rs` (its messages and events as data) and `scenario/lock/<module>.rs` (its
//! labels, lanes, settings and validation, a `scenario::lock::Declaration`).
//!
//! Redis's own messages (commands, replies, the replication stream) are still common arms of
//! `msg::Payload`, which Redlock shares. The consensus family's events (etcd's and ZooKeeper's)
//! are one enum, `trace::QuorumEvent` (`trace::EventKind::Quorum`), worded per service: every
//! slice has `service::Slice::quorum`, an exhaustive match in the service's own terms, with
//! `service::not_recorded` for an event it does not record.

/// Calls the macro `$make` with the list of lock services, in the order the lab offers them.
macro_rules! services {
    ($make:ident) => {
        $make! {
            Redis in redis as "redis" records Event,
            Redlock in redlock as "redlock",
            Consensus in consensus as "consensus" sends Msg,
            ZooKeeper in zookeeper as "zookeeper" sends Msg,
            Kubernetes in kubernetes as "kubernetes" sends BoxedMsg records Event,
            Pacemaker in pacemaker as "pacemaker" sends Msg records Event,
        }
    };
}
pub(crate) use services;
