//! At a violation, the harm and the sentence that explains it are brought into view together:
//! on a phone the controls stay at the bottom of the screen over the timeline, and on a laptop a
//! reader who scrolled down to the editor would otherwise press V and see nothing move.

use yew::prelude::*;

/// The margin kept between what is brought into view and the window's edges.
const MARGIN: f64 = 8.0;

/// How far to scroll the page down (negative: up) so that the harm mark, from `mark_top` down,
/// and the narration, down to `narration_bottom` (both from the window's top), are in a window
/// `view_h` high: 0 when they are. The narration in view puts the controls, sticky at the bottom
/// of a phone's screen, back in their place above it, so they cover nothing of the timeline.
/// Otherwise the narration goes to the bottom of the window, so that as much of the timeline
/// as fits shows above it; when both do not fit, the harm is shown.
pub fn scroll_for(mark_top: f64, narration_bottom: f64, view_h: f64) -> f64 {
    if mark_top >= MARGIN && narration_bottom <= view_h - MARGIN {
        return 0.0;
    }
    let d = narration_bottom + MARGIN - view_h;
    if mark_top - d < MARGIN {
        mark_top - MARGIN
    } else {
        d
    }
}

/// When the cursor moves onto a violation, scrolls the page so that the run's harm mark and
/// the narration are in view (the lab's own run: not an embed, not a compared run).
#[hook]
pub fn use_harm_in_view(cursor: usize, at_violation: bool, enabled: bool) {
    let last = use_mut_ref(|| cursor);
    use_effect_with(cursor, move |&cursor| {
        let moved = std::mem::replace(&mut *last.borrow_mut(), cursor) != cursor;
        if !(moved && at_violation && enabled) {
            return;
        }
        let Some(w) = crate::view::window() else { return };
        let Some(doc) = w.document() else { return };
        let rect = |sel: &str| doc.query_selector(sel).ok().flatten().map(|e| e.get_bounding_client_rect());
        let (Some(mark), Some(narration)) = (rect(".stage > .timeline-wrap .mark.harm"), rect(".stage > .narration")) else { return };
        let view_h = w.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
        let d = scroll_for(mark.top(), narration.bottom(), view_h);
        if d != 0.0 && view_h > 0.0 {
            w.scroll_by_with_x_and_y(0.0, d);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harm_and_the_narration_are_brought_into_view_and_the_harm_wins() {
        // Both in view: nothing moves.
        assert_eq!(scroll_for(200.0, 700.0, 844.0), 0.0);
        // The narration below the window: down until it shows, the harm still in view.
        assert_eq!(scroll_for(300.0, 1000.0, 844.0), 164.0);
        // The harm above the window (scrolled past): up until the narration is at the bottom,
        // the timeline above it.
        assert_eq!(scroll_for(-120.0, 300.0, 844.0), -536.0);
        // Too far apart to fit: the harm at the top.
        assert_eq!(scroll_for(500.0, 2000.0, 844.0), 492.0);
    }
}
