//! The docs match the tool. docs/CLI.md covers it as `--help` describes it: a section with an
//! example for every command, every `img` subcommand, and every long option of each command (a
//! command or flag added without docs fails here).

#[allow(dead_code)]
mod support;

use support::{run, stdout};

/// The names under `Commands:` of a `--help` text (`help` aside).
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The long options of a `--help` text (`--help` and `--version` aside).
fn long_options(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Options:"))
        .filter_map(|l| {
            let l = l.trim_start();
            let at = l.find("--")?;
            (at <= 4).then(|| {
                l[at..]
                    .split([' ', '<', ',', '='])
                    .next()
                    .unwrap()
                    .to_owned()
            })
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

fn cli_md() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/CLI.md")).unwrap()
}

/// The text of the section `### \`NAME\`` (up to the next heading).
fn section<'a>(doc: &'a str, name: &str) -> Option<&'a str> {
    let start = doc.find(&format!("\n### `{name}`"))? + 1;
    let rest = &doc[start..];
    let end = rest[4..].find("\n#").map_or(rest.len(), |e| e + 4);
    Some(&rest[..end])
}

#[test]
fn cli_md_covers_every_command_with_an_example_and_its_options() {
    let doc = cli_md();
    let main = run(&["--help"]);
    let names = commands(stdout(&main));
    // The list is the tool's own: a change of the help layout must not empty it.
    assert!(names.len() >= 8, "{names:?}");
    let mut missing = Vec::new();
    for name in &names {
        let Some(text) = section(&doc, name) else {
            missing.push(format!("no section ### `{name}`"));
            continue;
        };
        if !text.contains(&format!("    $ gtastream {name} ")) {
            missing.push(format!("{name}: no example (`    $ gtastream {name} ...`)"));
        }
        let help = stdout(&run(&[name, "--help"])).to_owned();
        let subcommands = commands(&help);
        for option in long_options(&help) {
            if !text.contains(&option) {
                missing.push(format!("{name}: option {option} not described"));
            }
        }
        for sub in &subcommands {
            if !text.contains(&format!("    $ gtastream {name} {sub} ")) {
                missing.push(format!(
                    "{name} {sub}: no example (`    $ gtastream {name} {sub} ...`)"
                ));
            }
            let help = stdout(&run(&[name, sub, "--help"])).to_owned();
            for option in long_options(&help) {
                if !text.contains(&option) {
                    missing.push(format!("{name} {sub}: option {option} not described"));
                }
            }
        }
    }
    // The table of contents names them too.
    let contents: String = doc
        .lines()
        .skip_while(|l| !l.starts_with("- [Commands]"))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || l.starts_with("  "))
        .map(|(_, l)| l)
        .collect();
    for name in &names {
        if !contents.contains(&format!("`{name}`")) {
            missing.push(format!("{name}: not in the list of commands at the top"));
        }
    }
    assert!(missing.is_empty(), "docs/CLI.md:\n{}", missing.join("\n"));
}

/// The files of the repository (its build outputs, dependencies and git's own aside), found
/// from the CLI's folder.
fn repository_files() -> Vec<std::path::PathBuf> {
    const SKIPPED: [&str; 6] = [
        ".git",
        "target",
        "node_modules",
        "dist",
        "build",
        "__pycache__",
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut folders = vec![root];
    let mut files = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !SKIPPED.iter().any(|s| name == *s) {
                    folders.push(path);
                }
            } else if kind.is_file() {
                files.push(path);
            }
        }
    }
    files
}

/// The project cites its own documents (docs/FORMATS.md, docs/CHECKS.md, ...) and public
/// sources, never notes kept outside the repository, which a reader cannot open.
#[test]
fn no_file_cites_documents_outside_the_repository() {
    // Spelt in pieces so that this file does not cite them itself.
    let outside = [
        ["ENGINE", "-RULES"].concat(),
        ["ENGINE", "_RULES"].concat(),
        ["../", "shared"].concat(),
        ["/work/", "shared"].concat(),
    ];
    let files = repository_files();
    // The walk reached the repository: its own docs are among the files.
    assert!(
        files.iter().any(|f| f.ends_with("docs/CHECKS.md")),
        "{} files",
        files.len()
    );
    let mut citing = Vec::new();
    for file in &files {
        // Binary files (fixtures, images) cite nothing.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if outside.iter().any(|o| line.contains(o.as_str())) {
                citing.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(citing.is_empty(), "{}", citing.join("\n"));
}
