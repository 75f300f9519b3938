//! The timeline's geometry: [`layout`] turns a run into lanes, bars, arrows and marks in SVG
//! coordinates. Pure: no DOM, tested natively. Components only draw what this computes.

use sim::scenario::{Fault, Scenario};
use sim::time::{fmt, Micros, MS, SEC};
use sim::trace::{EventKind, KeyEnd, MsgFate, Role, Run};

/// Left gutter for lane names.
pub const GUTTER: f64 = 88.0;
/// Right padding.
pub const PAD: f64 = 20.0;
/// Height of the time axis at the top.
pub const AXIS: f64 = 30.0;
/// The narrowest the timeline is drawn; narrower screens scroll it.
pub const MIN_WIDTH: f64 = 640.0;

/// One actor's horizontal band.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub actor: usize,
    pub name: String,
    pub role: Role,
    /// Top, height, and the line messages attach to.
    pub y: f64,
    pub h: f64,
    pub mid: f64,
    /// Index into the palette (clients only; servers are neutral).
    pub color: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub x: f64,
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// A client believes it holds the lock and its lease is still valid by its own clock.
    Belief,
    /// A client still believes it holds the lock, but its lease has run out.
    Stale,
    /// A lock key on a Redis node.
    Key,
    /// The actor is down.
    Down,
    /// The actor is cut off.
    Partition,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub kind: BarKind,
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    pub h: f64,
    /// Palette index of the client concerned.
    pub color: Option<usize>,
    pub label: String,
    pub title: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    Normal,
    Delayed,
    Lost,
    InFlight,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub msg: usize,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub sent_us: Micros,
    pub arrived_us: Micros,
    pub kind: ArrowKind,
    pub title: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Grant,
    Expired,
    Accepted,
    Rejected,
    Violation,
    Jump,
    Crash,
    Restart,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub kind: MarkKind,
    pub x: f64,
    pub y: f64,
    pub event: Option<usize>,
    pub label: String,
    pub title: String,
}

/// A pause fault drawn on its lane; `fault` indexes `Scenario::faults`, so it can be dragged.
#[derive(Clone, Debug, PartialEq)]
pub struct PauseBlock {
    pub fault: usize,
    pub actor: usize,
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    pub h: f64,
    pub title: String,
}

/// Everything the timeline draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub x0: f64,
    pub x1: f64,
    pub end_us: Micros,
    pub lanes: Vec<Lane>,
    pub ticks: Vec<Tick>,
    pub bars: Vec<Bar>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
    pub pauses: Vec<PauseBlock>,
}

impl Layout {
    /// The x of a true time.
    pub fn x(&self, t: Micros) -> f64 {
        self.x0 + (t.clamp(0, self.end_us) as f64 / self.end_us.max(1) as f64) * (self.x1 - self.x0)
    }

    /// The true time at an x (clamped to the run).
    pub fn t(&self, x: f64) -> Micros {
        let f = ((x - self.x0) / (self.x1 - self.x0).max(1.0)).clamp(0.0, 1.0);
        (f * self.end_us as f64).round() as Micros
    }

    /// Microseconds per pixel, for dragging.
    pub fn us_per_px(&self) -> f64 {
        self.end_us as f64 / (self.x1 - self.x0).max(1.0)
    }

    /// The lane at a y, if any.
    pub fn lane_at(&self, y: f64) -> Option<&Lane> {
        self.lanes.iter().find(|l| y >= l.y && y < l.y + l.h)
    }

    fn lane(&self, actor: usize) -> &Lane {
        &self.lanes[actor]
    }
}

fn lane_height(role: Role) -> f64 {
    match role {
        Role::Client => 64.0,
        Role::Redis | Role::Replica | Role::Member => 48.0,
        Role::Resource => 56.0,
    }
}

/// A tick step giving at most `max` ticks over `end`.
fn tick_step(end: Micros, max: usize) -> Micros {
    const STEPS: [Micros; 16] = [
        MS,
        2 * MS,
        5 * MS,
        10 * MS,
        20 * MS,
        50 * MS,
        100 * MS,
        200 * MS,
        500 * MS,
        SEC,
        2 * SEC,
        5 * SEC,
        10 * SEC,
        20 * SEC,
        30 * SEC,
        60 * SEC,
    ];
    STEPS.iter().copied().find(|s| end / s <= max as Micros).unwrap_or(300 * SEC)
}

/// Lays out a run at a given width (CSS pixels).
pub fn layout(run: &Run, sc: &Scenario, width: f64) -> Layout {
    let width = width.max(MIN_WIDTH);
    let mut lanes = Vec::new();
    let mut y = AXIS + 6.0;
    let mut next_color = 0;
    for (i, a) in run.actors.iter().enumerate() {
        let h = lane_height(a.role);
        let color = if a.role == Role::Client {
            next_color += 1;
            next_color - 1
        } else {
            usize::MAX
        };
        lanes.push(Lane { actor: i, name: a.name.clone(), role: a.role, y, h, mid: y + h / 2.0, color });
        y += h + 4.0;
    }
    let end_us = run.end_us.max(1);
    let mut l = Layout {
        width,
        height: y + 4.0,
        x0: GUTTER,
        x1: width - PAD,
        end_us,
        lanes,
        ticks: vec![],
        bars: vec![],
        arrows: vec![],
        marks: vec![],
        pauses: vec![],
    };
    let step = tick_step(end_us, ((l.x1 - l.x0) / 72.0).max(2.0) as usize);
    let mut t = 0;
    while t <= end_us {
        l.ticks.push(Tick { x: l.x(t), label: fmt(t).replace(' ', "\u{a0}") });
        t += step;
    }
    let color_of = |l: &Layout, a: Option<usize>| a.map(|a| l.lanes[a].color).filter(|c| *c != usize::MAX);

    for b in &run.intervals.beliefs {
        let lane = l.lane(b.client).clone();
        let token = b.token.map(|t| format!(" · token {t}")).unwrap_or_default();
        let valid_end = b.valid_until_us.min(b.to_us);
        let (by, bh) = (lane.y + 10.0, 16.0);
        if valid_end > b.from_us {
            l.bars.push(Bar {
                kind: BarKind::Belief,
                x0: l.x(b.from_us),
                x1: l.x(valid_end),
                y: by,
                h: bh,
                color: Some(lane.color),
                label: format!("holds{token}"),
                title: format!(
                    "{} holds the lock{token}, from {} until its lease runs out at {} by its own clock",
                    lane.name,
                    fmt(b.from_us),
                    fmt(b.valid_until_us)
                ),
            });
        }
        if b.to_us > b.valid_until_us {
            let from = b.valid_until_us.max(b.from_us);
            l.bars.push(Bar {
                kind: BarKind::Stale,
                x0: l.x(from),
                x1: l.x(b.to_us),
                y: by,
                h: bh,
                color: Some(lane.color),
                label: "still believes it holds the lock".into(),
                title: format!(
                    "{}'s lease ran out at {} by its own clock, but it still believes it holds the lock until {}",
                    lane.name,
                    fmt(from),
                    fmt(b.to_us)
                ),
            });
        }
    }
    // Keys on one node can coexist (a consensus lock queue): give each a row of its own.
    let mut rows_of: Vec<usize> = vec![0; run.intervals.keys.len()];
    let mut rows_on: std::collections::BTreeMap<usize, usize> = Default::default();
    {
        let mut order: Vec<usize> = (0..run.intervals.keys.len()).collect();
        order.sort_by_key(|&i| (run.intervals.keys[i].node, run.intervals.keys[i].from_us));
        let mut ends: std::collections::BTreeMap<usize, Vec<Micros>> = Default::default();
        for i in order {
            let k = &run.intervals.keys[i];
            let rows = ends.entry(k.node).or_default();
            let row = rows.iter().position(|&end| end <= k.from_us).unwrap_or(rows.len());
            if row == rows.len() {
                rows.push(k.to_us);
            } else {
                rows[row] = k.to_us;
            }
            rows_of[i] = row;
            let n = rows_on.entry(k.node).or_insert(0);
            *n = (*n).max(row + 1);
        }
    }
    for (i, k) in run.intervals.keys.iter().enumerate() {
        let lane = l.lane(k.node).clone();
        let owner = k.owner.map(|o| run.actors[o].name.clone()).unwrap_or_else(|| "?".into());
        let how = match k.end {
            KeyEnd::Expired => "expired",
            KeyEnd::Deleted => "deleted",
            KeyEnd::Lost => "lost",
            KeyEnd::RunEnd => "still there at the end",
        };
        let rows = rows_on.get(&k.node).copied().unwrap_or(1).max(1) as f64;
        let row_h = (lane.h - 24.0) / rows;
        l.bars.push(Bar {
            kind: BarKind::Key,
            x0: l.x(k.from_us),
            x1: l.x(k.to_us).max(l.x(k.from_us) + 2.0),
            y: lane.y + 12.0 + row_h * rows_of[i] as f64,
            h: (row_h - 1.0).max(3.0),
            color: color_of(&l, k.owner),
            label: format!("key of {owner}"),
            title: format!("{} holds {owner}'s key from {} to {} ({how})", lane.name, fmt(k.from_us), fmt(k.to_us)),
        });
    }
    let spans = run
        .intervals
        .downs
        .iter()
        .map(|d| (d, BarKind::Down, "down", "is down"))
        .chain(run.intervals.partitions.iter().map(|p| (p, BarKind::Partition, "cut off", "is cut off")));
    for (span, kind, label, what) in spans {
        let lane = l.lane(span.actor).clone();
        l.bars.push(Bar {
            kind,
            x0: l.x(span.from_us),
            x1: l.x(span.to_us),
            y: lane.y + 2.0,
            h: lane.h - 4.0,
            color: None,
            label: label.into(),
            title: format!("{} {what} from {} to {}", lane.name, fmt(span.from_us), fmt(span.to_us)),
        });
    }
    for (i, f) in sc.faults.iter().enumerate() {
        if let Fault::Pause { actor, at_ms, duration_ms } = f {
            let Some(a) = run.actor_id(actor) else { continue };
            let lane = l.lane(a).clone();
            let (from, to) = (*at_ms as Micros * MS, (*at_ms + *duration_ms) as Micros * MS);
            l.pauses.push(PauseBlock {
                fault: i,
                actor: a,
                x0: l.x(from),
                x1: l.x(to).max(l.x(from) + 6.0),
                y: lane.y + 30.0,
                h: lane.h - 34.0,
                title: format!("{actor} paused from {} to {} (drag to move, drag the right edge to resize)", fmt(from), fmt(to)),
            });
        }
    }
    for (i, m) in run.intervals.messages.iter().enumerate() {
        let (from, to) = (l.lane(m.from).mid, l.lane(m.to).mid);
        let kind = match (m.fate, m.delayed) {
            (MsgFate::Lost, _) => ArrowKind::Lost,
            (MsgFate::InFlight, _) => ArrowKind::InFlight,
            (_, true) => ArrowKind::Delayed,
            _ => ArrowKind::Normal,
        };
        let fate = match kind {
            ArrowKind::Lost => " (lost)",
            ArrowKind::InFlight => " (still in flight at the end)",
            ArrowKind::Delayed => " (held by the network)",
            ArrowKind::Normal => "",
        };
        l.arrows.push(Arrow {
            msg: i,
            x0: l.x(m.sent_us),
            y0: from,
            x1: l.x(m.arrived_us),
            y1: to,
            sent_us: m.sent_us,
            arrived_us: m.arrived_us,
            kind,
            title: format!(
                "{} → {}: {}{fate}, sent {}, {} {}",
                run.actors[m.from].name,
                run.actors[m.to].name,
                m.what,
                fmt(m.sent_us),
                if kind == ArrowKind::Lost { "lost" } else { "arrived" },
                fmt(m.arrived_us)
            ),
        });
    }
    for e in &run.events {
        let lane = l.lane(e.actor).clone();
        let (kind, label) = match &e.kind {
            EventKind::KeySet { token, .. } => (MarkKind::Grant, token.map(|t| t.to_string()).unwrap_or_default()),
            EventKind::KeyExpired { .. } => (MarkKind::Expired, String::new()),
            EventKind::Accepted { token, .. } => (MarkKind::Accepted, token.map(|t| t.to_string()).unwrap_or_else(|| "✓".into())),
            EventKind::Rejected { token, .. } => (MarkKind::Rejected, token.map(|t| t.to_string()).unwrap_or_default()),
            EventKind::ClockJumped { by_us } => (MarkKind::Jump, format!("{}{}", if *by_us >= 0 { "+" } else { "−" }, fmt(by_us.abs()))),
            EventKind::Crashed => (MarkKind::Crash, String::new()),
            EventKind::Restarted { .. } | EventKind::Promoted => (MarkKind::Restart, String::new()),
            _ => continue,
        };
        l.marks.push(Mark { kind, x: l.x(e.at_us), y: lane.mid, event: Some(e.id), label, title: e.text.clone() });
    }
    for v in &run.verdict.violations {
        let lane_y = l.lanes.last().map(|r| r.mid + 11.0).unwrap_or(AXIS);
        l.marks.push(Mark {
            kind: MarkKind::Violation,
            x: l.x(v.at_us),
            y: lane_y,
            event: v.event,
            label: "!".into(),
            title: format!("{}: {}", v.property, v.explanation),
        });
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_queue_stacks_its_keys() {
        let s = sim::library::get("consensus-wait-expired").unwrap();
        let r = sim::run(&s).unwrap();
        let l = layout(&r, &s, 1280.0);
        let keys: Vec<&Bar> = l.bars.iter().filter(|b| b.kind == BarKind::Key).collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                let overlap_x = a.x0 < b.x1 && b.x0 < a.x1;
                let overlap_y = a.y < b.y + b.h && b.y < a.y + a.h;
                assert!(!(overlap_x && overlap_y), "{a:?} overlaps {b:?}");
            }
        }
    }

    fn gc() -> (Scenario, Run) {
        let s = sim::library::get("gc-pause-unfenced").unwrap();
        let r = sim::run(&s).unwrap();
        (s, r)
    }

    #[test]
    fn lanes_stack_without_overlap_in_actor_order() {
        let (s, r) = gc();
        let l = layout(&r, &s, 1000.0);
        let names: Vec<&str> = l.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "redis", "resource"]);
        for w in l.lanes.windows(2) {
            assert!(w[0].y + w[0].h <= w[1].y, "{w:?}");
        }
        assert!(l.height >= l.lanes.last().map(|l| l.y + l.h).unwrap());
    }

    #[test]
    fn time_maps_to_x_and_back() {
        let (s, r) = gc();
        let l = layout(&r, &s, 1000.0);
        assert_eq!(l.x(0), GUTTER);
        assert_eq!(l.x(r.end_us), 1000.0 - PAD);
        assert_eq!(l.t(l.x(12 * SEC)), 12 * SEC);
        assert_eq!(l.t(-50.0), 0);
    }

    #[test]
    fn ticks_are_readable() {
        let (s, r) = gc();
        let l = layout(&r, &s, 1280.0);
        assert!(l.ticks.len() >= 5 && l.ticks.len() <= 17, "{}", l.ticks.len());
        for w in l.ticks.windows(2) {
            assert!(w[1].x - w[0].x >= 60.0, "ticks too close: {w:?}");
        }
        assert_eq!(l.ticks[1].label, "5\u{a0}s");
    }

    #[test]
    fn the_gc_pause_story_is_drawn() {
        let (s, r) = gc();
        let l = layout(&r, &s, 1280.0);
        // A's belief turns stale when its lease runs out during the pause.
        assert!(l.bars.iter().any(|b| b.kind == BarKind::Stale && b.color == Some(0)));
        assert!(l.bars.iter().any(|b| b.kind == BarKind::Belief && b.color == Some(1)));
        // Two keys on redis, A's then B's.
        assert_eq!(l.bars.iter().filter(|b| b.kind == BarKind::Key).count(), 2);
        // The pause is draggable: it points at fault 0.
        assert_eq!(l.pauses.len(), 1);
        assert_eq!(l.pauses[0].fault, 0);
        assert!(l.pauses[0].x1 > l.pauses[0].x0 + 100.0);
        // Both writes accepted, violations marked.
        assert_eq!(l.marks.iter().filter(|m| m.kind == MarkKind::Accepted).count(), 2);
        assert!(l.marks.iter().any(|m| m.kind == MarkKind::Violation));
        // Every arrow goes forward in time.
        assert!(l.arrows.iter().all(|a| a.x1 >= a.x0));
    }

    #[test]
    fn narrow_screens_get_the_minimum_width() {
        let (s, r) = gc();
        let l = layout(&r, &s, 300.0);
        assert_eq!(l.width, MIN_WIDTH);
    }
}
