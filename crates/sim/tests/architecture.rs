//! The engine's layout, as ARCHITECTURE.md states it: no import cycle between its modules, and
//! between its top-level modules none but the one the lock services' slices are to undo;
//! nothing under the lock services, their client protocols or the resource names the driver;
//! every server actor and client protocol has unit tests; every event of the library has words,
//! its service's (the compiler sees to the rest); a lock service is named in code only in its
//! slice and the list of services; no source file over 400 lines and no function over 120.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use sim::trace::EventKind;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, with its text.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p, text));
            }
        }
    }
    out.sort();
    out
}

/// The module a file is: `consensus/client.rs` → `consensus::client`.
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(src()).unwrap().with_extension("");
    rel.components().map(|c| c.as_os_str().to_string_lossy().to_string()).collect::<Vec<_>>().join("::")
}

/// The top-level module a file belongs to: `consensus/client.rs` → `consensus`.
fn top_module(path: &Path) -> String {
    module_of(path).split("::").next().unwrap().to_string()
}

/// The code of a file without comments (a doc comment may name any module).
fn code(text: &str) -> String {
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The paths a file's code names from the crate root (`crate::a::b::C`, and each leaf of
/// `use crate::a::{self, b::c, d}`), as lists of segments.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let code = code(text);
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let mut chars = code[i + 7..].chars().peekable();
        use_tree(&mut chars, Vec::new(), &mut out);
    }
    out.retain(|p| !p.is_empty());
    out
}

/// Reads one use tree (`a::b::{c, d::e}`) and pushes each path it names.
fn use_tree(chars: &mut std::iter::Peekable<std::str::Chars>, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek() == Some(&'{') {
            chars.next();
            loop {
                use_tree(chars, prefix.clone(), out);
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                match chars.next() {
                    Some(',') => continue,
                    _ => return,
                }
            }
        }
        let mut seg = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                seg.push(c);
                chars.next();
            } else {
                break;
            }
        }
        if !seg.is_empty() && seg != "self" {
            prefix.push(seg);
        }
        if chars.peek() == Some(&':') {
            chars.next();
            chars.next();
            continue;
        }
        out.push(prefix);
        return;
    }
}

/// The modules a file refers to: for each crate path, the longest prefix that is a module.
fn references(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for path in crate_paths(text) {
        let found = (1..=path.len()).rev().map(|n| path[..n].join("::")).find(|m| modules.contains(m));
        out.extend(found);
    }
    out
}

/// The engine's modules and what each refers to. A module and its submodules are one unit
/// looking outward: a submodule's reference to its own parent is not an edge.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let all = files(&src());
    let modules: BTreeSet<String> = all.iter().map(|(p, _)| module_of(p)).filter(|m| m != "lib").collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &all {
        let m = module_of(path);
        if m == "lib" {
            continue;
        }
        let refs = references(text, &modules);
        let own = |r: &String| m == *r || m.starts_with(&format!("{r}::"));
        g.entry(m.clone()).or_default().extend(refs.into_iter().filter(|r| !own(r)));
    }
    g
}

/// A cycle through `start`, if any: the path of modules.
fn cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(g: &BTreeMap<String, BTreeSet<String>>, m: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut c = path[i..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in g.get(m).into_iter().flatten() {
            if let Some(c) = visit(g, n, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        if let Some(c) = visit(g, m, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn no_import_cycle_between_engine_modules() {
    let g = graph();
    assert!(g.len() >= 15, "the scan found the modules: {g:?}");
    assert!(
        g["world"].contains("lock") && g["lock"].contains("service") && g["service::redlock::slice"].contains("service::redis::client"),
        "the scan sees references: {g:?}"
    );
    if let Some(c) = cycle(&g) {
        panic!("import cycle: {}", c.join(" → "));
    }
    // The check can fail: a graph with a cycle is found.
    let mut bad = g.clone();
    bad.get_mut("trace").unwrap().insert("checker".into());
    assert!(cycle(&bad).is_some());
}

/// The engine's top-level modules (a file's first path segment) and what each refers to.
fn top_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, refs) in graph() {
        let top = |m: &str| m.split("::").next().unwrap().to_string();
        let from = top(&m);
        let to: BTreeSet<String> = refs.iter().map(|r| top(r)).filter(|r| *r != from).collect();
        g.entry(from).or_default().extend(to);
    }
    g
}

/// The modules that reach each other (the strongly connected ones), each group of two or more.
fn tangles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for n in g.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for m in g.keys() {
        let group: BTreeSet<String> = reach(m).into_iter().filter(|n| n == m || reach(n).contains(m)).chain([m.clone()]).collect();
        if group.len() > 1 && !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

/// No import cycle between the engine's top-level modules (counting `crate::` paths). The
/// services' messages and events are data on the ground floor (`wire`), so the envelope (`msg`)
/// and the trace carry them while the services build envelopes.
#[test]
fn no_import_cycle_between_top_level_modules() {
    let g = top_graph();
    assert!(g["world"].contains("lock") && g["msg"].contains("wire"), "the scan sees references: {g:?}");
    assert_eq!(tangles(&g), Vec::<BTreeSet<String>>::new(), "the tangles between the engine's top-level modules");
    // The check can fail: a back edge draws modules into a tangle.
    let mut bad = g.clone();
    bad.get_mut("trace").unwrap().insert("checker".into());
    assert_eq!(tangles(&bad).len(), 1);
}

/// The lock services, their client protocols and the resource: actors, not drivers.
const ACTOR_MODULES: [&str; 9] = ["redis", "redlock", "consensus", "zookeeper", "quorum", "resource", "lock", "actor", "proto"];

#[test]
fn nothing_under_the_lock_services_or_the_servers_names_the_driver() {
    for (path, text) in files(&src()) {
        if !ACTOR_MODULES.contains(&top_module(&path).as_str()) {
            continue;
        }
        let code = code(&text);
        for bad in ["crate::world", "World", "crate::client::Client"] {
            assert!(!code.contains(bad), "{} names `{bad}`: an actor returns effects and never drives the world", path.display());
        }
    }
}

#[test]
fn every_server_actor_and_client_protocol_has_unit_tests() {
    let all = files(&src());
    let servers = [
        "service::redis::server",
        "service::consensus",
        "service::zookeeper::server",
        "service::kubernetes::server",
        "resource::server",
        "quorum",
    ];
    let protocols = [
        "service::redis::client",
        "service::redlock",
        "service::consensus::client",
        "service::zookeeper::client",
        "service::kubernetes::client",
        "client",
        "checker",
    ];
    for m in servers.iter().chain(&protocols) {
        // A module's tests are in it or in its submodules (`consensus/tests.rs`).
        let ours = |p: &Path| module_of(p) == *m || module_of(p).starts_with(&format!("{m}::tests"));
        let tests = all.iter().filter(|(p, _)| ours(p)).map(|(_, t)| t.matches("#[test]").count()).sum::<usize>();
        assert!(tests >= 1, "module `{m}` has no unit tests (inputs → effects)");
    }
}

/// Every event of every library run, and of its fix, has words of its own. The compiler sees to
/// the words themselves: `narrate::sentence` is one exhaustive match, each service words its
/// own events (`service::Words`), and each service words every event of the consensus family
/// (`service::Slice::quorum`, exhaustive). What it cannot see is which service records which of
/// the family's events: one it does not record has `service::not_recorded`'s words, which no
/// run may show, checked here; and no sentence is the bare tag.
#[test]
fn every_event_of_the_library_has_words() {
    for s in sim::library::all() {
        for sc in std::iter::once(s.clone()).chain(s.fixed().and_then(Result::ok)) {
            let run = sim::run(&sc).unwrap();
            let cx = sim::narrate::Cx::new(&sc, &run);
            for e in &run.events {
                let said = cx.event(e);
                let bare = format!("{}: {}.", run.name(e.actor), e.kind.tag(e.actor).0);
                assert!(said != bare && said.ends_with('.'), "{} (seed {}): no words for {:?}: {said}", sc.id, sc.seed, e.kind);
                if let EventKind::Quorum(q) = &e.kind {
                    let unrecorded = sim::service::not_recorded(&sc, q, run.name(e.actor));
                    assert!(
                        said != unrecorded,
                        "{} (seed {}): {} records {:?}, worded as not recorded",
                        sc.id,
                        sc.seed,
                        sc.lock.kind.title(),
                        q
                    );
                }
            }
        }
    }
}

/// Functions longer than `max` lines in `text`, as (name, first line, length). Counts braces
/// outside strings, chars and comments.
pub fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = t.strip_prefix("pub ").or_else(|| t.strip_prefix("pub(crate) ")).or_else(|| t.strip_prefix("pub(super) ")).unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ").or_else(|| t.strip_prefix("async fn ")).or_else(|| t.strip_prefix("const fn ")) else {
            continue;
        };
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let (mut depth, mut opened) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            for ch in strip(l).chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth == 0) || (!opened && strip(l).trim_end().ends_with(';')) {
                if j - i + 1 > max {
                    out.push((name.clone(), i + 1, j - i + 1));
                }
                break;
            }
        }
    }
    out
}

/// A line without its strings, chars and comment.
fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == '"' {
                        break;
                    }
                }
            }
            '\'' if chars.clone().nth(1) == Some('\'') || chars.peek() == Some(&'\\') => {
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

#[test]
fn no_file_over_400_lines_and_no_function_over_120() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut bad = Vec::new();
    for dir in ["crates/sim/src", "crates/cli/src"] {
        for (path, text) in files(&root.join(dir)) {
            let n = text.lines().count();
            if n > 400 {
                bad.push(format!("{}: {n} lines", path.display()));
            }
            for (name, at, len) in long_functions(&text, 120) {
                bad.push(format!("{}:{at}: fn {name} is {len} lines", path.display()));
            }
        }
    }
    assert!(bad.is_empty(), "split these by concern:\n{}", bad.join("\n"));
    // The scan can fail.
    let long = format!("fn f() {{\n{}}}\n", "    let x = \"}\";\n".repeat(130));
    assert_eq!(long_functions(&long, 120), vec![("f".to_string(), 1, 132)]);
}

/// The engine's hot path writes every event into the trace: events are data (no sentence, no
/// copied string on the common paths) and stay small.
#[test]
fn an_event_is_at_most_128_bytes() {
    let (event, kind) = (std::mem::size_of::<sim::Event>(), std::mem::size_of::<EventKind>());
    eprintln!("an event is {event} bytes, its kind {kind}");
    assert!(event <= 128, "an event is {event} bytes (its kind {kind})");
}

/// A line of code without its comment and its string literals (a scenario id or a sentence may
/// name a service; code that names one is what the promise is about).
fn code_only(line: &str) -> String {
    if line.trim_start().starts_with("//") {
        return String::new();
    }
    strip(line)
}

/// The files of the engine, the drawing, the command line and the app (relative to the
/// workspace) whose code names `word` as an identifier, outside `allowed` (path prefixes).
fn naming(word: &str, allowed: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["crates/sim/src", "crates/draw/src", "crates/cli/src", "src"] {
        for (path, text) in files(&root.join(dir)) {
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            if allowed.iter().any(|a| rel.starts_with(a)) {
                continue;
            }
            if text.lines().any(|l| names(&code_only(l), word)) {
                out.push(rel);
            }
        }
    }
    out
}

/// Whether `code` has `word` as a whole identifier, in any case (`Kubernetes`, `kubernetes`).
fn names(code: &str, word: &str) -> bool {
    let lower = code.to_ascii_lowercase();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    lower.match_indices(word).any(|(i, _)| !lower[..i].ends_with(ident) && !lower[i + word.len()..].starts_with(ident))
}

/// A lock service is its slice plus one line in the list: Kubernetes leader election, the
/// service added through this shape, is named in code only in the list (`registry.rs`), its
/// folder under `service/`, its ground floor (`wire/kubernetes.rs`) and its declaration
/// (`scenario/lock/kubernetes.rs`). Its one setting field of its own sits in the flat
/// `lock_service!` of `scenario/lock.rs`, which names the field, not the service.
#[test]
fn a_lock_service_is_named_only_in_its_slice_and_the_list() {
    let slice = [
        "crates/sim/src/registry.rs",
        "crates/sim/src/service/kubernetes",
        "crates/sim/src/wire/kubernetes.rs",
        "crates/sim/src/scenario/lock/kubernetes.rs",
    ];
    for word in ["kubernetes", "apiserver", "elector"] {
        let outside = naming(word, &slice);
        assert!(outside.is_empty(), "code outside Kubernetes' slice names `{word}`: {outside:?}");
    }
    // The scan can fail: the service's own folder names it, and a line is read as code.
    assert!(!naming("kubernetes", &[]).is_empty());
    assert!(names("EventKind::Service(ServiceEvent::Kubernetes(e))", "kubernetes"));
    assert!(!names(&code_only("let s = \"kubernetes\"; // Kubernetes"), "kubernetes"));
}
