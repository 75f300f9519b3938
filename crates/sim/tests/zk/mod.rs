//! A real ZooKeeper for the conformance suite (`zookeeper_conformance.rs`): the server
//! (`server.rs`), a minimal client of its wire protocol (`wire.rs`), the engine's ensemble
//! driven on the real elapsed time (`model.rs`), and the generated sequences run on both
//! (`run.rs`).

pub mod model;
pub mod run;
pub mod server;
pub mod wire;
