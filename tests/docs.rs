//! The documentation: the README stays a short front door, every relative link in the README and
//! docs/ leads to a file (and heading) that exists, and the subcommand list of the README and
//! docs/cli.md is the one `renju-engine --help` prints.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The markdown files whose links are checked: the README, every file in docs/, openings/README.
fn pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md"), root().join("openings/README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// Inline link targets `[text](target)` of a markdown text, outside code spans and fences.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans so that `a](b)` in code is not taken for a link.
        let mut plain = String::new();
        let mut in_code = false;
        for ch in line.chars() {
            if ch == '`' {
                in_code = !in_code;
            } else if !in_code {
                plain.push(ch);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(j) = after.find(')') else { break };
            out.push(after[..j].to_string());
            rest = &after[j..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation other than `-` and `_`
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn the_readme_is_a_short_front_door() {
    let text = read(&root().join("README.md"));
    let n = text.lines().count();
    assert!(
        n <= 200,
        "README.md has {n} lines; reference material goes to docs/"
    );
    // Its first code block holds the two commands of a fresh machine.
    let block: String = text
        .split("```")
        .nth(1)
        .expect("a code block in the README")
        .to_string();
    assert!(block.contains("cargo build --release"), "{block}");
    assert!(block.contains("cargo test --release"), "{block}");
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, frag) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(
                dest.exists(),
                "{}: link to {target}: no file {}",
                page.display(),
                dest.display()
            );
            if let Some(a) = frag {
                assert!(
                    anchors(&read(&dest)).contains(a),
                    "{}: link to {target}: no heading with anchor #{a}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 20,
        "only {checked} links found: is the link reader broken?"
    );
}

#[test]
fn the_link_reader_and_anchors_work() {
    assert_eq!(
        links("see [a](b.md) and `[c](d)` and [e](f.md#g-h)\n```\n[x](y)\n```\n"),
        ["b.md", "f.md#g-h"]
    );
    assert_eq!(
        anchor(" Notes on the measurements"),
        "notes-on-the-measurements"
    );
    assert_eq!(
        anchor("Matches: tools/arena, tools/gauntlet"),
        "matches-toolsarena-toolsgauntlet"
    );
}

/// The subcommands `renju-engine --help` lists (without `help`).
fn help_subcommands() -> BTreeSet<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_renju-engine"))
        .arg("--help")
        .output()
        .expect("renju-engine runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_subcommand_lists_agree_with_the_help() {
    let help = help_subcommands();
    assert!(help.len() >= 10, "{help:?}");
    // The README's table: rows `| \`name\` | ... |` of the first table under "## Command line".
    let readme = read(&root().join("README.md"));
    let section = readme
        .split("\n## Command line")
        .nth(1)
        .expect("a Command line section")
        .split("\n## ")
        .next()
        .unwrap();
    let table: BTreeSet<String> = section
        .split("\n\n")
        .find(|b| b.trim_start().starts_with("| subcommand"))
        .expect("the subcommand table")
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    assert_eq!(table, help, "README's subcommand table against --help");
    // docs/cli.md documents each as `renju-engine NAME ...`, and each answers --help.
    let cli = read(&root().join("docs/cli.md"));
    for name in &help {
        assert!(
            cli.contains(&format!("`renju-engine {name}")),
            "docs/cli.md has no `renju-engine {name} ...` entry"
        );
        let out = Command::new(env!("CARGO_BIN_EXE_renju-engine"))
            .args([name.as_str(), "--help"])
            .output()
            .unwrap();
        assert!(out.status.success(), "renju-engine {name} --help");
    }
}
