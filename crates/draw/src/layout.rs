//! The timeline's geometry: [`layout`] turns a run into lanes, bars, arrows and marks in SVG
//! coordinates. Pure: no DOM, tested natively. Components only draw what this computes.

use sim::scenario::Scenario;
use sim::time::{fmt, Micros, MS, SEC};
use sim::trace::{Role, Run};

mod lane;
mod parts;

use lane::lane_height;
pub use lane::COMPACT_ABOVE;

/// Left gutter for lane names.
pub const GUTTER: f64 = 88.0;
/// Right padding.
pub const PAD: f64 = 20.0;
/// Height of the time axis at the top: the cursor's time on its own line, then the ticks'
/// labels, then the key moments' markers.
pub const AXIS: f64 = 40.0;
/// The narrowest the timeline is drawn (a phone's width: the whole run fits, and the zoom opens
/// it up).
pub const MIN_WIDTH: f64 = 320.0;
/// The space between two lanes.
pub const LANE_GAP: f64 = 4.0;

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
    pub color: Option<usize>,
    /// Drawn compact: a run of many lanes ([`COMPACT_ABOVE`]).
    pub compact: bool,
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
    /// How far its middle bows sideways (a control point's offset in x): an arrow that would
    /// be almost vertical at this zoom curves, to the left going down and to the right going
    /// up, so that a request and its reply in the same instant are two arrows, not one line.
    pub bow: f64,
    /// What it carries, written beside it where it arrives: a write to the protected resource
    /// ("write 1, token 33"), or nothing. Left out where it would overlap another label.
    pub label: Option<Label>,
    /// How many messages it stands for: ordinary messages between the same two lanes sent and
    /// received within two pixels of each other are drawn as one (a burst at a low zoom; zoomed
    /// in, they draw apart).
    pub count: usize,
    /// When the last of them was sent.
    pub last_sent_us: Micros,
}

impl Arrow {
    /// Its tooltip: the message (or how many), between which lanes, sent and arrived when. Worded
    /// when asked for (the SVG export asks for every one; the app for the one under the pointer).
    pub fn title(&self, run: &Run) -> String {
        let m = &run.intervals.messages[self.msg];
        let (from, to) = (&run.actors[m.from].name, &run.actors[m.to].name);
        if self.count > 1 {
            return format!("{from} → {to}: {} messages, sent from {} to {}", self.count, fmt(self.sent_us), fmt(self.last_sent_us));
        }
        let fate = match self.kind {
            ArrowKind::Lost => " (lost)",
            ArrowKind::InFlight => " (still in flight at the end)",
            ArrowKind::Delayed => " (held by the network)",
            ArrowKind::Normal => "",
        };
        let how = if self.kind == ArrowKind::Lost { "lost" } else { "arrived" };
        format!("{from} → {to}: {}{fate}, sent {}, {how} {}", run.what(self.msg), fmt(m.sent_us), fmt(m.arrived_us))
    }
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
    /// Where harm was done (a stale write accepted): drawn in the colour of harm.
    pub harm: bool,
    /// The picture's width: a label that would run past either side is moved in.
    pub edge: f64,
}

/// Where a label (a mark's, or an arrow's) is drawn: its text, the x it stands on (`anchor`
/// says how), and its baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub text: String,
    pub x: f64,
    pub y: f64,
    /// How the text stands on `x`.
    pub anchor: TextAnchor,
}

/// How a label's text stands on its x (SVG's `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextAnchor {
    /// It starts there.
    Start,
    /// It is centred on it.
    Middle,
    /// It ends there (a label beside the end of an arrow near the picture's right edge).
    End,
}

impl Label {
    /// Its left and right edges, by [`text_width`].
    pub fn extent(&self) -> (f64, f64) {
        let w = text_width(&self.text);
        match self.anchor {
            TextAnchor::Start => (self.x, self.x + w),
            TextAnchor::Middle => (self.x - w / 2.0, self.x + w / 2.0),
            TextAnchor::End => (self.x - w, self.x),
        }
    }
}

/// A generous estimate of the width of an 11-pixel label (bold included), for keeping labels
/// apart without measuring text in a browser.
pub fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 7.0
}

impl Arrow {
    /// The point a fraction `f` of the way along it (on its curve), for the dot of a message in
    /// flight.
    pub fn point(&self, f: f64) -> (f64, f64) {
        let g = 1.0 - f;
        let (cx, cy) = self.control();
        (g * g * self.x0 + 2.0 * g * f * cx + f * f * self.x1, g * g * self.y0 + 2.0 * g * f * cy + f * f * self.y1)
    }

    /// The control point of its curve (its middle, moved sideways by `bow`).
    pub fn control(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0 + self.bow, (self.y0 + self.y1) / 2.0)
    }
}

impl Mark {
    /// Its label, placed as its glyph draws it, or `None` when it has none (or it was left out
    /// because it would overlap another).
    pub fn label_at(&self) -> Option<Label> {
        let (x, y) = (self.x, self.y);
        let at = |text: String, x: f64, y: f64, start: bool| {
            let anchor = if start { TextAnchor::Start } else { TextAnchor::Middle };
            let label = Label { text, x, y, anchor };
            // Moved in where it would leave the picture (a mark near either end of the run).
            let (l, r) = label.extent();
            let dx = if l < 2.0 { 2.0 - l } else { (self.edge - 2.0 - r).min(0.0) };
            Some(Label { x: x + dx, ..label })
        };
        if self.label.is_empty() {
            return None;
        }
        match self.kind {
            MarkKind::Accepted | MarkKind::Rejected => at(self.label.clone(), x, y - 12.0, false),
            MarkKind::Grant => at(format!("token {}", self.label), x + 7.0, y - 14.0, true),
            MarkKind::Jump => at(self.label.clone(), x + 6.0, y - 6.0, true),
            MarkKind::Violation => at(self.label.clone(), x, y + 11.0, false),
            MarkKind::Expired | MarkKind::Crash | MarkKind::Restart => None,
        }
    }
}

/// A pause fault drawn on its lane; `fault` indexes `Scenario::faults`, so it can be dragged.
#[derive(Clone, Debug, PartialEq)]
pub struct PauseBlock {
    pub fault: usize,
    /// What it is called on the block: "paused", or "disk stall".
    pub label: &'static str,
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
        self.x0 + ((t.clamp(Micros::ZERO, self.end_us)).as_f64() / (self.end_us.max(Micros::us(1))).as_f64()) * (self.x1 - self.x0)
    }

    /// The true time at an x (clamped to the run).
    pub fn t(&self, x: f64) -> Micros {
        let f = ((x - self.x0) / (self.x1 - self.x0).max(1.0)).clamp(0.0, 1.0);
        Micros::from_f64((f * self.end_us.as_f64()).round())
    }

    /// Microseconds per pixel, for dragging.
    pub fn us_per_px(&self) -> f64 {
        self.end_us.as_f64() / (self.x1 - self.x0).max(1.0)
    }

    /// The lane at a y, if any.
    pub fn lane_at(&self, y: f64) -> Option<&Lane> {
        self.lanes.iter().find(|l| y >= l.y && y < l.y + l.h)
    }

    fn lane(&self, actor: usize) -> &Lane {
        &self.lanes[actor]
    }
}

/// A tick step giving at most `max` ticks over `end`.
fn tick_step(end: Micros, max: usize) -> Micros {
    const STEPS: [Micros; 16] = [
        MS,
        Micros::ms(2),
        Micros::ms(5),
        Micros::ms(10),
        Micros::ms(20),
        Micros::ms(50),
        Micros::ms(100),
        Micros::ms(200),
        Micros::ms(500),
        SEC,
        Micros::secs(2),
        Micros::secs(5),
        Micros::secs(10),
        Micros::secs(20),
        Micros::secs(30),
        Micros::secs(60),
    ];
    STEPS.iter().copied().find(|&s| end / s <= max as i64).unwrap_or(300 * SEC)
}

/// Lays out a run at a given width (CSS pixels).
pub fn layout(run: &Run, sc: &Scenario, width: f64) -> Layout {
    layout_until(run, sc, width, run.end_us)
}

/// Lays out a run with its time axis running to `end_us` instead of the run's own end, so that
/// two runs drawn one above the other share one time scale.
pub fn layout_until(run: &Run, sc: &Scenario, width: f64, end_us: Micros) -> Layout {
    let width = width.max(MIN_WIDTH);
    let mut lanes = Vec::new();
    let mut y = AXIS + 6.0;
    let mut next_color = 0;
    let full: f64 = run.actors.iter().map(|a| lane_height(a.role, false) + LANE_GAP).sum::<f64>() + y + 4.0;
    let compact = full > COMPACT_ABOVE;
    for (i, a) in run.actors.iter().enumerate() {
        let h = lane_height(a.role, compact);
        let color = (a.role == Role::Client).then(|| {
            next_color += 1;
            next_color - 1
        });
        lanes.push(Lane { actor: i, name: a.name.clone(), role: a.role, y, h, mid: y + h / 2.0, color, compact });
        y += h + LANE_GAP;
    }
    let end_us = end_us.max(Micros::us(1));
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
    let mut t = Micros::ZERO;
    while t <= end_us {
        l.ticks.push(Tick { x: l.x(t), label: fmt(t).replace(' ', "\u{a0}") });
        t += step;
    }
    parts::beliefs(&mut l, run);
    parts::keys(&mut l, run, sc);
    parts::spans(&mut l, run);
    parts::pauses(&mut l, run, sc);
    parts::arrows(&mut l, run);
    parts::marks(&mut l, run, sc);
    l
}
