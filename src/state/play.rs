//! Playback: step by step (each step the same wall time, however far apart in true time), or in
//! time (true time passes at a chosen rate, so that a 25-second pause takes longer than a
//! 3-millisecond round; a quiet stretch, with nothing happening, is compressed, and the screen
//! says by how much).

use super::{Action, Screen, SPEEDS, STEP_MS};
use sim::time::Micros;

/// How the run plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// One step per `STEP_MS` at 1×.
    #[default]
    Steps,
    /// True time at 1× is real time, quiet stretches compressed.
    Time,
}

/// In time: the longest a quiet stretch takes at its rate before it is compressed, in
/// milliseconds of wall time. Compressed, the rate rises with what is left of the stretch, so
/// that it slows again as the next event nears (a 25-second stretch at 1× takes about 6 s).
pub const QUIET_MS: f64 = 1500.0;

/// Playback actions.
pub(super) fn played(this: &Screen, action: Action) -> Option<Screen> {
    let last = this.last();
    Some(match action {
        Action::TogglePlay => {
            if this.playing {
                Screen { playing: false, phase: 0.0, fast: 1.0, ..this.clone() }
            } else if this.cursor >= last {
                // Playing from the end starts again.
                Screen { playing: true, ..this.at(0) }
            } else if this.pending().is_some() {
                return None;
            } else {
                Screen { playing: true, at_us: None, ..this.clone() }
            }
        }
        Action::Tick(dt_ms) => {
            if !this.playing {
                return None;
            }
            let mut s = this.clone();
            // Where the time shown goes: a number of steps on (and a fraction of the next).
            let to = match s.pace {
                Pace::Steps => s.cursor as f64 + s.phase + dt_ms * SPEEDS[s.speed] / STEP_MS,
                Pace::Time => in_time(&mut s, dt_ms),
            };
            while s.cursor < last && s.cursor as f64 + 1.0 <= to {
                if s.gate(s.cursor + 1) == s.cursor {
                    // A question: stop here until it is answered.
                    s.playing = false;
                    break;
                }
                s.cursor += 1;
            }
            s.phase = if s.playing { (to - s.cursor as f64).max(0.0) } else { 0.0 };
            if s.cursor >= last {
                s.cursor = last;
                s.phase = 0.0;
                s.playing = false;
            }
            if !s.playing {
                s.fast = 1.0;
            }
            s
        }
        Action::SetSpeed(i) => Screen { speed: i.min(SPEEDS.len() - 1), ..this.clone() },
        Action::Faster => Screen { speed: (this.speed + 1).min(SPEEDS.len() - 1), ..this.clone() },
        Action::Slower => Screen { speed: this.speed.saturating_sub(1), ..this.clone() },
        Action::SetPace(pace) if pace == this.pace => return None,
        Action::SetPace(pace) => Screen { pace, fast: 1.0, ..this.clone() },
        Action::TogglePace => {
            return played(this, Action::SetPace(if this.pace == Pace::Steps { Pace::Time } else { Pace::Steps }));
        }
        _ => return None,
    })
}

/// Where `dt_ms` of wall time takes the time shown, as a step index and a fraction towards the
/// next step (the same measure as `Screen::cursor` + `Screen::phase`). A stretch longer than
/// [`QUIET_MS`] at the rate chosen is compressed (`Screen::fast` says by how much).
fn in_time(s: &mut Screen, dt_ms: f64) -> f64 {
    let ev = &s.run.events;
    let (Some(cur), Some(next)) = (ev.get(s.cursor), ev.get(s.cursor + 1)) else { return s.cursor as f64 + 1.0 };
    let now = cur.at_us.as_f64() + (next.at_us - cur.at_us).as_f64() * s.phase;
    // True microseconds per millisecond of wall time.
    let rate = SPEEDS[s.speed] * 1000.0;
    s.fast = ((next.at_us.as_f64() - now) / rate / QUIET_MS).max(1.0);
    let then = now + dt_ms * rate * s.fast;
    // The last step at or before `then`, and how far towards the one after it.
    let i = s.cursor + ev[s.cursor + 1..].partition_point(|e| e.at_us.as_f64() <= then);
    match ev.get(i + 1) {
        Some(after) => i as f64 + (then - ev[i].at_us.as_f64()) / (after.at_us - ev[i].at_us).max(Micros::us(1)).as_f64(),
        None => i as f64 + 1.0,
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use yew::Reducible;

    use super::super::{Action, Screen, SPEEDS, STEP_MS};
    use super::{Pace, QUIET_MS};
    use sim::time::Micros;

    fn playing(id: &str, pace: Pace) -> Rc<Screen> {
        let s = Rc::new(Screen::new(sim::library::get(id).unwrap(), false).unwrap());
        s.reduce(Action::SetPace(pace)).reduce(Action::TogglePlay)
    }

    /// Plays in ticks of 33 ms until `done`, returning the screen and the wall time taken.
    fn until(mut s: Rc<Screen>, done: impl Fn(&Screen) -> bool) -> (Rc<Screen>, f64) {
        let mut wall = 0.0;
        while !done(&s) && s.playing {
            s = s.reduce(Action::Tick(33.0));
            wall += 33.0;
        }
        (s, wall)
    }

    /// At 1× in time, a stretch of true time takes about as long on the wall: a step of 1 ms
    /// passes in a frame, a second of waiting takes a second.
    #[test]
    fn in_time_true_time_passes_at_the_rate_chosen() {
        let s = playing("gc-pause-unfenced", Pace::Time);
        assert_eq!(SPEEDS[s.speed], 1.0);
        // From 5 s, while B retries every second (no quiet stretch to compress).
        let at5 = s.run.events.iter().position(|e| e.at_us >= Micros::us(5_000_000)).unwrap();
        let s = Rc::new(Screen { cursor: at5, ..(*s).clone() });
        let from = s.time_us();
        let (s2, wall) = until(s, |s| s.time_us() >= from + Micros::us(4_000_000));
        assert!(s2.playing);
        // 4 s of true time, with no stretch longer than QUIET_MS: about 4 s of wall time.
        assert!((3_900.0..=4_400.0).contains(&wall), "4 s of true time took {wall} ms");
        // By steps, the same stretch is a number of steps, whatever their true times.
        let by_steps = playing("gc-pause-unfenced", Pace::Steps);
        let (s3, steps_wall) = until(Rc::new(Screen { cursor: at5, ..(*by_steps).clone() }), |s| s.cursor >= s2.cursor);
        assert_eq!(s3.cursor, s2.cursor);
        assert!((steps_wall - (s2.cursor - at5) as f64 * STEP_MS).abs() <= 66.0, "{steps_wall}");
    }

    /// A quiet stretch (nothing happens) longer than QUIET_MS is compressed, and the screen
    /// says by how much; the time shown never goes back and no step is skipped over.
    #[test]
    fn in_time_a_quiet_stretch_is_compressed_visibly_and_time_never_goes_back() {
        for sc in sim::library::all() {
            let s = playing(&sc.id, Pace::Time);
            let ev = &s.run.events;
            // The longest quiet stretch, and where it starts.
            let (i, gap) = ev.windows(2).enumerate().map(|(i, w)| (i, w[1].at_us - w[0].at_us)).max_by_key(|g| g.1).unwrap();
            let mut s = Rc::new(Screen { cursor: i, ..(*s).clone() });
            let (mut wall, mut fastest, mut last_t) = (0.0, 1.0f64, s.time_us());
            while s.cursor == i && s.playing {
                s = s.reduce(Action::Tick(33.0));
                wall += 33.0;
                fastest = fastest.max(s.fast);
                assert!(s.time_us() >= last_t, "{}: the time shown went back", sc.id);
                last_t = s.time_us();
            }
            assert!(s.cursor > i, "{}: past the stretch", sc.id);
            let plain = gap.as_f64() / 1000.0;
            if plain > QUIET_MS * 1.5 {
                assert!(fastest > 1.4, "{}: a {plain} ms stretch is compressed (fastest ×{fastest})", sc.id);
                let most = QUIET_MS * (1.0 + (plain / QUIET_MS).ln()) + 100.0;
                assert!(wall >= QUIET_MS - 100.0 && wall <= most, "{}: {plain} ms of quiet took {wall} ms", sc.id);
            } else {
                assert!((wall - plain).abs() <= 66.0, "{}: {plain} ms of true time took {wall} ms", sc.id);
            }
        }
    }

    #[test]
    fn in_time_a_question_still_stops_the_run() {
        let s = Rc::new(Screen::new(sim::library::get("gc-pause-unfenced").unwrap(), false).unwrap());
        let s = s.reduce(Action::TogglePredict).reduce(Action::SetPace(Pace::Time)).reduce(Action::TogglePlay);
        let (s, _) = until(s, |_| false);
        assert!(s.pending().is_some() && s.cursor == s.gate(s.last()), "stopped at the first question");
    }

    #[test]
    fn by_steps_each_step_takes_the_same_wall_time() {
        let s = playing("gc-pause-unfenced", Pace::Steps);
        let s = s.reduce(Action::Tick(STEP_MS * 2.5));
        assert_eq!((s.cursor, s.fast), (2, 1.0));
    }
}
