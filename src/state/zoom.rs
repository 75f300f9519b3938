//! How far the timeline is zoomed: [`View`] (1 = the whole run fits the width) and the zoom
//! actions ([`ZoomTo`]). The timeline lays the run out at its width times the zoom, in a box
//! that scrolls; which time stays in place is the timeline's business (the pointer's time for a
//! wheel or a pinch, else the cursor's).

use sim::facts::Facts;
use sim::time::Micros;
use sim::trace::Run;

use super::Screen;

/// The most a run is magnified: until the view spans this much true time (about 20 µs a pixel on
/// a 1,000-pixel timeline), so that a 3 ms Redlock round opens up inside a 2-minute run.
pub const NARROWEST_US: Micros = Micros::ms(20);

/// Each step of the zoom buttons and keys.
pub const STEP: f64 = 2.0;

/// The timeline's zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// 1 = the whole run fits; 2 = half of it fills the width.
    pub zoom: f64,
    /// Centre the cursor after this zoom (zoom to a moment), rather than keep it where it was.
    pub center: bool,
    /// Opened zoomed in on the run's first key moment, at this true time (see [`View::opening`]):
    /// the timeline puts it three quarters of the way across, and says why it is zoomed in.
    /// Gone with the first change of zoom.
    pub first: Option<Micros>,
}

impl Default for View {
    fn default() -> View {
        View { zoom: 1.0, center: false, first: None }
    }
}

/// The width of timeline a run is judged crowded at (a laptop's).
const OPENING_WIDTH: f64 = 800.0;

impl View {
    /// How a run opens: whole (1×), unless its first key moment is a tangle of messages there
    /// (a Redlock round to five nodes in 3 ms of a 30 s run); then zoomed in on the stretch a
    /// walkthrough's picture of that moment draws (`draw::svg::walk::focus`: what led to it
    /// drawn apart, the moment three quarters of the way across).
    pub fn opening(run: &Run, facts: &Facts) -> View {
        let Some(&first) = facts.moments().first() else { return View::default() };
        let Some(w) = draw::svg::walk::focus(run, first, OPENING_WIDTH) else { return View::default() };
        let end = run.end_us.max(Micros::us(1));
        let zoom = (end.as_f64() / (w.to_us - w.from_us).max(Micros::us(1)).as_f64()).clamp(1.0, max_zoom(end));
        match run.events.get(first) {
            Some(e) if zoom >= 2.0 => View { zoom, center: false, first: Some(e.at_us) },
            _ => View::default(),
        }
    }
}

impl View {
    /// A view that frames a drill question's cause and its moment: the step at `at_us` centred,
    /// zoomed in so that `from_us`, where its cause began, shows too; the whole run where that
    /// needs little zoom (issue 50: "A is cut off from etcd" drew 18 ms around its step, without
    /// the partition it asks about).
    pub fn framing(run: &Run, from_us: Micros, at_us: Micros) -> View {
        let end = run.end_us.max(Micros::us(1));
        let half = (at_us - from_us).max(NARROWEST_US).as_f64() * 1.3;
        let zoom = (end.as_f64() / (2.0 * half)).clamp(1.0, max_zoom(end));
        if zoom < 1.5 {
            View::default()
        } else {
            View { zoom, center: true, first: None }
        }
    }
}

/// Where the cause of what happens at `at_us` began: the start of the earliest fault span (a
/// pause, a crash, a partition) the moment falls in, else the last fault before it; and where
/// that is the moment itself (a question asked as a partition begins), the start of the leases
/// believed held then, what the fault strikes.
pub fn cause_from(run: &Run, at_us: Micros) -> Micros {
    let iv = &run.intervals;
    let spans = iv.pauses.iter().chain(&iv.downs).chain(&iv.partitions);
    let inside = spans.filter(|s| s.from_us <= at_us && at_us <= s.to_us).map(|s| s.from_us).min();
    let before = || run.events.iter().filter(|e| e.kind.is_fault() && e.at_us <= at_us).map(|e| e.at_us).last();
    let from = inside.or_else(before).unwrap_or(at_us);
    if at_us - from >= NARROWEST_US {
        return from;
    }
    let held = iv.beliefs.iter().filter(|b| b.from_us <= at_us && at_us <= b.to_us).map(|b| b.from_us).min();
    held.map_or(from, |h| h.min(from))
}

/// A change of zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ZoomTo {
    In,
    Out,
    /// The whole run.
    Fit,
    /// Around the step at the cursor: its neighbours fill the width.
    Moment,
    /// By a factor (a wheel turn, a pinch).
    By(f64),
}

/// How far a run of this length can be magnified.
pub fn max_zoom(end_us: Micros) -> f64 {
    (end_us.as_f64() / NARROWEST_US.as_f64()).max(1.0)
}

impl Screen {
    /// The screen zoomed; `None` when the zoom does not change.
    pub(crate) fn zoomed(&self, to: ZoomTo) -> Option<Screen> {
        let end = self.run.end_us;
        let (zoom, center) = match to {
            ZoomTo::In => (self.view.zoom * STEP, false),
            ZoomTo::Out => (self.view.zoom / STEP, false),
            ZoomTo::Fit => (1.0, false),
            ZoomTo::By(f) if f.is_finite() && f > 0.0 => (self.view.zoom * f, false),
            ZoomTo::By(_) => return None,
            ZoomTo::Moment => (end.as_f64() / (self.moment_span()).as_f64(), true),
        };
        let view = View { zoom: zoom.clamp(1.0, max_zoom(end)), center, first: None };
        (view != self.view || center).then(|| Screen { view, ..self.clone() })
    }

    /// The true time to show around the step at the cursor: sixteen times the gap to the
    /// nearest step at another time, so that zooming to it draws them apart (the narrowest view
    /// when every step is at one time).
    fn moment_span(&self) -> Micros {
        let ev = &self.run.events;
        let Some(now) = ev.get(self.cursor).map(|e| e.at_us) else { return self.run.end_us };
        let before = ev[..self.cursor].iter().rev().map(|e| now - e.at_us).find(|&d| d > Micros::ZERO);
        let after = ev[self.cursor..].iter().map(|e| e.at_us - now).find(|&d| d > Micros::ZERO);
        let gap = before.into_iter().chain(after).min();
        gap.map_or(NARROWEST_US, |g| g * 16).max(NARROWEST_US)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(id: &str) -> Screen {
        Screen::new(sim::library::get(id).unwrap(), false).unwrap()
    }

    /// Issue 50: a drill question's picture shows where its cause began and its moment.
    #[test]
    fn a_question_is_framed_on_its_cause_and_its_moment() {
        let mut framed = 0;
        for entry in sim::library::INDEX {
            let s = screen(entry.id);
            for q in s.quiz.iter() {
                let at = s.run.events[q.answer.asked].at_us;
                let from = cause_from(&s.run, at);
                assert!(from <= at, "{}: the cause begins after the question", entry.id);
                let v = View::framing(&s.run, from, at);
                // Centred on the step: the view spans end / zoom, half of it before the step.
                let half = s.run.end_us.as_f64() / v.zoom / 2.0;
                assert!(
                    v.zoom == 1.0 || at.as_f64() - half <= from.as_f64(),
                    "{} question {}: {v:?} leaves out the cause at {from:?}",
                    entry.id,
                    q.index + 1
                );
                framed += usize::from(v.zoom > 1.0);
            }
        }
        assert!(framed > 0, "some question is framed closer than the whole run");
        // "A is cut off from etcd" (etcd-10811), asked as the partition begins: the picture goes
        // back to A's lease, which the partition strikes, rather than 18 ms around the step.
        let s = screen("etcd-10811");
        let cut = s.run.intervals.partitions.first().expect("a partition").from_us;
        let q = s.quiz.iter().find(|q| s.run.events[q.answer.asked].at_us == cut).expect("a question as the partition begins");
        let held = s.run.intervals.beliefs.first().expect("A's lease").from_us;
        assert_eq!(cause_from(&s.run, cut), held);
        let v = View::framing(&s.run, held, cut);
        assert!(v.zoom < 20.0, "{v:?} for question {}", q.index + 1);
    }

    #[test]
    fn zoom_stays_between_the_whole_run_and_the_narrowest_view() {
        let s = screen("gc-pause-unfenced");
        assert_eq!(s.zoomed(ZoomTo::Out), None, "already the whole run");
        assert_eq!(s.zoomed(ZoomTo::Fit), None);
        let mut z = s.clone();
        for _ in 0..40 {
            z = z.zoomed(ZoomTo::In).unwrap_or(z);
        }
        assert_eq!(z.view.zoom, max_zoom(s.run.end_us));
        assert!(z.zoomed(ZoomTo::In).is_none());
        assert_eq!(z.zoomed(ZoomTo::Fit).unwrap().view.zoom, 1.0);
        assert_eq!(s.zoomed(ZoomTo::By(f64::NAN)), None);
        assert_eq!(s.zoomed(ZoomTo::By(3.0)).unwrap().view.zoom, 3.0);
    }

    #[test]
    fn zooming_to_a_moment_centres_it_and_separates_its_neighbours() {
        let s = screen("redlock-happy");
        // A Redlock round: five requests within a few milliseconds of a 30-second run.
        let at = s.run.events.iter().position(|e| matches!(e.kind, sim::EventKind::Tally { .. })).unwrap();
        let z = s.at(at).zoomed(ZoomTo::Moment).unwrap();
        assert!(z.view.center);
        assert!(z.view.zoom > 100.0, "{}", z.view.zoom);
        // The zoom survives a step and an edit of the run, and a new scenario fits again.
        assert_eq!(z.at(at + 1).view.zoom, z.view.zoom);
    }

    /// Issue 34: redlock-split-vote was a grey tangle in the first 1.5 s of a 12 s axis. A run
    /// crowded at its first key moment opens zoomed in on it; the others open whole.
    #[test]
    fn a_run_crowded_at_its_first_key_moment_opens_zoomed_in_on_it() {
        let mut zoomed = Vec::new();
        for entry in sim::library::INDEX {
            let s = screen(entry.id);
            let v = s.view;
            if let Some(at) = v.first {
                let first = s.facts.moments()[0];
                assert_eq!(at, s.run.events[first].at_us, "{}", entry.id);
                assert!(v.zoom >= 2.0 && v.zoom <= max_zoom(s.run.end_us), "{}: {}", entry.id, v.zoom);
                zoomed.push(entry.id);
            } else {
                assert_eq!(v, View::default(), "{}", entry.id);
            }
        }
        eprintln!("{zoomed:?}");
        for id in ["redlock-split-vote", "redlock-happy"] {
            assert!(zoomed.contains(&id), "{id} opens zoomed in: {zoomed:?}");
        }
        for id in ["gc-pause-unfenced", "gc-pause-fenced", "db-transaction"] {
            assert!(!zoomed.contains(&id), "{id} opens whole: {zoomed:?}");
        }
        // A zoom button forgets the opening (and its note).
        let s = screen("redlock-split-vote");
        assert_eq!(s.zoomed(ZoomTo::Fit).unwrap().view, View::default());
        assert_eq!(s.zoomed(ZoomTo::In).unwrap().view.first, None);
    }
}
