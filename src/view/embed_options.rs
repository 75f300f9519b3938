//! An embedded run's options ([`Embed`]), from `?embed=1&controls=…` in a frame's address
//! ([`embed_options`]) or from `LeaseLab.mount` (`embed.rs`). The lab reads them; they know
//! nothing of the lab.

/// Which controls an embedded run shows (`&controls=full|play|none`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ControlsShown {
    #[default]
    Full,
    Play,
    None,
}

/// The colours of an embedded run (`&theme=light|dark|system|page`): the page's, not only the
/// reader's system's. `page` is the system's until the page's embed.js says which the page's
/// colours are (static/loader.js), `auto` an older name of `system`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The reader's system setting.
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// From an option's value; `None` for a value that is not a theme.
    pub fn parse(v: &str) -> Option<Theme> {
        match v {
            "auto" | "system" | "page" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// The `data-theme` attribute that sets it (the stylesheet's), or `None` for the system's.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

/// Options of an embedded run (`?embed=1&controls=play&autoplay=1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Embed {
    pub controls: ControlsShown,
    pub autoplay: bool,
    /// Where Lease Lab itself lives, for "Open in Lease Lab" (a mounted run is on another site).
    pub app_base: Option<String>,
    /// Show the run with its fix below the run as written (`&compare=fix`): Kleppmann's pair
    /// of figures.
    pub compare_fix: bool,
    pub theme: Theme,
    /// The reader may change the run (drag the pause, add faults from a lane): `&edit=1`. Read
    /// only otherwise, so that a click on the picture does not open a menu by surprise.
    pub editable: bool,
    /// What the frame's address got wrong, each said in the embed (an option's name or value).
    pub problems: Vec<String>,
}

/// The options of `?embed=1` in this frame's address, if it has it; what the address gets wrong
/// (a name that is no option, a value that is not one of the option's) is said in the embed
/// ([`Embed::problems`]) rather than ignored.
pub fn embed_options() -> Option<Embed> {
    let search = crate::view::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    if !params.get("embed").is_some_and(|v| v == "1" || v == "true") {
        return None;
    }
    let mut problems = Vec::new();
    // Each name the address has, once, with the first of its values (`set` may come often).
    let mut names: Vec<&str> = Vec::new();
    for k in search.trim_start_matches('?').split('&').map(|p| p.split_once('=').map_or(p, |(k, _)| k)) {
        if !k.is_empty() && !names.contains(&k) {
            names.push(k);
        }
    }
    let mut embed = Embed::default();
    for k in names {
        let v = params.get(k).unwrap_or_default();
        let yes_no = || match v.as_str() {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        let ok = match k {
            "embed" | "scenario" | "set" | "v" | "s" => true,
            "step" => v.parse::<usize>().is_ok_and(|n| n >= 1),
            "fix" => yes_no().is_some(),
            "autoplay" => yes_no().map(|b| embed.autoplay = b).is_some(),
            "edit" => yes_no().map(|b| embed.editable = b).is_some(),
            "compare" => (v == "fix").then(|| embed.compare_fix = true).is_some(),
            "controls" => match v.as_str() {
                "full" => Some(ControlsShown::Full),
                "play" => Some(ControlsShown::Play),
                "none" => Some(ControlsShown::None),
                _ => None,
            }
            .map(|c| embed.controls = c)
            .is_some(),
            "theme" => Theme::parse(&v).map(|t| embed.theme = t).is_some(),
            _ => {
                problems.push(format!("“{k}” is not an option (the options: {})", EMBED_OPTIONS.join(", ")));
                continue;
            }
        };
        if !ok {
            let want = match k {
                "step" => "a step number (1, 2, 3, …)",
                "controls" => "full, play or none",
                "theme" => "light, dark, system or page",
                "compare" => "fix",
                _ => "1 or 0",
            };
            problems.push(format!("{k} is “{v}”: use {want}"));
        }
    }
    embed.problems = problems;
    Some(embed)
}

/// What an embedded frame's address may say about how it is shown (besides the run: `scenario`,
/// `fix`, `step`, `set`).
const EMBED_OPTIONS: [&str; 8] = ["scenario", "step", "fix", "controls", "autoplay", "compare", "theme", "edit"];
