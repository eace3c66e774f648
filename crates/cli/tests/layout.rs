//! The shape of the code, checked on every run of the tests:
//!
//! * the front ends (the page in `src/`, the CLI in `crates/cli/src`, the Python package in
//!   `crates/python/src`) name no model: what they would match on belongs in the model's
//!   folder, and they ask the model for it;
//! * no file holds more than 600 lines (tests apart): a file too long to hold in one's head is
//!   several responsibilities;
//! * no crate has an import circle between its modules.
//!
//! Test modules (from `#[cfg(test)]` to the end of a file) and `tests.rs` files are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace")
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A file's code without its test module.
fn non_test(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

fn is_test_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs") || path.components().any(|c| c.as_os_str() == "tests")
}

/// The source folders of the workspace's crates, by crate.
fn crates() -> Vec<(&'static str, PathBuf)> {
    let root = root();
    vec![
        ("packlab-web", root.join("src")),
        ("packlab-cli", root.join("crates/cli/src")),
        ("packlab-core", root.join("crates/core/src")),
        ("packlab-plot", root.join("crates/plot/src")),
        ("packlab-python", root.join("crates/python/src")),
    ]
}

/// What naming a model looks like in code, for every listed model: its scenario variant
/// (`Scenario::Pgas`), its folder (`models::pgas`), and its id as a string compared with or
/// matched on (`"pgas" =>`, `!= "pgas"`).
fn model_patterns() -> Vec<(String, String)> {
    let mut patterns = Vec::new();
    for model in packlab_core::models::all() {
        let id = model.id;
        let variant: String = id[..1].to_uppercase() + &id[1..];
        patterns.push((format!("Scenario::{variant}"), id.to_string()));
        patterns.push((format!("Summary::{variant}"), id.to_string()));
        patterns.push((format!("models::{id}"), id.to_string()));
        for form in [format!("\"{id}\" =>"), format!("\"{id}\" |"), format!("== \"{id}\""), format!("!= \"{id}\"")] {
            patterns.push((form, id.to_string()));
        }
    }
    patterns
}

#[test]
fn front_ends_name_no_model() {
    let patterns = model_patterns();
    let mut found = Vec::new();
    for (name, dir) in
        crates().into_iter().filter(|(name, _)| ["packlab-web", "packlab-cli", "packlab-python"].contains(name))
    {
        for file in rust_files(&dir).into_iter().filter(|f| !is_test_file(f)) {
            for (n, line) in non_test(&file).lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for (pattern, id) in &patterns {
                    if code.contains(pattern.as_str()) {
                        found.push(format!("{name} {}:{}: names {id} ({pattern})", file.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "front-end code that names a model (ask the model instead):\n{}", found.join("\n"));
}

/// The test above finds what it looks for.
#[test]
fn the_model_name_check_can_fail() {
    let patterns = model_patterns();
    for sample in ["let Scenario::Pgas(s) = x;", "use packlab_core::models::msfq::JobClasses;", "\"pgrr\" => 1,"] {
        assert!(patterns.iter().any(|(p, _)| sample.contains(p.as_str())), "{sample}");
    }
}

#[test]
fn no_file_is_too_long() {
    const MOST: usize = 600;
    let mut long = Vec::new();
    for (_, dir) in crates() {
        for file in rust_files(&dir).into_iter().filter(|f| !is_test_file(f)) {
            let lines = fs::read_to_string(&file).expect("readable").lines().count();
            if lines > MOST {
                long.push(format!("{} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "files over {MOST} lines (split them by responsibility):\n{}", long.join("\n"));
}

/// A module's path in its crate: `models::pgrr::engine`; the crate root is empty.
type ModulePath = Vec<String>;

/// The modules of the crate whose sources are in `src`, by path, with their files.
fn modules(src: &Path) -> BTreeMap<ModulePath, PathBuf> {
    rust_files(src)
        .into_iter()
        .filter(|f| !is_test_file(f) || f.file_name().is_some_and(|n| n != "tests.rs"))
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|file| {
            let rel = file.strip_prefix(src).expect("under src").with_extension("");
            let mut path: ModulePath = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                path.pop();
            }
            (path, file)
        })
        .collect()
}

/// Code without comments and string contents.
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                out.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                out.push('"');
            }
            // A character literal: '"' must not open a string; lifetimes pass through.
            '\'' => {
                out.push('\'');
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') || rest.chars().nth(1) == Some('\'') {
                    for c in chars.by_ref() {
                        if c == '\'' {
                            break;
                        }
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The paths a module's code names: `a::b::c` with their first segment, and the items of
/// `use x::{a, b::c}` groups joined to their prefix.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        if word(bytes[i]) && (i == 0 || !word(bytes[i - 1]) && bytes[i - 1] != ':') {
            let mut j = i;
            let mut segments = Vec::new();
            loop {
                let start = j;
                while j < bytes.len() && word(bytes[j]) {
                    j += 1;
                }
                segments.push(bytes[start..j].iter().collect::<String>());
                if j + 2 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' && word(bytes[j + 2]) {
                    j += 2;
                } else {
                    break;
                }
            }
            // `prefix::{a, b::c}`: each item after the prefix.
            if j + 2 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' && bytes[j + 2] == '{' {
                let end = (j + 3..bytes.len()).find(|&k| bytes[k] == '}').unwrap_or(bytes.len());
                let group: String = bytes[j + 3..end].iter().collect();
                for item in group.split(',') {
                    let item: Vec<String> =
                        item.trim().split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                    if let Some(first) = item.first()
                        && first.chars().all(word)
                    {
                        paths.push(segments.iter().cloned().chain(item).collect());
                    }
                }
                j = end;
            }
            if segments.len() > 1 {
                paths.push(segments);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// The module a path names, from module `at`, if it is one of the crate's.
fn resolve(modules: &BTreeMap<ModulePath, PathBuf>, at: &ModulePath, path: &[String]) -> Option<ModulePath> {
    let (mut base, rest): (ModulePath, &[String]) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (at.clone(), &path[1..]),
        "super" => {
            let mut base = at.clone();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        first => {
            let child: ModulePath = at.iter().cloned().chain([first.to_string()]).collect();
            if !modules.contains_key(&child) {
                return None;
            }
            (at.clone(), path)
        }
    };
    let mut best = modules.contains_key(&base).then(|| base.clone());
    for segment in rest {
        base.push(segment.clone());
        if modules.contains_key(&base) {
            best = Some(base.clone());
        } else {
            break;
        }
    }
    best
}

/// Which modules each module imports. A module naming one of its own ancestors (a child
/// using what its parent's `mod.rs` declares or re-exports) is not counted: the parent's
/// `pub use` of its children would otherwise make every folder a circle.
fn imports(modules: &BTreeMap<ModulePath, PathBuf>) -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    modules
        .iter()
        .map(|(module, file)| {
            let code = strip(&non_test(file));
            let targets = named_paths(&code)
                .iter()
                .filter_map(|p| resolve(modules, module, p))
                .filter(|t| t != module && !(t.len() < module.len() && module.starts_with(t)))
                .collect();
            (module.clone(), targets)
        })
        .collect()
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<ModulePath, BTreeSet<ModulePath>>,
        index: BTreeMap<&'a ModulePath, usize>,
        low: BTreeMap<&'a ModulePath, usize>,
        stack: Vec<&'a ModulePath>,
        on_stack: BTreeSet<&'a ModulePath>,
        found: Vec<Vec<ModulePath>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a ModulePath) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.edges[v] {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn module_name(path: &ModulePath) -> String {
    if path.is_empty() { "the crate root".to_string() } else { path.join("::") }
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut report = Vec::new();
    for (name, src) in crates() {
        let modules = modules(&src);
        let edges = imports(&modules);
        for circle in circles(&edges) {
            let names: Vec<String> = circle.iter().map(module_name).collect();
            let links: Vec<String> = circle
                .iter()
                .flat_map(|a| edges[a].iter().filter(|b| circle.contains(b)).map(move |b| (a, b)))
                .map(|(a, b)| format!("    {} -> {}", module_name(a), module_name(b)))
                .collect();
            report.push(format!("{name}: {}\n{}", names.join(", "), links.join("\n")));
        }
    }
    assert!(report.is_empty(), "import circles:\n{}", report.join("\n"));
}

/// The circle finder finds a circle, and the ancestor rule leaves a parent and child alone.
#[test]
fn the_circle_check_can_fail() {
    let module = |p: &str| -> ModulePath { p.split("::").filter(|s| !s.is_empty()).map(String::from).collect() };
    let mut edges: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    edges.insert(module("a"), [module("b")].into());
    edges.insert(module("b"), [module("c")].into());
    edges.insert(module("c"), [module("a")].into());
    edges.insert(module("d"), BTreeSet::new());
    assert_eq!(circles(&edges), vec![vec![module("a"), module("b"), module("c")]]);
    let paths = named_paths("use crate::x::{y, z::w};\nfn f() { super::q::r(); }");
    assert!(paths.contains(&vec!["crate".into(), "x".into(), "y".into()]), "{paths:?}");
    assert!(paths.contains(&vec!["crate".into(), "x".into(), "z".into(), "w".into()]), "{paths:?}");
    assert!(paths.contains(&vec!["super".into(), "q".into(), "r".into()]), "{paths:?}");
}
