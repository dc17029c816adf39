//! The arena binary end to end: matches between our engine and fixture engines with known
//! misbehaviour, records, summary and a knockout bracket.

use std::path::PathBuf;
use std::process::Command;

fn fixture(mode: &str) -> String {
    format!("{} {mode}", env!("CARGO_BIN_EXE_arena-fixture"))
}

/// A scratch output directory under the system temp dir, removed (with its `.openings.txt`
/// sibling) when the test ends, passed or failed.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(self.0.with_extension("openings.txt"));
    }
}

fn out_dir(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("arena-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    Scratch(d)
}

/// Run the arena; returns (stdout, summary.json text).
fn arena(args: &[&str], out: &PathBuf) -> (String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("arena runs");
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "arena {args:?} failed: {}\n{stdout}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    (stdout, summary)
}

fn json_count(summary: &str, key: &str) -> u64 {
    let i = summary
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("{key} in {summary}"));
    summary[i + key.len() + 4..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

#[test]
fn short_match_of_our_engine_against_itself_with_openings() {
    let out = out_dir("selfmatch");
    let openings = out.with_extension("openings.txt");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(&openings, "# two openings\n0,0, 1,0, 0,2\nh8 i9 j10\n").unwrap();
    let pro = fixture("pro");
    let (stdout, summary) = arena(
        &[
            "--engine",
            &pro,
            "--engine",
            &pro,
            "--rule",
            "renju",
            "--size",
            "15",
            "--games",
            "4",
            "--tc",
            "0/0.1",
            "--openings",
            openings.to_str().unwrap(),
            "--concurrency",
            "2",
            "--sprt",
            "0,10",
        ],
        &out,
    );
    assert_eq!(json_count(&summary, "games"), 4, "{summary}");
    assert!(stdout.contains("Elo"), "{stdout}");
    assert!(stdout.contains("SPRT"), "{stdout}");
    for n in 1..=4 {
        let psq = out.join(format!("game-{n:05}.psq"));
        let sgf = out.join(format!("game-{n:05}.sgf"));
        let psq = std::fs::read_to_string(psq).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15"), "{psq}");
        let sgf = std::fs::read_to_string(sgf).unwrap();
        assert!(sgf.starts_with("(;GM[4]"), "{sgf}");
        // The opening stones come first: every game starts at h8 (8,8 in psq's 1-based x,y).
        assert!(psq.lines().nth(1).unwrap().starts_with("8,8,"), "{psq}");
    }
    // No game may end by a rule violation of our engine.
    for bad in [
        "occupied",
        "off-board",
        "garbage",
        "crash",
        "timeout",
        "foul",
    ] {
        assert!(!summary.contains(&format!("\"{bad}")), "{bad} in {summary}");
    }
    // The colour and game-pair counts agree with the records: game 2k - 1 has the first
    // engine black, game 2k the same opening with the first engine white.
    let winners: Vec<char> = (1..=4)
        .map(|n| {
            let sgf = std::fs::read_to_string(out.join(format!("game-{n:05}.sgf"))).unwrap();
            let i = sgf.find("RE[").expect("result") + 3;
            sgf[i..].chars().next().unwrap()
        })
        .collect();
    let count = |c: char| winners.iter().filter(|&&w| w == c).count() as u64;
    assert_eq!(json_count(&summary, "black"), count('B'), "{summary}");
    assert_eq!(json_count(&summary, "white"), count('W'), "{summary}");
    assert_eq!(json_count(&summary, "drawn"), 4 - count('B') - count('W'));
    let first_points = |n: usize| match (winners[n], n.is_multiple_of(2)) {
        ('B', true) | ('W', false) => 2,
        ('B', false) | ('W', true) => 0,
        _ => 1,
    };
    let mut penta = [0u32; 5];
    for k in 0..2 {
        penta[first_points(2 * k) + first_points(2 * k + 1)] += 1;
    }
    let expect = format!(
        "\"pentanomial\": [[{}, {}, {}, {}, {}]]",
        penta[0], penta[1], penta[2], penta[3], penta[4]
    );
    assert!(summary.contains(&expect), "{expect} in {summary}");
    assert!(stdout.contains("by colour: black won"), "{stdout}");
}

/// A two-game match of `mode` against the greedy fixture; `mode` must lose the games it
/// misbehaves in with `reason`, and the match goes on to its end.
fn misbehaving(mode: &str, rule: &str, opening: Option<&str>, reason: &str, by_reason: u64) {
    let out = out_dir(mode);
    std::fs::create_dir_all(&out).unwrap();
    let mut args: Vec<String> = [
        "--engine",
        &fixture(mode),
        "--engine",
        &fixture("greedy"),
        "--rule",
        rule,
        "--games",
        "2",
        "--tc",
        "0/0.3",
        "--tolerance",
        "300",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    if let Some(o) = opening {
        let f = out.join("opening.txt");
        std::fs::write(&f, format!("{o}\n")).unwrap();
        args.push("--openings".into());
        args.push(f.to_string_lossy().into_owned());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (stdout, summary) = arena(&refs, &out);
    assert_eq!(json_count(&summary, "games"), 2, "{mode}: {summary}");
    assert!(
        json_count(&summary, "losses") >= by_reason,
        "{mode}: {summary}\n{stdout}"
    );
    assert!(
        summary.contains(&format!("\"{reason}\": {by_reason}")),
        "{mode}: expected {by_reason} loss(es) by {reason}: {summary}\n{stdout}"
    );
}

#[test]
fn fixture_engines_that_misbehave_lose_with_the_right_reason() {
    misbehaving("crash", "freestyle", None, "crash", 2);
    misbehaving("hang", "freestyle", None, "timeout", 2);
    misbehaving("garbage", "freestyle", None, "garbage", 2);
    misbehaving("occupied", "freestyle", Some("h8 h9 i8"), "occupied", 2);
    // Black to move with a double-three at h8: the foul fixture plays it as black and loses;
    // as white (colours swapped) it plays normally.
    misbehaving(
        "foul",
        "renju",
        Some("g8 a1 i8 a15 h9 o1 h10 o15"),
        "foul-double-three",
        1,
    );
}

#[test]
fn an_engine_that_never_answers_about_does_not_hang_the_arena() {
    let out = out_dir("noabout");
    let start = std::time::Instant::now();
    let (_, summary) = arena(
        &[
            "--engine",
            &fixture("noabout"),
            "--engine",
            &fixture("greedy"),
            "--rule",
            "standard",
            "--games",
            "2",
            "--tc",
            "0/0.2",
        ],
        &out,
    );
    assert_eq!(json_count(&summary, "games"), 2);
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn foul_reject_mode_asks_again_then_scores_the_second_foul() {
    let out = out_dir("reject");
    std::fs::create_dir_all(&out).unwrap();
    let f = out.join("opening.txt");
    std::fs::write(&f, "g8 a1 i8 a15 h9 o1 h10 o15\n").unwrap();
    let (_, summary) = arena(
        &[
            "--engine",
            &fixture("foul"),
            "--engine",
            &fixture("greedy"),
            "--rule",
            "renju",
            "--games",
            "2",
            "--tc",
            "0/0.3",
            "--foul",
            "reject",
            "--openings",
            f.to_str().unwrap(),
        ],
        &out,
    );
    // The foul fixture answers the same foul twice: the second one loses.
    assert!(summary.contains("\"foul-double-three\": 1"), "{summary}");
}

#[test]
fn knockout_bracket_is_won_by_the_strongest_fixture() {
    let out = out_dir("knockout");
    let (stdout, _) = arena(
        &[
            "--engine",
            &fixture("random 1"),
            "--engine",
            &fixture("pro"),
            "--engine",
            &fixture("random 2"),
            "--engine",
            &fixture("greedy"),
            "--rule",
            "freestyle",
            "--games",
            "2",
            "--tc",
            "0/0.1",
            "--format",
            "knockout",
        ],
        &out,
    );
    let winner = stdout
        .lines()
        .find_map(|l| l.strip_prefix("knockout winner: "))
        .expect("a winner line");
    assert!(winner.ends_with(" pro"), "{stdout}");
}

#[test]
fn round_robin_prints_a_cross_table() {
    let out = out_dir("rr");
    let (stdout, summary) = arena(
        &[
            "--engine",
            &fixture("greedy"),
            "--engine",
            &fixture("random 3"),
            "--engine",
            &fixture("random 4"),
            "--rule",
            "freestyle",
            "--games",
            "2",
            "--tc",
            "0/0.1",
        ],
        &out,
    );
    assert!(stdout.contains("cross table"), "{stdout}");
    assert_eq!(json_count(&summary, "games"), 6);
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let mut cases = vec![
        vec![
            "--engine", "x", "--rule", "renju", "--games", "2", "--tc", "1", "--out", "/tmp/a",
        ],
        vec![
            "--engine", "x", "--engine", "y", "--rule", "gomoku", "--games", "2", "--tc", "1",
            "--out", "/tmp/a",
        ],
        vec![
            "--engine", "x", "--engine", "y", "--rule", "renju", "--games", "2", "--tc", "z",
            "--out", "/tmp/a",
        ],
    ];
    // Time odds for an engine that does not exist, and a spec without `=TC`.
    let renju = [
        "--engine", "x", "--engine", "y", "--rule", "renju", "--games", "2", "--tc", "1", "--out",
        "/tmp/a",
    ];
    for spec in ["3=1", "2"] {
        let mut args = renju.to_vec();
        args.extend(["--engine-tc", spec]);
        cases.push(args);
    }
    for args in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
}

/// A freestyle match between two fixture modes with `games`, `tc` and any `extra` arguments;
/// returns (stdout, summary.json text).
fn fixture_match(
    name: &str,
    a: &str,
    b: &str,
    games: &str,
    tc: &str,
    extra: &[&str],
) -> (String, String) {
    let out = out_dir(name);
    std::fs::create_dir_all(&out).unwrap();
    let (fa, fb) = (fixture(a), fixture(b));
    let mut args = vec![
        "--engine",
        &fa,
        "--engine",
        &fb,
        "--rule",
        "freestyle",
        "--games",
        games,
        "--tc",
        tc,
    ];
    args.extend_from_slice(extra);
    arena(&args, &out)
}

#[test]
fn an_sprt_stops_the_match_once_decided_and_reports_the_decision() {
    // The greedy fixture against one that never answers a move: every game is a win on time,
    // so H1 of [0, 10] is accepted long before the game limit, and the report says when. (The
    // loser must take a moment per game: with instant games the workers can finish every job
    // before the recording thread reaches the decision.)
    let (stdout, summary) = fixture_match(
        "sprt-stop",
        "greedy",
        "hang",
        "400",
        "0/0.1",
        &["--concurrency", "2", "--tolerance", "100", "--sprt", "0,10"],
    );
    let games = json_count(&summary, "games");
    assert!(games < 400, "{summary}");
    assert!(summary.contains("\"status\": \"AcceptH1\""), "{summary}");
    assert!(stdout.contains("H1 accepted after"), "{stdout}");
}

#[test]
fn time_odds_give_one_engine_its_own_time_control() {
    // The slow fixture thinks 150 ms a move: at 0/0.05 (50 ms tolerance) it loses every game
    // on time, with `--engine-tc 2=0/1` (its own 1 s a move) none; its opponent keeps 0/0.05.
    // Games are drawn at 30 stones to keep the test short.
    let tight = ["--tolerance", "50", "--draw-after", "30"];
    let (_, summary) = fixture_match("odds-none", "greedy", "slow", "2", "0/0.05", &tight);
    assert!(summary.contains("\"timeout\": 2"), "{summary}");
    let odds = [
        "--tolerance",
        "50",
        "--draw-after",
        "30",
        "--engine-tc",
        "2=0/1",
    ];
    let (_, summary) = fixture_match("odds", "greedy", "slow", "2", "0/0.05", &odds);
    assert_eq!(json_count(&summary, "games"), 2, "{summary}");
    assert!(!summary.contains("\"timeout\""), "{summary}");
    // The other engine is still held to 0/0.05: as the slow one it loses both games on time.
    let odds = [
        "--tolerance",
        "50",
        "--draw-after",
        "30",
        "--engine-tc",
        "1=0/1",
    ];
    let (_, summary) = fixture_match("odds-first", "slow", "slow", "2", "0/0.05", &odds);
    assert!(summary.contains("\"timeout\": 2"), "{summary}");
}

#[test]
fn a_match_clock_without_a_move_limit_sends_no_timeout_turn() {
    // `--tc 4` is 4 s per game and no per-move limit; `INFO timeout_turn 0` would tell the
    // engines to play at once (the fixture exits on it, which the arena scores as a crash).
    let (_, summary) = fixture_match("noturnzero", "noturnzero", "greedy", "2", "4", &[]);
    assert_eq!(json_count(&summary, "games"), 2, "{summary}");
    assert!(!summary.contains("\"crash\""), "{summary}");
}

#[test]
fn records_are_numbered_by_schedule_so_odd_games_have_the_first_engine_as_black() {
    // Two games at once finish in any order; the record of game k must still be the k-th game
    // of the schedule, where the first engine plays black in odd games.
    let out = out_dir("schedule");
    let (pro, greedy) = (fixture("pro"), fixture("greedy"));
    let (stdout, _) = arena(
        &[
            "--engine",
            &pro,
            "--engine",
            &greedy,
            "--rule",
            "freestyle",
            "--size",
            "15",
            "--games",
            "8",
            "--tc",
            "0/0.05",
            "--concurrency",
            "2",
        ],
        &out,
    );
    for n in 1..=8 {
        let psq = std::fs::read_to_string(out.join(format!("game-{n:05}.psq"))).unwrap();
        let names: Vec<&str> = psq
            .lines()
            .skip_while(|l| *l != "-1")
            .skip(1)
            .take(2)
            .collect();
        let black = if n % 2 == 1 {
            "renju-engine"
        } else {
            "fixture-greedy"
        };
        assert_eq!(names[0], black, "game {n}: {psq}");
        let line = format!("game {n}: {black} (black)");
        assert!(stdout.contains(&line), "{line} not in {stdout}");
    }
}

#[test]
fn combine_adds_two_matches_and_recomputes_the_sprt() {
    let (d1, d2, out) = (
        out_dir("combine-1"),
        out_dir("combine-2"),
        out_dir("combine-out"),
    );
    let (greedy, r5, r6) = (fixture("greedy"), fixture("random 5"), fixture("random 6"));
    let play = |b: &str, games: &str, dir: &PathBuf| {
        let args = [
            "--engine",
            &greedy,
            "--engine",
            b,
            "--rule",
            "freestyle",
            "--games",
            games,
            "--tc",
            "0/0.1",
            "--sprt",
            "0,10",
        ];
        arena(&args, dir).1
    };
    let (s1, s2) = (play(&r5, "4", &d1), play(&r6, "6", &d2));
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_combine"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&[
        "--sprt",
        "0,10",
        "--out",
        out.to_str().unwrap(),
        d1.to_str().unwrap(),
        d2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let c = std::fs::read_to_string(out.join("summary.json")).unwrap();
    for key in ["games", "wins", "losses", "draws", "black", "white"] {
        assert_eq!(
            json_count(&c, key),
            json_count(&s1, key) + json_count(&s2, key),
            "{key}: {c}"
        );
    }
    assert!(c.contains("\"llr\": "), "{c}");
    // Bad input: a folder without a summary, a bad SPRT, no folder at all.
    for args in [
        vec!["--out", "/tmp/x", "/nonexistent-match-dir"],
        vec!["--out", "/tmp/x", "--sprt", "5,0", out.to_str().unwrap()],
        vec!["--out", "/tmp/x"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
}
