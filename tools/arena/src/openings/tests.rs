//! The opening formats, file parsing, ordering and set-up, checked line by line.

use super::*;
use std::path::PathBuf;

fn one(line: &str, size: usize) -> Vec<(usize, usize)> {
    parse_line(line, size)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .unwrap_or_else(|| panic!("{line}: no opening"))
        .moves
}

fn err(line: &str, size: usize) -> String {
    match parse_line(line, size) {
        Err(e) => e,
        Ok(o) => panic!("{line}: expected an error, got {o:?}"),
    }
}

/// The shared opening directory, or `None` (with a note) when it is not there.
fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/openings"
    ));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} not found; skipping the test on the real opening files",
            dir.display()
        );
        None
    }
}

fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

fn load_ok(path: &Path, size: usize) -> Vec<Opening> {
    load(path, size).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn offset_lines_by_hand() {
    // Piskvork openings.txt line 1.
    assert_eq!(one("0,0, 1,0, 1,3", 20), vec![(10, 10), (11, 10), (11, 13)]);
    assert_eq!(one("0,0, 1,0, 1,3", 15), vec![(7, 7), (8, 7), (8, 10)]);
    // GomocupJudge openings_20.txt line 5: row 0 at dy = -10.
    assert_eq!(
        one("-4,-10, -8,-8, -7,-7", 20),
        vec![(6, 0), (2, 2), (3, 3)]
    );
    // No spaces (GomocupJudge line 6 style), and a tolerated trailing comma.
    assert_eq!(one("-6,1,-6,0,-9,1", 20), vec![(4, 11), (4, 10), (1, 11)]);
    assert_eq!(one("0,0, 1,1,", 15), vec![(7, 7), (8, 8)]);
    // Odd sizes and even sizes both use size / 2.
    assert_eq!(one("0,0", 19), vec![(9, 9)]);
    assert_eq!(one("-10,9", 20), vec![(0, 19)]);
}

#[test]
fn offset_lines_from_the_real_files() {
    let Some(dir) = data_dir() else { return };
    let fs = dir.join("freestyle_standard");
    let pisk = load_ok(&fs.join("piskvork_openings.txt"), 20);
    assert_eq!(pisk.len(), 41);
    // Line 1: 0,0, 1,0, 1,3.
    assert_eq!(pisk[0].moves, vec![(10, 10), (11, 10), (11, 13)]);
    // Line 41: -8,-6, -7,-6, -8,-5, -6,-4, -6,-5.
    assert_eq!(pisk[40].moves, vec![(2, 4), (3, 4), (2, 5), (4, 6), (4, 5)]);
    let judge = load_ok(&fs.join("gomocupjudge_openings_20.txt"), 20);
    assert_eq!(judge.len(), 6);
    // Line 5: -4,-10, -8,-8, -7,-7.
    assert_eq!(judge[4].moves, vec![(6, 0), (2, 2), (3, 3)]);
    // Line 6: 41 stones without spaces, starting -6,1,-6,0 and ending -8,4.
    assert_eq!(judge[5].moves.len(), 41);
    assert_eq!(judge[5].moves[..2], [(4, 11), (4, 10)]);
    assert_eq!(judge[5].moves[40], (2, 14));
    // The 15x15 copy: line 1 on a 15 board.
    let p15 = load_ok(&fs.join("piskvork_openings_15x15_first40.txt"), 15);
    assert_eq!(p15.len(), 40);
    assert_eq!(p15[0].moves, vec![(7, 7), (8, 7), (8, 10)]);
}

#[test]
fn rif26_offsets_are_the_26_canonical_openings() {
    let Some(dir) = data_dir() else { return };
    let rif = load_ok(&dir.join("renju/rif26_offset.txt"), 15);
    assert_eq!(
        rif.len(),
        26,
        "rif26_offset.txt should hold the 26 openings"
    );
    // Third stones of D1..D13 and I1..I13, from the table of rules.md §6.1.
    let direct = [
        (7, 5),
        (8, 5),
        (9, 5),
        (8, 6),
        (9, 6),
        (8, 7),
        (9, 7),
        (7, 8),
        (8, 8),
        (9, 8),
        (7, 9),
        (8, 9),
        (9, 9),
    ];
    let indirect = [
        (9, 5),
        (9, 6),
        (9, 7),
        (9, 8),
        (9, 9),
        (8, 7),
        (8, 8),
        (8, 9),
        (7, 8),
        (7, 9),
        (6, 8),
        (6, 9),
        (5, 9),
    ];
    for (i, o) in rif.iter().enumerate() {
        let m = &o.moves;
        assert_eq!(m.len(), 3, "opening {}", i + 1);
        assert_eq!(m[0], (7, 7), "opening {}: black 1 is not h8", i + 1);
        let (dx, dy) = (m[1].0 as i64 - 7, m[1].1 as i64 - 7);
        assert!(
            dx.abs().max(dy.abs()) == 1,
            "opening {}: white 2 not adjacent",
            i + 1
        );
        let (tx, ty) = (m[2].0 as i64 - 7, m[2].1 as i64 - 7);
        assert!(
            tx.abs() <= 2 && ty.abs() <= 2,
            "opening {}: black 3 outside 5x5",
            i + 1
        );
        if i < 13 {
            assert_eq!(m[1], (7, 6), "D{}: white 2 should be h9", i + 1);
            assert_eq!(m[2], direct[i], "D{}", i + 1);
        } else {
            assert_eq!(m[1], (8, 6), "I{}: white 2 should be i9", i - 12);
            assert_eq!(m[2], indirect[i - 13], "I{}", i - 12);
        }
        assert_eq!(o.side_to_move(), Color::White);
        o.to_board(15, Rule::Renju)
            .unwrap_or_else(|e| panic!("opening {}: {e}", i + 1));
    }
    // Pairwise distinct up to the 8 symmetries of the board about h8.
    let canon = |o: &Opening| {
        let mut forms = Vec::new();
        for swap in [false, true] {
            for sx in [1i64, -1] {
                for sy in [1i64, -1] {
                    let form: Vec<(i64, i64)> = o
                        .moves
                        .iter()
                        .map(|&(x, y)| {
                            let (a, b) = (x as i64 - 7, y as i64 - 7);
                            let (a, b) = if swap { (b, a) } else { (a, b) };
                            (sx * a, sy * b)
                        })
                        .collect();
                    forms.push(form);
                }
            }
        }
        forms.into_iter().min().unwrap()
    };
    let mut forms: Vec<_> = rif.iter().map(canon).collect();
    forms.sort();
    forms.dedup();
    assert_eq!(
        forms.len(),
        26,
        "two RIF openings are the same up to symmetry"
    );
}

#[test]
fn rif26_csv_pos_and_offset_files_agree() {
    let Some(dir) = data_dir() else { return };
    let offset = load_ok(&dir.join("renju/rif26_offset.txt"), 15);
    let csv = load_ok(&dir.join("renju/rif26.csv"), 15);
    assert_eq!(csv, offset);
    let pos = load_as(&dir.join("renju/rif26_pos.txt"), 15, Format::Pos)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos, offset);
    // Read as renju notation (the auto default), a pos file is mirrored top to bottom.
    let auto = load_ok(&dir.join("renju/rif26_pos.txt"), 15);
    for (a, o) in auto.iter().zip(&offset) {
        let mirrored: Vec<_> = o.moves.iter().map(|&(x, y)| (x, 14 - y)).collect();
        assert_eq!(a.moves, mirrored);
    }
}

#[test]
fn katagomo_gtp_offset_and_pos_files_agree() {
    let Some(dir) = data_dir() else { return };
    let r = dir.join("renju");
    let gtp = load_ok(&r.join("katagomo_renju5_982_first200.txt"), 15);
    let offset = load_ok(&r.join("katagomo_renju5_first200_offset.txt"), 15);
    let pos = load_as(&r.join("katagomo_renju5_first200_pos.txt"), 15, Format::Pos)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(gtp.len(), 200);
    // Line 5: `15 L7 L8 M8 L9 N10`; L is column 10 (I skipped), row 7 is y = 8.
    assert_eq!(
        gtp[0].moves,
        vec![(10, 8), (10, 7), (11, 7), (10, 6), (12, 5)]
    );
    assert_eq!(gtp, offset);
    assert_eq!(gtp, pos);
}

#[test]
fn move_strings_in_both_notations() {
    let expect = vec![(7, 7), (7, 6), (8, 5)];
    assert_eq!(one("h8 h9 i10", 15), expect);
    assert_eq!(one("h8h9i10", 15), expect);
    assert_eq!(one("H8, H9, I10", 15), expect);
    assert_eq!(one("  h8 h9 i10  # D2 Keigetsu", 15), expect);
    // Gomocup points, blank-separated.
    assert_eq!(one("7,7 7,6 8,5", 15), expect);
    assert_eq!(one("7,7  7,6\t8,5", 15), expect);
    // GTP with the board size first (KataGomo): J is column 8, I is skipped.
    assert_eq!(one("15 H8 H9 J10", 15), expect);
    // pos (rows from the top) only when asked for.
    let pos = parse_line_as("h8h7i6", 15, Format::Pos).unwrap().unwrap();
    assert_eq!(pos.moves, expect);
    // Renju notation on a 20x20 board: row 1 is y = 19.
    assert_eq!(one("a1 t20", 20), vec![(0, 19), (19, 0)]);
}

#[test]
fn comments_and_blank_lines() {
    for line in [
        "",
        "   ",
        "\r",
        "# comment",
        "  // comment",
        "; comment 0,0",
        "\u{feff}",
        "#0,0, 1,1",
    ] {
        assert_eq!(parse_line(line, 15), Ok(None), "{line:?}");
    }
    let text = "\u{feff}# header\r\n0,0, 1,0\r\n\r\n// x\n; y\nh8 h9 # tail\n";
    let all = parse_file(text, 15).unwrap();
    assert_eq!(
        all,
        vec![
            Opening {
                moves: vec![(7, 7), (8, 7)]
            },
            Opening {
                moves: vec![(7, 7), (7, 6)]
            },
        ]
    );
    assert_eq!(parse_file("# nothing\n\n", 15), Ok(vec![]));
}

#[test]
fn bad_lines_are_errors() {
    // Off the board, in every notation.
    let e = err("0,0, 8,0", 15);
    assert!(
        e.contains("off the 15x15 board") && e.contains("0,0, 8,0"),
        "{e}"
    );
    assert!(err("0,0, 0,-8", 15).contains("off the 15x15 board"));
    assert!(err("-11,0", 20).contains("off the 20x20 board"));
    assert!(err("10,0", 20).contains("off the 20x20 board"));
    assert!(err("h8 p8", 15).contains("off the 15x15 board"));
    assert!(err("h8 h16", 15).contains("off the 15x15 board"));
    assert!(err("7,7 15,7", 15).contains("off the 15x15 board"));
    assert!(err("15 H8 Q8", 15).contains("off the 15x15 board"));
    // Duplicates.
    let e = err("0,0, 1,1, 0,0", 15);
    assert!(e.contains("repeats move 1") && e.contains("h8"), "{e}");
    assert!(err("h8 h9 h8", 15).contains("repeats move 1"));
    assert!(err("h8h8", 15).contains("repeats"));
    assert!(err("7,7 7,7", 15).contains("repeats"));
    // Garbage and malformed lines.
    assert!(err("hello world", 15).contains("not a coordinate"));
    assert!(err("0,0, 1", 15).contains("pairs"));
    assert!(err("0,0,,1", 15).contains("empty number"));
    assert!(err("0,0, 1,x", 15).contains("not"));
    assert!(err("*** 0,0", 15).contains("not an opening line"));
    assert!(err("15 H8 I9", 15).contains("skip the letter I"));
    assert!(err("19 H8 H9", 15).contains("19x19"));
    assert!(parse_line("h8", 4).is_err());
    // parse_file names the line number.
    let e = parse_file("0,0\n# c\n0,0, 9,9\n", 15).unwrap_err();
    assert!(e.starts_with("line 3:"), "{e}");
    let e = parse_file("h8\nnonsense!\n", 15).unwrap_err();
    assert!(e.starts_with("line 2:"), "{e}");
    // load names the file; an empty file is an error.
    let missing = Path::new("/nonexistent/openings.txt");
    assert!(load(missing, 15)
        .unwrap_err()
        .contains("/nonexistent/openings.txt"));
    let empty = std::env::temp_dir().join(format!("arena-openings-{}.txt", std::process::id()));
    std::fs::write(&empty, "# only a comment\n\n").unwrap();
    let e = load(&empty, 15).unwrap_err();
    std::fs::remove_file(&empty).unwrap();
    assert!(e.contains("no openings"), "{e}");
}

#[test]
fn csv_tables() {
    let text = "code,name,gomocup_xy_black1,gomocup_xy_white2,offset_line,renju_notation\n\
                D1,Kansei,\"7,7\",\"7,6\",\"0,0, 0,-1\",h8 h9\n\
                X,\"a \"\"q\"\"\",,,,h8 i9\n";
    let all = parse_file(text, 15).unwrap();
    assert_eq!(all[0].moves, vec![(7, 7), (7, 6)]);
    assert_eq!(all[1].moves, vec![(7, 7), (8, 6)]);
    let bad = "code,offset_line,renju_notation\nD1,\"0,0, 0,-1\",h8 i9\n";
    let e = parse_file(bad, 15).unwrap_err();
    assert!(e.starts_with("line 2:") && e.contains("disagree"), "{e}");
    let empty = "code,offset_line\nD1,\n";
    assert!(parse_file(empty, 15)
        .unwrap_err()
        .contains("no opening column"));
}

#[test]
fn order_keeps_or_shuffles_deterministically() {
    let openings: Vec<Opening> = (0..26)
        .map(|i| Opening {
            moves: vec![(i, i)],
        })
        .collect();
    assert_eq!(order(openings.clone(), false, 7), openings);
    let a = order(openings.clone(), true, 7);
    let b = order(openings.clone(), true, 7);
    let c = order(openings.clone(), true, 8);
    assert_eq!(a, b, "same seed, same order");
    assert_ne!(a, openings, "a shuffle of 26 should move something");
    assert_ne!(a, c, "different seeds should give different orders");
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, openings, "a shuffle is a permutation");
}

#[test]
fn to_board_checks_the_rule() {
    let o = Opening {
        moves: vec![(7, 7), (7, 6), (8, 5)],
    };
    let b = o.to_board(15, Rule::Renju).unwrap();
    assert_eq!(b.stone_count(), 3);
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(o.side_to_move(), Color::White);
    assert_eq!(Opening::default().side_to_move(), Color::Black);
    assert_eq!(o.to_offset_line(15), "0,0, 0,-1, 1,-2");
    assert_eq!(o.to_renju(15), "h8 h9 i10");
    // Black's ninth stone makes a double three: a foul in renju, fine in freestyle.
    let foul = Opening {
        moves: vec![
            (6, 7),
            (0, 0),
            (7, 7),
            (2, 0),
            (8, 5),
            (4, 0),
            (8, 6),
            (14, 14),
            (8, 7),
        ],
    };
    let e = foul.to_board(15, Rule::Renju).unwrap_err();
    assert!(e.contains("move 9") && e.contains("double-three"), "{e}");
    foul.to_board(15, Rule::Freestyle).unwrap();
    // A finished game is not an opening.
    let five = Opening {
        moves: vec![
            (0, 0),
            (0, 5),
            (1, 0),
            (1, 5),
            (2, 0),
            (2, 5),
            (3, 0),
            (3, 5),
            (4, 0),
        ],
    };
    let e = five.to_board(15, Rule::Freestyle).unwrap_err();
    assert!(e.contains("move 9") && e.contains("black"), "{e}");
    // Off the board and repeated points.
    let off = Opening {
        moves: vec![(15, 0)],
    };
    assert!(off
        .to_board(15, Rule::Freestyle)
        .unwrap_err()
        .contains("off"));
    let dup = Opening {
        moves: vec![(3, 3), (3, 3)],
    };
    assert!(dup
        .to_board(15, Rule::Freestyle)
        .unwrap_err()
        .contains("occupied"));
}

#[test]
fn format_names_round_trip() {
    for f in Format::ALL {
        assert_eq!(f.name().parse::<Format>(), Ok(f));
    }
    assert!("yixin".parse::<Format>().is_err());
}

/// The board size a data file is meant for: renju files and `*15x15*` are 15x15, the
/// other freestyle/standard files are Gomocup 20x20 (see SOURCES.md).
fn size_of(dir: &str, name: &str) -> usize {
    if dir == "renju" || name.contains("15x15") {
        15
    } else {
        20
    }
}

#[test]
fn every_data_file_parses_and_is_legal() {
    let Some(root) = data_dir() else { return };
    let mut files = 0;
    for dir in ["freestyle_standard", "renju"] {
        let path = root.join(dir);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        entries.sort();
        for file in entries {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let size = size_of(dir, &name);
            let rules: &[Rule] = if dir == "renju" {
                &[Rule::Renju]
            } else {
                &[Rule::Freestyle, Rule::Standard]
            };
            let openings = load_ok(&file, size);
            // One opening per non-comment line (minus a CSV header).
            let lines = read_lines(&file);
            let mut expected = lines.iter().filter(|l| content(l).is_some()).count();
            if name.ends_with(".csv") {
                expected -= 1;
            }
            assert_eq!(openings.len(), expected, "{name}");
            for (i, o) in openings.iter().enumerate() {
                for &rule in rules {
                    o.to_board(size, rule).unwrap_or_else(|e| {
                        panic!("{name} opening {} on {size}x{size}: {e}", i + 1)
                    });
                }
            }
            eprintln!("{dir}/{name}: {} openings, {size}x{size}", openings.len());
            files += 1;
        }
    }
    assert!(files >= 11, "expected the 11 opening files, found {files}");
}

#[test]
fn twenty_by_twenty_files_do_not_fit_fifteen() {
    let Some(root) = data_dir() else { return };
    let fs = root.join("freestyle_standard");
    for name in [
        "piskvork_openings.txt",
        "gomocupjudge_openings_20.txt",
        "gomocuponline_openings.txt",
        "gomocup2021_openings_unverified.txt",
    ] {
        let e = load(&fs.join(name), 15).unwrap_err();
        assert!(e.contains("off the 15x15 board"), "{name}: {e}");
    }
    // piskvork_openings.txt: only line 41 does not fit 15x15.
    let e = load(&fs.join("piskvork_openings.txt"), 15).unwrap_err();
    assert!(e.contains("line 41:"), "{e}");
}
