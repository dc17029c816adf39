//! End-to-end tests of `solve`, `analyze` and `bench`, driving the built binary.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_renju-engine"))
        .args(args)
        .output()
        .expect("failed to start renju-engine")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr");
    stdout
}

fn bad(args: &[&str]) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
}

#[test]
fn solve_finds_a_vcf_and_reports_no_win() {
    // Black h8 i8 j8 with open ends plus a vertical pair: a simple VCF for black.
    let out = ok(&[
        "solve",
        "--rule",
        "freestyle",
        "--black",
        "h8,i8,j8,k8",
        "--white",
        "g8,h9,i9",
        "--to-move",
        "black",
    ]);
    assert_eq!(out.trim(), "side black vcf\nwin l8");
    let out = ok(&["solve", "--rule", "renju", "--moves", "h8 h9"]);
    assert_eq!(out.trim(), "side black vcf\nno-win");
    // The same position with white to move: white must not "win".
    let out = ok(&[
        "solve",
        "--rule",
        "freestyle",
        "--black",
        "h8,i8,j8",
        "--white",
        "a1,a3",
        "--to-move",
        "white",
    ]);
    assert_eq!(out.trim(), "side white vcf\nno-win");
    // Two twos meeting at j8: no VCF, but a VCT through the double three at j8 in freestyle;
    // in renju that double three is a foul, so black's VCT must start elsewhere.
    let pos = [
        "--black",
        "h8,i8,j10,j11",
        "--white",
        "a1,o1,a15,o15",
        "--to-move",
        "black",
    ];
    for rule in ["freestyle", "renju"] {
        let mut args = vec!["solve", "--rule", rule];
        args.extend_from_slice(&pos);
        assert_eq!(ok(&args).trim(), "side black vcf\nno-win", "{rule} VCF");
        args.push("--vct");
        let out = ok(&args);
        let out = out
            .strip_prefix("side black vct\n")
            .unwrap_or_else(|| panic!("{rule}: {out}"));
        assert!(out.starts_with("win "), "{rule}: {out}");
        let first = out.split_whitespace().nth(1).unwrap();
        if rule == "freestyle" {
            assert_eq!(first, "j8", "{out}");
        } else {
            assert_ne!(first, "j8", "{out}");
        }
    }
}

/// `analyze` at depth 3 of a position given as stone lists.
fn analyze_stones(rule: &str, black: &str, white: &str, to_move: &str) -> String {
    ok(&[
        "analyze",
        "--rule",
        rule,
        "--black",
        black,
        "--white",
        white,
        "--to-move",
        to_move,
        "--depth",
        "3",
    ])
}

#[test]
fn analyze_prints_depth_lines_and_bestmove() {
    let out = ok(&[
        "analyze", "--rule", "renju", "--moves", "h8 h9 j9", "--depth", "4",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "{out}");
    assert!(lines[0].starts_with("depth 1 score "), "{out}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    let out = ok(&[
        "analyze",
        "--rule",
        "freestyle",
        "--moves",
        "h8",
        "--time",
        "100",
    ]);
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    // A forced block.
    let out = analyze_stones("standard", "h8,i8,j8,k8", "a1,a2,a3", "white");
    let lines: Vec<&str> = out.lines().collect();
    let best = lines[lines.len() - 1];
    assert!(best == "bestmove g8" || best == "bestmove l8", "{out}");
    // Decided before any iteration, the answer still gets its depth, score and line: here a
    // proven loss (an open four) ...
    assert_eq!(lines.len(), 2, "{out}");
    let mv = &best["bestmove ".len()..];
    assert!(lines[0].starts_with("depth 0 score -29998 nodes "), "{out}");
    assert!(lines[0].ends_with(&format!(" pv {mv} (proven)")), "{out}");
    // ... a forced block of a closed four ...
    let out = analyze_stones("standard", "h8,i8,j8,k8", "g8,a1,a3", "white");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("depth 0 score 0 nodes 0 time "),
        "{out}"
    );
    assert!(lines[0].ends_with(" pv l8 (forced)"), "{out}");
    assert_eq!(lines[1], "bestmove l8", "{out}");
    // ... and a proven win: black's open three becomes an open four.
    let out = analyze_stones("freestyle", "h8,i8,j8", "a1,a3", "black");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("depth 0 score 29997 "), "{out}");
    assert!(first.ends_with(" (proven)"), "{out}");
}

#[test]
fn bad_search_input() {
    bad(&["solve", "--moves", "h8"]); // no rule
    bad(&["solve", "--rule", "gomoku", "--moves", "h8"]);
    bad(&["solve", "--rule", "renju"]); // no position
    bad(&["solve", "--rule", "renju", "--moves", "h8 h8"]);
    bad(&["solve", "--rule", "renju", "--moves", "z9"]);
    bad(&["solve", "--rule", "renju", "--size", "30", "--moves", "h8"]);
    bad(&["solve", "--rule", "renju", "--black", "a1,a2,a3,a4,a5"]); // a five on the board
    bad(&[
        "solve",
        "--rule",
        "renju",
        "--black",
        "h8",
        "--to-move",
        "purple",
    ]);
    bad(&["analyze", "--rule", "renju", "--moves", "h8"]); // no limit
    bad(&[
        "analyze", "--rule", "renju", "--moves", "h8", "--depth", "0",
    ]);
    bad(&[
        "analyze", "--rule", "renju", "--moves", "h8", "--depth", "x",
    ]);
    bad(&[
        "analyze",
        "--rule",
        "renju",
        "--moves",
        "h8",
        "--depth",
        "3",
        "--threads",
        "0",
    ]);
    bad(&["bench", "--depth", "0"]);
    bad(&["bench", "--hash", "0"]);
    bad(&["bench", "--threads", "abc"]);
    bad(&["bench", "--movetime", "0"]);
}

#[test]
fn bench_prints_the_signature_lines_and_is_deterministic() {
    let a = ok(&["bench", "--depth", "3"]);
    let b = ok(&["bench", "--depth", "3"]);
    let nodes = |s: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .map(str::to_string)
            .expect("a Nodes searched line")
    };
    assert_eq!(nodes(&a), nodes(&b));
    let lines: Vec<&str> = a.lines().collect();
    assert!(lines.len() >= 14);
    assert!(lines[lines.len() - 4].starts_with("Average depth: "));
    assert!(lines[lines.len() - 3].starts_with("Branching factor: "));
    assert!(lines[lines.len() - 2].starts_with("Nodes searched: "));
    assert!(lines[lines.len() - 1].starts_with("Nodes/second: "));
    // Every position line names a best move, the depth reached and a node count; at a fixed
    // depth of 3 no search goes deeper than 3.
    for l in &lines[..lines.len() - 4] {
        assert!(l.contains(" best ") && l.contains(" nodes "), "{l}");
        let d: i32 = l
            .split(" depth ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse().ok())
            .expect("a depth field");
        assert!((0..=3).contains(&d), "{l}");
    }
    let avg: f64 = lines[lines.len() - 4]
        .strip_prefix("Average depth: ")
        .and_then(|t| t.parse().ok())
        .expect("a number");
    assert!(avg > 0.0 && avg <= 3.0, "{avg}");
}
