//! The parts of a [`Layout`]: bars for beliefs, keys and spans, pause blocks, arrows and marks,
//! each added by one function from the run.

use sim::flat::Map;

use sim::scenario::Scenario;
use sim::time::{fmt, Micros};
use sim::trace::{EventKind, KeyEnd, MsgFate, Run};

use super::{Arrow, ArrowKind, Bar, BarKind, Label, Layout, Mark, MarkKind, PauseBlock, TextAnchor, AXIS};

/// What each client believed: a bar while its lease is valid by its own clock, a stale bar
/// after.
pub(super) fn beliefs(l: &mut Layout, run: &Run) {
    for b in &run.intervals.beliefs {
        let lane = l.lane(b.client).clone();
        let token = b.token.map(|t| format!(" · token {t}")).unwrap_or_default();
        let valid_end = b.valid_until_us.min(b.to_us);
        let (by, bh) = lane.belief_bar();
        if valid_end > b.from_us {
            l.bars.push(Bar {
                kind: BarKind::Belief,
                x0: l.x(b.from_us),
                x1: l.x(valid_end),
                y: by,
                h: bh,
                color: lane.color,
                label: format!("holds{token}"),
                title: format!(
                    "{} holds the lock{token}, from {} until its lease runs out {}",
                    lane.name,
                    fmt(b.from_us),
                    sim::checker::words::by_own_clock(run, b.client, b.valid_until_us)
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
                color: lane.color,
                label: "still believes it holds the lock".into(),
                title: format!(
                    "{}'s lease ran out {}, but it still believes it holds the lock until {}",
                    lane.name,
                    sim::checker::words::by_own_clock(run, b.client, from),
                    fmt(b.to_us)
                ),
            });
        }
    }
}

/// For each key, its row on its node: keys on one node can coexist (a consensus lock queue),
/// so each gets a row of its own. Also the number of rows on each node.
fn key_rows(run: &Run) -> (Vec<usize>, Map<usize, usize>) {
    let mut rows_of: Vec<usize> = vec![0; run.intervals.keys.len()];
    let mut rows_on: Map<usize, usize> = Default::default();
    let mut order: Vec<usize> = (0..run.intervals.keys.len()).collect();
    sim::sort::by_key(&mut order, |&i| (run.intervals.keys[i].node, run.intervals.keys[i].from_us));
    let mut ends: Map<usize, Vec<Micros>> = Default::default();
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
    (rows_of, rows_on)
}

/// The lock keys on their nodes, in their owners' colours.
pub(super) fn keys(l: &mut Layout, run: &Run, sc: &Scenario) {
    let key = sc.lock.kind.lock_word();
    let (rows_of, rows_on) = key_rows(run);
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
        let (top, room) = lane.key_rows();
        let row_h = room / rows;
        l.bars.push(Bar {
            kind: BarKind::Key,
            x0: l.x(k.from_us),
            x1: l.x(k.to_us).max(l.x(k.from_us) + 2.0),
            y: top + row_h * rows_of[i] as f64,
            h: (row_h - 1.0).max(3.0),
            color: k.owner.and_then(|o| l.lanes[o].color),
            label: format!("{key} of {owner}"),
            title: format!("{} holds {owner}'s {key} from {} to {} ({how})", lane.name, fmt(k.from_us), fmt(k.to_us)),
        });
    }
}

/// Actors down and cut off.
pub(super) fn spans(l: &mut Layout, run: &Run) {
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
}

/// The scenario's faults drawn as blocks (pauses, disk stalls: `Fault::block`), which can be
/// dragged.
pub(super) fn pauses(l: &mut Layout, run: &Run, sc: &Scenario) {
    for (i, f) in sc.faults.iter().enumerate() {
        let Some(b) = f.block() else { continue };
        let Some(a) = run.actor_id(b.actor) else { continue };
        let lane = l.lane(a).clone();
        let (from, to) = (b.at_ms.to_micros(), (b.at_ms + b.duration_ms).to_micros());
        l.pauses.push(PauseBlock {
            fault: i,
            label: b.label,
            actor: a,
            x0: l.x(from),
            x1: l.x(to).max(l.x(from) + 6.0),
            y: lane.block().0,
            h: lane.block().1,
            title: format!("{}{} from {} to {} (drag to move, drag the right edge to resize)", b.actor, b.what, fmt(from), fmt(to)),
        });
    }
}

/// Below this width in pixels an arrow bows (`Arrow::bow`), the more the narrower.
const STRAIGHT: f64 = 16.0;

/// The messages that carry a write (or a token-checked read) to the resource, by the resource's
/// decision on receiving them: those arrows are labelled with what they carry and its token
/// ("write, token 33").
fn decided(run: &Run) -> Vec<Option<String>> {
    let mut out = vec![None; run.intervals.messages.len()];
    for w in run.events.windows(2) {
        let (EventKind::Receive { msg, .. }, next) = (&w[0].kind, &w[1]) else { continue };
        let token = match next.kind {
            EventKind::Accepted { token, .. } | EventKind::Rejected { token, .. } | EventKind::Checked { token, .. } => token,
            EventKind::Duplicate { .. } | EventKind::Conflict { .. } => None,
            _ => continue,
        };
        if next.actor != w[0].actor || next.at_us != w[0].at_us {
            continue;
        }
        if *msg >= out.len() {
            continue;
        }
        // The verb of what it carries ("write 1, token 33" is a write).
        let what = run.what(*msg);
        let verb = what.split_whitespace().next().unwrap_or("write");
        out[*msg] = Some(token.map_or_else(|| verb.to_string(), |t| format!("{verb}, token {t}")));
    }
    out
}

/// Every message, from lane to lane; a burst of ordinary messages between the same two lanes
/// closer than two pixels is one arrow (`Arrow::count`).
pub(super) fn arrows(l: &mut Layout, run: &Run) {
    let mut decided = decided(run);
    // The last arrow drawn from each lane to each other, by index into `l.arrows`.
    let mut last: Map<(usize, usize), usize> = Map::new();
    // The bursts: (index into `l.arrows`, the last message's send time).
    let mut bursts: Map<usize, Micros> = Map::new();
    for (i, m) in run.intervals.messages.iter().enumerate() {
        let (from, to) = (l.lane(m.from).mid, l.lane(m.to).mid);
        let kind = match (m.fate, m.delayed) {
            (MsgFate::Lost, _) => ArrowKind::Lost,
            (MsgFate::InFlight, _) => ArrowKind::InFlight,
            (_, true) => ArrowKind::Delayed,
            _ => ArrowKind::Normal,
        };
        let (x0, x1) = (l.x(m.sent_us), l.x(m.arrived_us));
        if kind == ArrowKind::Normal {
            if let Some(&j) = last.get(&(m.from, m.to)) {
                let a = &mut l.arrows[j];
                if a.kind == ArrowKind::Normal && (x0 - a.x0).abs() < 2.0 && (x1 - a.x1).abs() < 2.0 {
                    a.count += 1;
                    bursts.insert(j, m.sent_us);
                    continue;
                }
            }
        }
        last.insert((m.from, m.to), l.arrows.len());
        let bow = (STRAIGHT - (x1 - x0).abs()).max(0.0) * 0.75 * if to > from { -1.0 } else { 1.0 };
        let label = decided.get_mut(i).and_then(Option::take).and_then(|text| {
            // Beside the arrow's end, just outside the lane it arrives at: after it, or ending
            // at it where the picture ends too soon (or not at all where neither side has room:
            // its words stay in the tooltip).
            let lane = l.lane(m.to);
            let y = if to > from { lane.y - 3.0 } else { lane.y + lane.h + 11.0 };
            let w = super::text_width(&text);
            let (x, anchor) = match () {
                _ if x1 + 5.0 + w <= l.width => (x1 + 5.0, TextAnchor::Start),
                _ if x1 - 5.0 - w >= 0.0 => (x1 - 5.0, TextAnchor::End),
                _ => return None,
            };
            Some(Label { text, x, y, anchor })
        });
        l.arrows.push(Arrow {
            msg: i,
            x0,
            y0: from,
            x1,
            y1: to,
            sent_us: m.sent_us,
            arrived_us: m.arrived_us,
            kind,
            bow,
            label,
            count: 1,
            last_sent_us: m.sent_us,
        });
    }
    for (j, until) in bursts {
        l.arrows[j].last_sent_us = until;
    }
}

/// Marks for the events worth one (grants, expiries, writes, faults), then the violations.
pub(super) fn marks(l: &mut Layout, run: &Run, sc: &Scenario) {
    let tell = sim::narrate::Cx::new(sc, run);
    let harmful: Vec<usize> = run.verdict.violations.iter().filter_map(|v| v.event).collect();
    for e in &run.events {
        // Every event passes here: its lane's middle, not a copy of the lane with its name.
        let mid = l.lane(e.actor).mid;
        let harm = harmful.contains(&e.id);
        let (kind, label) = match &e.kind {
            EventKind::KeySet { token, .. } => (MarkKind::Grant, token.map(|t| t.to_string()).unwrap_or_default()),
            EventKind::KeyExpired { .. } => (MarkKind::Expired, String::new()),
            // The write that did harm says so; a rejection shows the comparison that made it.
            EventKind::Accepted { token, .. } if harm => {
                (MarkKind::Accepted, token.map_or_else(|| "stale".into(), |t| format!("stale {t}")))
            }
            EventKind::Accepted { token, .. } => (MarkKind::Accepted, token.map(|t| t.to_string()).unwrap_or_else(|| "✓".into())),
            EventKind::Rejected { token: Some(t), highest, .. } => (MarkKind::Rejected, format!("{t} < {highest}: rejected")),
            EventKind::Rejected { token: None, .. } => (MarkKind::Rejected, "no token: rejected".into()),
            // An external effect sent from inside a transaction: out (or recognised and dropped).
            EventKind::EffectSent { deduplicated: false, .. } => (MarkKind::Accepted, "✉".into()),
            EventKind::EffectSent { deduplicated: true, .. } => (MarkKind::Rejected, "✉".into()),
            EventKind::ClockJumped { by_us } => {
                (MarkKind::Jump, format!("{}{}", if *by_us >= Micros::ZERO { "+" } else { "−" }, fmt(by_us.abs())))
            }
            EventKind::Crashed => (MarkKind::Crash, String::new()),
            EventKind::Restarted { .. } | EventKind::Promoted => (MarkKind::Restart, String::new()),
            _ => continue,
        };
        l.marks.push(Mark { kind, x: l.x(e.at_us), y: mid, event: Some(e.id), label, title: tell.event(e), harm, edge: l.width });
    }
    for v in &run.verdict.violations {
        let lane_y = l.lanes.last().map(|r| r.mid + 11.0).unwrap_or(AXIS);
        l.marks.push(Mark {
            kind: MarkKind::Violation,
            x: l.x(v.at_us),
            y: lane_y,
            event: v.event,
            label: "!".into(),
            title: format!("{}: {}", v.property, sim::checker::words::explanation(run, v)),
            harm: true,
            edge: l.width,
        });
    }
    declutter(&mut l.marks, &mut l.arrows);
}

/// Leaves out a label (of a mark or an arrow) that would overlap a label already kept, taking
/// them from left to right (their words stay in the titles): at any zoom, no two labels
/// overlap.
fn declutter(marks: &mut [Mark], arrows: &mut [Arrow]) {
    // (left, right, baseline, Ok(mark) or Err(arrow)).
    let mut all: Vec<(f64, f64, f64, Result<usize, usize>)> = Vec::new();
    for (i, m) in marks.iter().enumerate() {
        if let Some(label) = m.label_at() {
            let (l, r) = label.extent();
            all.push((l, r, label.y, Ok(i)));
        }
    }
    for (i, a) in arrows.iter().enumerate() {
        if let Some(label) = &a.label {
            let (l, r) = label.extent();
            all.push((l, r, label.y, Err(i)));
        }
    }
    // A label that ends at its arrow (no room after it) stands to the left of what it names,
    // over what others did there: it gives way to every label beside its own arrow or mark
    // (issue 50: on a phone, A's "write, token 33" ended over B's write and took its label).
    let ends_at = |w: &Result<usize, usize>| matches!(w, Err(i) if arrows[*i].label.as_ref().is_some_and(|l| l.anchor == TextAnchor::End));
    sim::sort::by(&mut all, |a, b| ends_at(&a.3).cmp(&ends_at(&b.3)).then(a.0.total_cmp(&b.0)));
    let first = all.iter().take_while(|a| !ends_at(&a.3)).count();
    // Kept labels: (left, right, baseline); `near`, those that may still meet the next one.
    let (mut kept, mut near): (Vec<(f64, f64, f64)>, Vec<(f64, f64, f64)>) = (Vec::new(), Vec::new());
    for (k, (l, r, y, which)) in all.into_iter().enumerate() {
        // Sorted by left edge within each group: a kept label ending before this one starts
        // cannot meet it or any label after it in the group; the second group meets them all.
        if k == first {
            near = kept.clone();
        }
        near.retain(|&(_, kr, _)| k >= first || kr + 3.0 > l);
        if near.iter().any(|&(kl, kr, ky)| kl < r + 3.0 && l < kr + 3.0 && (ky - y).abs() < 12.0) {
            match which {
                Ok(i) => marks[i].label.clear(),
                Err(i) => arrows[i].label = None,
            }
        } else {
            kept.push((l, r, y));
            near.push((l, r, y));
        }
    }
}
