//! The pages beside the lab ([`Page`]) and the site's links between them, with what the pages
//! share: the brand, and a scenario's link with the verdict computed by running it. The guide,
//! the debate and the revision page are files of their own, made when the site is built
//! (`guide.rs`, `debate.rs`, `revise.rs`); the drill is a part of the program (`drill.rs`).

use yew::prelude::*;

/// Which page is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Lab,
    Guide,
    Debate,
    Drill,
    Revise,
}

impl Page {
    /// `?page=guide`, `?page=debate`, `?page=drill` and `?page=revise` (the addresses of the
    /// files from before they were files); anything else is the lab.
    pub fn from_query(search: &str) -> Page {
        let params = web_sys::UrlSearchParams::new_with_str(search).ok();
        match params.and_then(|p| p.get("page")).as_deref() {
            Some("guide") => Page::Guide,
            Some("debate") => Page::Debate,
            Some("drill") => Page::Drill,
            Some("revise") => Page::Revise,
            _ => Page::Lab,
        }
    }

    /// Whether it is a file of its own, made when the site is built (src/bin/prerender.rs): a
    /// page on which nothing changes needs no program.
    pub fn is_file(self) -> bool {
        matches!(self, Page::Guide | Page::Debate | Page::Revise)
    }

    /// Its address, relative to the app's (a page that [`Page::is_file`] is that file).
    pub fn query(self) -> &'static str {
        match self {
            Page::Lab => "./",
            Page::Guide => "guide.html",
            Page::Debate => "debate.html",
            Page::Drill => "./?page=drill",
            Page::Revise => "revise.html",
        }
    }
}

/// Opens a library scenario in the lab: (id, with its fix).
#[cfg(feature = "prerender")]
pub type Open = Callback<(String, bool)>;

/// The links between the lab and the pages (plain links that also work in a new tab), `here` the
/// current one.
pub fn site_nav(here: Page, nav: &Callback<Page>) -> Html {
    let link = |page: Page, label: &str| {
        let nav = nav.clone();
        let href = page.query();
        let onclick = (!page.is_file()).then(|| {
            Callback::from(move |e: MouseEvent| {
                if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                    e.prevent_default();
                    nav.emit(page);
                }
            })
        });
        // "Redlock debate" is "debate" on a phone, so that the links and the scenario share a row.
        let words = match label.strip_prefix("Redlock ") {
            Some(rest) => html! { <><span class="wide-only">{ "Redlock " }</span>{ rest.to_string() }</> },
            None => html! { { label.to_string() } },
        };
        html! { <a class={classes!("site-link", (here == page).then_some("here"))} aria-current={(here == page).then_some("page")} {href} {onclick}>{ words }</a> }
    };
    html! {
        <nav class="site-nav" aria-label="Lease Lab">
            { link(Page::Lab, "Lab") }
            { link(Page::Guide, "Guide") }
            { link(Page::Debate, "Redlock debate") }
            { link(Page::Drill, "Drill") }
        </nav>
    }
}

/// A plain link to a page beside the lab (it also works in a new tab).
#[cfg(feature = "prerender")]
pub(crate) fn page_link(page: Page, label: &str, nav: &Callback<Page>) -> Html {
    if page.is_file() {
        return html! { <a href={page.query()}>{ label.to_string() }</a> };
    }
    let nav = nav.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
            e.prevent_default();
            nav.emit(page);
        }
    });
    html! { <a href={page.query()} {onclick}>{ label.to_string() }</a> }
}

/// The logo and name, at the top of every screen.
pub fn brand() -> Html {
    html! {
        <h1 class="brand">
            <svg class="logo" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#1f3a5f"/><rect x="6" y="9" width="14" height="5" rx="2" fill="#56b4e9"/><rect x="12" y="18" width="14" height="5" rx="2" fill="#e69f00"/><path d="M22 6v20" stroke="#fff" stroke-width="2"/></svg>
            { "Lease Lab" }
        </h1>
    }
}

/// What is shown while the course's files are fetched, or why they could not be.
pub fn waiting(course: &crate::library::CourseFiles) -> Html {
    let text = match course {
        crate::library::CourseFiles::Failed(e) => {
            format!("The course could not be loaded: {e}. Try again in a moment, or reload the page.")
        }
        _ => "Loading the course…".to_string(),
    };
    html! { <p class="loading" role="status">{ text }</p> }
}

#[cfg(feature = "prerender")]
fn title_of(id: &str) -> String {
    sim::library::entry(id).map_or_else(|| id.to_string(), |e| e.title.to_string())
}

/// A link that opens a scenario in the lab, with its verdict (from running it).
#[cfg(feature = "prerender")]
pub(crate) fn demo_link(d: &crate::guide::Demo, open: &Open) -> Html {
    let safe = crate::view::library_safe(d.id, d.fixed);
    let (id, fixed) = (d.id.to_string(), d.fixed);
    let href = format!("./?scenario={id}{}", if fixed { "&fix=1" } else { "" });
    let open = open.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
            e.prevent_default();
            open.emit((id.clone(), fixed));
        }
    });
    html! {
        <li>
            <a {href} {onclick} class="demo">{ title_of(d.id) }{ if d.fixed { " (fixed)" } else { "" } }</a>
            <span class={classes!("mini", if safe { "safe" } else { "unsafe" })}>{ if safe { "safe" } else { "unsafe" } }</span>
            <span class="demo-what">{ format!(" {}", d.what) }</span>
        </li>
    }
}
