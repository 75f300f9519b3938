//! What the command line's tests share: running `leaselab` and reading what it wrote.

use std::process::{Command, Output};

pub fn leaselab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leaselab")).args(args).output().expect("run leaselab")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
