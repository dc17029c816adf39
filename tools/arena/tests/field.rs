//! The field tools end to end: a gauntlet of two engines against one opponent and its ledger
//! rows (`arena --format gauntlet`, `field`), and a referee's post-mortem of a record with a
//! fixture engine standing in for the referee (`referee`).

use arena::field::MARKER;
use arena::records::parse_summary;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(mode: &str) -> String {
    format!("{} {mode}", env!("CARGO_BIN_EXE_arena-fixture"))
}

/// A scratch directory under the system temp dir, removed when the test ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("field-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().expect("runs")
}

fn black_and_white(psq: &str) -> (String, String) {
    let mut names = psq.lines().skip_while(|l| *l != "-1").skip(1);
    (
        names.next().unwrap().to_string(),
        names.next().unwrap().to_string(),
    )
}

#[test]
fn a_gauntlet_takes_turns_and_writes_one_row_per_revision() {
    let dir = scratch("gauntlet");
    let out = dir.0.join("match");
    let (opp, a, b) = (fixture("greedy"), fixture("random 3"), fixture("foul"));
    let o = run(
        env!("CARGO_BIN_EXE_arena"),
        &[
            "--engine",
            &opp,
            "--engine",
            &a,
            "--engine",
            &b,
            "--format",
            "gauntlet",
            "--rule",
            "freestyle",
            "--games",
            "4",
            "--tc",
            "0/0.1",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{o:?}");
    // The two pairings take turns two games at a time: games 1-2 and 5-6 are the first
    // revision's, 3-4 and 7-8 the second's (each pair of games one opening, colours swapped).
    let cmd_of = |n: usize| -> (String, String) {
        let psq = std::fs::read_to_string(out.join(format!("game-{n:05}.psq"))).unwrap();
        black_and_white(&psq)
    };
    for n in 1..=8 {
        let (black, white) = cmd_of(n);
        let other = if (n - 1) / 2 % 2 == 0 {
            "fixture-random"
        } else {
            "fixture-foul"
        };
        assert!(
            black == "fixture-greedy" || white == "fixture-greedy",
            "game {n}"
        );
        assert!(black == other || white == other, "game {n}");
        // The opponent is black in the odd games of each pairing.
        assert_eq!(black == "fixture-greedy", n % 2 == 1, "game {n}");
    }
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap();
    let s = parse_summary(&text).unwrap();
    assert_eq!(s.pairs.len(), 2);
    assert_eq!(s.pairs[0].1, a);
    assert_eq!(s.pairs[1].1, b);
    assert_eq!(s.pair_reasons.len(), 2);
    // Each pair's reasons add up to its decisive games, the loser's side told apart.
    for ((_, _, w), [a_lost, b_lost]) in s.pairs.iter().zip(&s.pair_reasons) {
        assert_eq!(a_lost.values().sum::<u32>(), w.losses);
        assert_eq!(b_lost.values().sum::<u32>(), w.wins);
    }

    // The rows, into a ledger with the marker.
    let ledger = dir.0.join("strength.md");
    std::fs::write(&ledger, format!("# ledger\n| old |\n{MARKER}\nafter\n")).unwrap();
    let o = run(
        env!("CARGO_BIN_EXE_field"),
        &[
            "--summary",
            out.to_str().unwrap(),
            "--opponent",
            "greedy 1",
            "--label",
            "revA",
            "--label",
            "revB",
            "--rule",
            "freestyle 15",
            "--tc",
            "0/0.1",
            "--book",
            "none",
            "--date",
            "2026-12-07",
            "--ledger",
            ledger.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{o:?}");
    let printed = String::from_utf8_lossy(&o.stdout).to_string();
    let rows: Vec<&str> = printed.lines().collect();
    assert_eq!(rows.len(), 2);
    for (row, (label, (_, _, w))) in rows.iter().zip(["revA", "revB"].iter().zip(&s.pairs)) {
        let prefix =
            format!("| 2026-12-07 | {label} | greedy 1 | freestyle 15 | 0/0.1 | none | 4 | ");
        assert!(row.starts_with(&prefix), "{row}");
        // The revision's W-L-D is the opponent's turned round.
        assert!(
            row.contains(&format!("| {}-{}-{} |", w.losses, w.wins, w.draws)),
            "{row}"
        );
    }
    let l = std::fs::read_to_string(&ledger).unwrap();
    assert_eq!(
        l,
        format!(
            "# ledger\n| old |\n{}\n{}\n{MARKER}\nafter\n",
            rows[0], rows[1]
        )
    );
    // Bad input: one label for two pairs, no summary, a ledger without the marker.
    let base = [
        "--opponent",
        "x",
        "--rule",
        "r",
        "--tc",
        "t",
        "--book",
        "b",
        "--date",
        "d",
        "--summary",
    ];
    for extra in [
        vec![out.to_str().unwrap(), "--label", "a"],
        vec!["/nonexistent-dir", "--label", "a"],
        vec![
            out.to_str().unwrap(),
            "--label",
            "a",
            "--label",
            "b",
            "--ledger",
            "/nonexistent-ledger.md",
        ],
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let o = run(env!("CARGO_BIN_EXE_field"), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
    }
}

/// A freestyle record: opening h8/i9 (0 ms), then black and white moves; white plays a stone in
/// column 0 as stone 6 (the fixture referee then has black winning in 5) and one in row 0 as
/// stone 8 (a drop of 400).
fn record(dir: &Path) {
    let stones = [
        (8, 8, 0),
        (9, 9, 0),
        (8, 9, 120),
        (9, 10, 80),
        (8, 10, 90),
        (1, 5, 70),
        (10, 4, 60),
        (5, 1, 50),
        (11, 11, 40),
    ];
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for (x, y, ms) in stones {
        s.push_str(&format!("{x},{y},{ms}\n"));
    }
    s.push_str("-1\nblack-engine\nwhite-engine\n1-0 five\n");
    std::fs::write(dir.join("game-00001.psq"), s).unwrap();
    // A draw, which the post-mortem skips.
    std::fs::write(
        dir.join("game-00002.psq"),
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\nblack-engine\nwhite-engine\n1/2-1/2 draw-after\n",
    )
    .unwrap();
}

#[test]
fn the_referee_finds_the_first_blunder_in_either_message_format() {
    let dir = scratch("referee");
    record(&dir.0);
    let positions = dir.0.join("blunders.txt");
    let mut reports = Vec::new();
    for mode in ["referee", "referee-rapfi"] {
        let o = run(
            env!("CARGO_BIN_EXE_referee"),
            &[
                "--referee",
                &fixture(mode),
                "--dir",
                dir.0.to_str().unwrap(),
                "--rule",
                "freestyle",
                "--time",
                "100",
                "--threshold",
                "500",
                "--positions",
                positions.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{o:?}");
        reports.push(String::from_utf8_lossy(&o.stdout).to_string());
    }
    assert_eq!(reports[0], reports[1], "the two formats read alike");
    let r = &reports[0];
    assert!(r.contains("1 decisive games"), "{r}");
    // White's moves (stones 4, 6, 8) judged; the column-0 stone is the first blunder, tactical
    // (black's win proven in 5); the row-0 drop of 400 is under the threshold of 500.
    assert!(
        r.contains("game 1: white-engine lost (1-0 five): stone 6 a11 +0 -> -M5 (tactical)"),
        "{r}"
    );
    assert!(
        r.contains("total 1 tactical, 0 positional, 0 games without a blunder"),
        "{r}"
    );
    assert!(r.contains("of 3 ("), "{r}");
    // Mean loss over stones 0-9: 0 (stone 4), 1000 (stone 6, a proven loss), 400 (stone 8).
    assert!(r.contains("  0-9    466.7 (3, "), "{r}");
    // The position file: the position before stone 6 and the referee's move.
    let text = std::fs::read_to_string(&positions).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let p = arena::referee::BlunderPosition::parse(line, 15).unwrap();
    assert_eq!(p.moves.len(), 5);
    assert_eq!(p.played.to_renju(15), "a11");
    assert_ne!(p.best[0], p.played);
    // A lower threshold makes the first white move that drops 400 ... there is none before
    // stone 6, so the verdict stands; only the games of one loser are judged with --loser.
    let o = run(
        env!("CARGO_BIN_EXE_referee"),
        &[
            "--referee",
            &fixture("referee"),
            "--dir",
            dir.0.to_str().unwrap(),
            "--rule",
            "freestyle",
            "--loser",
            "black-engine",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no decisive game"));
}

#[test]
fn a_warm_up_move_keeps_a_slow_first_move_from_losing_on_time() {
    // The `slowfirst` fixture takes 1.5 s over its first move, past 0.1 s + 1 s of tolerance.
    let timeouts = |warm: bool| -> u32 {
        let dir = scratch(if warm { "warm" } else { "cold" });
        let out = dir.0.join("m");
        let mut args = vec![
            "--engine".to_string(),
            fixture("slowfirst"),
            "--engine".to_string(),
            fixture("greedy"),
            "--rule".into(),
            "freestyle".into(),
            "--games".into(),
            "2".into(),
            "--tc".into(),
            "0/0.1".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ];
        if warm {
            args.push("--warmup".into());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(env!("CARGO_BIN_EXE_arena"), &refs);
        assert!(o.status.success(), "{o:?}");
        let s = parse_summary(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        s.losses_by_reason.get("timeout").copied().unwrap_or(0)
    };
    assert!(timeouts(false) >= 1);
    assert_eq!(timeouts(true), 0);
}

#[test]
fn the_ledger_has_one_field_table_marker() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/strength.md");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.lines().filter(|l| l.trim() == MARKER).count(), 1);
}

#[test]
fn the_stored_blunder_positions_are_legal_and_read_back() {
    use renju_engine::board::Board;
    use renju_engine::rules;
    use renju_engine::types::Rule;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/field");
    for (file, rule, size) in [
        ("renju_blunders.txt", Rule::Renju, 15),
        ("freestyle_blunders.txt", Rule::Freestyle, 20),
        ("standard_blunders.txt", Rule::Standard, 15),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let p = arena::referee::BlunderPosition::parse(line, size)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(p.to_line(size), line, "{file}: round trip");
            let mut b = Board::new(size, rule).unwrap();
            for &m in &p.moves {
                rules::try_play(&mut b, m).unwrap_or_else(|e| panic!("{file}: {line}: {e:?}"));
            }
            // The move played and the referee's are legal there, and differ (the referee's own
            // choice is never a blunder).
            for m in [p.played, p.best[0]] {
                rules::try_play(&mut b.clone(), m)
                    .unwrap_or_else(|e| panic!("{file}: {line}: {e:?}"));
            }
            assert_ne!(p.played, p.best[0], "{file}: {line}");
            n += 1;
        }
        assert!(n >= 40, "{file}: {n} positions");
    }
}
