//! Writes the first view's pictures of every library scenario (as written, and with its fix
//! where it has one) into `<dist>/first`: `<id>.<width>.html` and `<id>.fix.<width>.html`, one
//! for each of `app::prerender::WIDTHS`; and names them and their widths in `<dist>/first.js`
//! (in place of `@@PICTURES@@` and `@@WIDTHS@@`), so that the page asks only for a picture
//! there is. And the pages on which nothing changes, no more than on the pictures
//! (`prerender::PAGES`: `<dist>/guide.html`, `<dist>/revise.html`, `<dist>/debate.html`).
//! Usage: leaselab-prerender <dist>

use std::process::ExitCode;

use app::prerender::{render, Screen, WIDTHS};

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: leaselab-prerender <dist>");
        return ExitCode::from(2);
    };
    let dist = std::path::PathBuf::from(dir);
    let dir = dist.join("first");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("leaselab-prerender: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let mut written = 0;
    let mut names = Vec::new();
    for sc in sim::library::all() {
        let variants = [(false, ""), (true, ".fix")];
        for (fixed, suffix) in variants.into_iter().filter(|(f, _)| !f || sc.fix.is_some()) {
            names.push(format!("{}{suffix}", sc.id));
            for (width, narrow) in WIDTHS {
                let at = Screen { width: f64::from(width), narrow };
                let html = match render(sc.clone(), fixed, at) {
                    Ok(h) => h,
                    Err(e) => {
                        eprintln!("leaselab-prerender: {}{suffix}: {e}", sc.id);
                        return ExitCode::FAILURE;
                    }
                };
                let path = dir.join(format!("{}{suffix}.{width}.html", sc.id));
                if let Err(e) = std::fs::write(&path, html) {
                    eprintln!("leaselab-prerender: cannot write {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
                written += 1;
            }
        }
    }
    let first = dist.join("first.js");
    let widths: Vec<String> = WIDTHS.iter().map(|(w, phone)| format!("[{w},{phone}]")).collect();
    let widths = format!("[{}]", widths.join(","));
    let named = std::fs::read_to_string(&first).map(|js| js.replace("@@PICTURES@@", &names.join(" ")).replace("@@WIDTHS@@", &widths));
    match named {
        Ok(js) if !js.contains("@@") && js.contains(&names.join(" ")) && js.contains(&widths) => {
            if let Err(e) = std::fs::write(&first, js) {
                eprintln!("leaselab-prerender: cannot write {}: {e}", first.display());
                return ExitCode::FAILURE;
            }
        }
        Ok(_) => {
            eprintln!("leaselab-prerender: {} has no @@PICTURES@@ and @@WIDTHS@@ to name the pictures in", first.display());
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("leaselab-prerender: cannot read {}: {e}", first.display());
            return ExitCode::FAILURE;
        }
    }
    let index = dist.join("index.html");
    let index = match std::fs::read_to_string(&index) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("leaselab-prerender: cannot read {}: {e}", index.display());
            return ExitCode::FAILURE;
        }
    };
    for (file, _) in app::prerender::PAGES {
        let path = dist.join(file);
        if let Err(e) = app::prerender::static_page(&index, file)
            .and_then(|p| std::fs::write(&path, p).map_err(|e| format!("cannot write {}: {e}", path.display())))
        {
            eprintln!("leaselab-prerender: {file}: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!(
        "{written} pictures of {} runs in {}, and the pages {}",
        names.len(),
        dir.display(),
        app::prerender::PAGES.map(|(f, _)| f).join(", ")
    );
    ExitCode::SUCCESS
}
