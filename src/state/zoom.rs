//! How far the timeline is zoomed: [`View`] (1 = the whole run fits the width) and the zoom
//! actions ([`ZoomTo`]). The timeline lays the run out at its width times the zoom, in a box
//! that scrolls; which time stays in place is the timeline's business (the pointer's time for a
//! wheel or a pinch, else the cursor's).

use sim::time::{Micros, MS};

use super::Screen;

/// The most a run is magnified: until the view spans this much true time (about 20 µs a pixel on
/// a 1,000-pixel timeline), so that a 3 ms Redlock round opens up inside a 2-minute run.
pub const NARROWEST_US: Micros = 20 * MS;

/// Each step of the zoom buttons and keys.
pub const STEP: f64 = 2.0;

/// The timeline's zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// 1 = the whole run fits; 2 = half of it fills the width.
    pub zoom: f64,
    /// Centre the cursor after this zoom (zoom to a moment), rather than keep it where it was.
    pub center: bool,
}

impl Default for View {
    fn default() -> View {
        View { zoom: 1.0, center: false }
    }
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
    (end_us as f64 / NARROWEST_US as f64).max(1.0)
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
            ZoomTo::Moment => (end as f64 / self.moment_span() as f64, true),
        };
        let view = View { zoom: zoom.clamp(1.0, max_zoom(end)), center };
        (view != self.view || center).then(|| Screen { view, ..self.clone() })
    }

    /// The true time to show around the step at the cursor: sixteen times the gap to the
    /// nearest step at another time, so that zooming to it draws them apart (the narrowest view
    /// when every step is at one time).
    fn moment_span(&self) -> Micros {
        let ev = &self.run.events;
        let Some(now) = ev.get(self.cursor).map(|e| e.at_us) else { return self.run.end_us };
        let before = ev[..self.cursor].iter().rev().map(|e| now - e.at_us).find(|&d| d > 0);
        let after = ev[self.cursor..].iter().map(|e| e.at_us - now).find(|&d| d > 0);
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
}
