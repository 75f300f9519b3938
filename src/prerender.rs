//! The first view rendered ahead of time: when the site is built, each library scenario's lab is
//! rendered to HTML by the same components the browser runs (Yew's server renderer, natively),
//! at a few widths of screen. The page asks for that picture as it is read (static/first.js),
//! shows it (static/loader.js), and the
//! program takes over in place when it arrives, drawing the same boxes at the same places.
//!
//! Natively there is no window ([`crate::view::window`]): what the views would ask the browser
//! (the timeline's width, a phone's screen, a finger for a pointer) comes from [`screen`].

use std::cell::Cell;

/// The screen a picture is rendered for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// The timeline's width in pixels (the browser measures it; 1000 until it has).
    pub width: f64,
    /// A phone: the narrow layout, the short welcome, touch wording.
    pub narrow: bool,
}

thread_local! {
    static SCREEN: Cell<Screen> = const { Cell::new(Screen { width: 1000.0, narrow: false }) };
}

/// The screen the views are rendered for ahead of time (in the browser: the timeline's width
/// before its first measure).
pub fn screen() -> Screen {
    SCREEN.with(Cell::get)
}

/// The widths of timeline a library scenario's picture is rendered at, with whether each is a
/// phone's (a screen at most 700 pixels wide: the narrow layout): the timeline's width in the
/// lab at common screens (360- and 390-pixel phones; 1280, 1366 and 1920 pixels wide with a
/// 15-pixel scroll bar), and between them. The page picks the widest of its kind that is not
/// wider than its own timeline (the build writes this list into static/first.js).
pub const WIDTHS: [(u32, bool); 8] =
    [(340, true), (372, true), (600, true), (683, false), (855, false), (941, false), (1175, false), (1497, false)];

/// The lab of `scenario` (with its fix on if `fixed`) as the page first shows it, rendered to
/// HTML for a screen: the lab's holder and everything in it, as [`crate::view::app::App`]
/// draws it for the lab.
#[cfg(feature = "prerender")]
pub fn render(scenario: sim::scenario::Scenario, fixed: bool, at: Screen) -> Result<String, String> {
    use std::rc::Rc;
    let start = Rc::new(crate::state::Screen::new(scenario, fixed)?);
    SCREEN.with(|s| s.set(at));
    let renderer = yew::LocalServerRenderer::<First>::with_props(FirstProps { start }).hydratable(false);
    let rt = tokio::runtime::Builder::new_current_thread().build().map_err(|e| e.to_string())?;
    let html = rt.block_on(tokio::task::LocalSet::new().run_until(renderer.render()));
    Ok(html)
}

/// The pages beside the lab on which nothing changes, each a document of its own: (file name,
/// title). Their views are compiled with the `prerender` feature alone.
pub const PAGES: [(&str, &str); 3] = [
    ("guide.html", "Which approach fits your system?"),
    ("revise.html", "Distributed locks: one page to revise from"),
    ("debate.html", "Is Redlock safe? Kleppmann and antirez"),
];

/// One of [`PAGES`] (src/view/guide.rs, src/view/revise.rs, src/view/debate.rs) as a document of its own: `index`
/// is the built site's page, whose head (its content security policy, style sheet and icon) it
/// keeps, less the program's scripts; static/page.js does what the page's buttons do.
#[cfg(feature = "prerender")]
pub fn static_page(index: &str, file: &str) -> Result<String, String> {
    let rt = tokio::runtime::Builder::new_current_thread().build().map_err(|e| e.to_string())?;
    let body = match file {
        "guide.html" => rt.block_on(
            tokio::task::LocalSet::new()
                .run_until(yew::LocalServerRenderer::<crate::view::guide::GuidePage>::new().hydratable(false).render()),
        ),
        "revise.html" => rt.block_on(
            tokio::task::LocalSet::new()
                .run_until(yew::LocalServerRenderer::<crate::view::revise::RevisePage>::new().hydratable(false).render()),
        ),
        "debate.html" => rt.block_on(
            tokio::task::LocalSet::new()
                .run_until(yew::LocalServerRenderer::<crate::view::debate::DebatePage>::new().hydratable(false).render()),
        ),
        _ => return Err(format!("there is no page called {file}")),
    };
    let title = PAGES.iter().find(|(f, _)| *f == file).map_or("Lease Lab", |(_, t)| t);
    let head = head_without_program(index)?;
    let lab = "<title>Lease Lab</title>";
    if !head.contains(lab) {
        return Err(format!("the site's page has no {lab} to name the page in"));
    }
    let head = head.replace(lab, &format!("<title>{title} · Lease Lab</title>"));
    Ok(format!("{head}<script src=./page.js defer></script></head><body>{body}</body></html>\n"))
}

/// The head of the site's page (up to its `<body>`) less its scripts, the files it preloads
/// for the program, and its end tag.
#[cfg(feature = "prerender")]
fn head_without_program(index: &str) -> Result<String, String> {
    let end = index.find("<body").ok_or("the site's page has no <body> to end its head at")?;
    let (mut head, mut rest) = (String::new(), &index[..end]);
    while let Some(at) = rest.find('<') {
        head.push_str(&rest[..at]);
        rest = &rest[at..];
        let tag = &rest[..rest.find('>').ok_or("the site's page has a tag with no end")? + 1];
        if tag.starts_with("<script") {
            rest = &rest[rest.find("</script>").ok_or("the site's page has a <script> with no </script>")? + "</script>".len()..];
            continue;
        }
        if !(tag.starts_with("<link") && tag.contains("preload") || tag.starts_with("</head")) {
            head.push_str(tag);
        }
        rest = &rest[tag.len()..];
    }
    head.push_str(rest);
    Ok(head)
}

#[cfg(feature = "prerender")]
#[derive(yew::Properties, PartialEq)]
struct FirstProps {
    start: std::rc::Rc<crate::state::Screen>,
}

/// What [`crate::view::app::App`] draws for the lab.
#[cfg(feature = "prerender")]
#[yew::component]
fn First(p: &FirstProps) -> yew::Html {
    use yew::prelude::*;
    html! {
        <div class="lab-holder">
            <crate::view::lab::Lab start={p.start.clone()} nav={Callback::noop()} />
        </div>
    }
}

#[cfg(all(test, feature = "prerender"))]
mod tests {
    use super::*;

    /// The picture is the lab as the browser draws it at first: the run's timeline at the
    /// screen's width, its story, the first step's narration, the verdict; on a phone, the short
    /// welcome and the touch wording.
    #[test]
    fn a_picture_is_the_lab_at_its_first_step_for_its_screen() {
        let sc = sim::library::get("gc-pause-unfenced").unwrap();
        let wide = render(sc.clone(), false, Screen { width: 941.0, narrow: false }).unwrap();
        assert!(wide.starts_with(r#"<div class="lab-holder"><div id="app" data-verdict="unsafe" data-step="1""#), "{}", &wide[..200]);
        for said in [
            r#"<svg width="941" height="298""#,
            "A GC pause outlives the lease",
            "A starts.",
            "Unsafe: the protected data was corrupted",
            "Welcome to Lease Lab.",
            "by step",
        ] {
            assert!(wide.contains(said), "{said}");
        }
        let phone = render(sc.clone(), false, Screen { width: 372.0, narrow: true }).unwrap();
        assert!(phone.contains(r#"<svg width="372""#) && phone.contains(r#"class="intro short""#) && phone.contains("swipe the narration"));
        let fixed = render(sc, true, Screen { width: 941.0, narrow: false }).unwrap();
        assert!(fixed.contains(r#"data-verdict="safe""#) && fixed.contains(r#"data-fixed="true""#));
        // A run that opens zoomed in says where its box is scrolled to.
        let crowded = render(sim::library::get("redlock-split-vote").unwrap(), false, Screen { width: 941.0, narrow: false }).unwrap();
        assert!(crowded.contains("data-left=") && crowded.contains("Zoomed in on the first key moment"));
    }

    /// The revision page is a document of its own: the site's head less the program, every way
    /// with its linked runs and the verdicts the engine gives them, and a page that will not do
    /// is said, not written wrong.
    #[test]
    fn the_static_pages_are_the_sites_head_and_the_page_without_the_program() {
        let index = "<!doctype html><html lang=en><meta charset=utf-8><title>Lease Lab</title><script>window.x=1</script><link href=./style.css rel=stylesheet><script src=./loader.js type=module></script><link href=./leaselab-app.js rel=modulepreload><link as=fetch href=a.json rel=preload></head><body></body></html>";
        let page = static_page(index, "revise.html").unwrap();
        assert!(page.starts_with("<!doctype html><html lang=en><meta charset=utf-8><title>Distributed locks: one page to revise from · Lease Lab</title><link href=./style.css rel=stylesheet><script src=./page.js defer></script></head><body><div id=\"page\" class=\"app page revise\""), "{}", &page[..300]);
        assert!(!page.contains("leaselab-app") && !page.contains("loader.js") && !page.contains("window.x") && !page.contains("a.json"));
        assert_eq!(page.matches("class=\"revise-way\"").count(), crate::revise::WAYS.len());
        assert!(page.contains("href=\"./?scenario=gc-pause-fenced\"") && page.contains(">safe</span>") && page.contains(">unsafe</span>"));
        assert!(static_page("<html><title>Lease Lab</title></html>", "revise.html").unwrap_err().contains("<body>"));
        assert!(static_page("<html><title>Lease Lab</title><script>x<body>", "revise.html").unwrap_err().contains("</script>"));
        assert!(static_page("<html><title>Other</title><body>", "revise.html").unwrap_err().contains("<title>"));
        // The debate: both runs drawn, with the verdicts the engine gives them.
        let debate = static_page(index, "debate.html").unwrap();
        assert!(debate.contains("<title>Is Redlock safe? Kleppmann and antirez · Lease Lab</title>"));
        assert_eq!(debate.matches("<img src=\"data:image/svg+xml;charset=utf-8,%3Csvg").count(), 2);
        assert_eq!(debate.matches("class=\"debate-svg\"").count(), 2);
        assert!(
            debate.contains("data-scenario=\"redlock-slow-acquire\"")
                && debate.contains("Timeline of Redlock: a pause after acquiring: unsafe")
        );
        assert!(static_page(index, "nothing.html").is_err());
    }
}
