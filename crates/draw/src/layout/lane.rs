//! A lane's height, full or compact, and where a lane's bars and blocks go in it.

use sim::trace::Role;

use super::Lane;

/// A run whose lanes at their full height would stand taller than this, in pixels, draws them
/// compact: then the first screen at 1366×800 holds the timeline with the controls, the
/// narration and the verdict under it (issue 50), for a Redlock run with its five nodes as for
/// a run of two clients, one server and the resource (298 px at full height, drawn full).
pub const COMPACT_ABOVE: f64 = 300.0;

pub(super) fn lane_height(role: Role, compact: bool) -> f64 {
    match (role, compact) {
        (Role::Client, false) => 64.0,
        (Role::Client, true) => 36.0,
        (Role::Resource, false) => 56.0,
        (Role::Resource, true) => 32.0,
        (Role::Redis | Role::Replica | Role::Member, false) => 48.0,
        (Role::Redis | Role::Replica | Role::Member, true) => 26.0,
    }
}

impl Lane {
    /// Where a client's belief bar goes: its top and height.
    pub fn belief_bar(&self) -> (f64, f64) {
        if self.compact {
            (self.y + 5.0, 12.0)
        } else {
            (self.y + 10.0, 16.0)
        }
    }

    /// Where a fault's block (a pause, a disk stall) goes, under the belief bar.
    pub fn block(&self) -> (f64, f64) {
        if self.compact {
            (self.y + 19.0, self.h - 20.0)
        } else {
            (self.y + 30.0, self.h - 34.0)
        }
    }

    /// Where a server's keys go: the top of their rows and the height the rows share.
    pub fn key_rows(&self) -> (f64, f64) {
        if self.compact {
            (self.y + 3.0, self.h - 10.0)
        } else {
            (self.y + 12.0, self.h - 24.0)
        }
    }
}
