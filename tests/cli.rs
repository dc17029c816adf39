//! End-to-end tests of the `renju-engine fouls` subcommand and of a tiny `datagen` + `tune` run,
//! driving the built binary as a child process.
//!
//! Expected outputs come from the renju rules (docs/rules.md §2 and the §4 test positions, named
//! R1..R28 below); coordinates are renju notation (column letter from the left, row number from
//! the bottom, h8 = centre of 15x15).

use std::process::{Command, Output};

/// Run the binary with `args`.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_renju-engine"))
        .args(args)
        .output()
        .expect("failed to start renju-engine")
}

/// Run `renju-engine fouls <args>`, assert success with an empty stderr, return stdout.
fn fouls(args: &[&str]) -> String {
    let mut all = vec!["fouls"];
    all.extend_from_slice(args);
    let out = run(&all);
    let stdout = String::from_utf8(out.stdout).expect("stdout is not UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "renju-engine {all:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stderr.is_empty(),
        "renju-engine {all:?} wrote to stderr: {stderr}"
    );
    stdout
}

/// Assert that `renju-engine <args>` is refused as bad input: exit code 2, nothing on stdout and
/// exactly one non-empty line on stderr.
fn assert_bad_input(args: &[&str]) {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "renju-engine {args:?}: expected exit code 2\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        stdout.is_empty(),
        "renju-engine {args:?}: expected empty stdout, got:\n{stdout}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "renju-engine {args:?}: expected exactly one line on stderr, got:\n{stderr}"
    );
    assert!(
        !lines[0].trim().is_empty(),
        "renju-engine {args:?}: the stderr line is blank"
    );
}

/// The character shown for `coord` (renju notation) in the `--diagram` board at the start of
/// `lines`, for a board of side `size`. Rows are found by their printed number, so this also
/// checks that rows are numbered from the bottom.
fn diagram_cell(lines: &[&str], size: usize, coord: &str) -> char {
    let col = usize::from(coord.as_bytes()[0] - b'a');
    let row = &coord[1..];
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header.len(), size, "diagram header: {:?}", lines[0]);
    assert_eq!(header[col], &coord[..1], "diagram header: {:?}", lines[0]);
    let line = lines[1..=size]
        .iter()
        .find(|l| l.split_whitespace().next() == Some(row))
        .unwrap_or_else(|| panic!("no diagram row numbered {row}"));
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.len(), size + 2, "diagram row: {line:?}");
    assert_eq!(tokens[size + 1], row, "diagram row: {line:?}");
    let cell = tokens[1 + col];
    assert_eq!(cell.chars().count(), 1, "diagram row: {line:?}");
    cell.chars().next().unwrap()
}

/// Split `--diagram` output into the board (`size + 2` lines) and the foul lines after it.
fn split_diagram(stdout: &str, size: usize) -> (Vec<&str>, Vec<&str>) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines.len() >= size + 2,
        "diagram too short for size {size}:\n{stdout}"
    );
    let (board, rest) = lines.split_at(size + 2);
    assert_eq!(
        board[0].trim(),
        board[size + 1].trim(),
        "header and footer differ"
    );
    // Top row carries the largest number, bottom row is 1.
    assert_eq!(board[1].split_whitespace().next(), Some(&*size.to_string()));
    assert_eq!(board[size].split_whitespace().next(), Some("1"));
    (board.to_vec(), rest.to_vec())
}

// ----------------------------------------------------------------------------------------------
// Happy paths
// ----------------------------------------------------------------------------------------------

#[test]
fn r1_plain_double_three() {
    // G8-H8-I8 and H8-H9-H10 are both open threes.
    assert_eq!(fouls(&["--black", "g8,i8,h9,h10"]), "h8 double-three\n");
}

#[test]
fn r21_overline() {
    // D8..I8 would be six black stones; C8 makes an exact five, which is never a foul.
    assert_eq!(fouls(&["--black", "d8,e8,f8,g8,i8"]), "h8 overline\n");
}

#[test]
fn r28_edge_overline() {
    assert_eq!(fouls(&["--black", "a1,a2,a3,a4,a6"]), "a5 overline\n");
}

#[test]
fn r15_double_four_on_one_line() {
    // X.X?X.X: F8 completes E8-I8, J8 completes G8-K8; F8 and J8 alone make one four each.
    assert_eq!(fouls(&["--black", "e8,g8,i8,k8"]), "h8 double-four\n");
}

#[test]
fn r19_two_closed_fours() {
    // E8-H8 only completes at I8, H8-H11 only at H7: closed fours still count.
    assert_eq!(
        fouls(&["--black", "e8,f8,g8,h9,h10,h11", "--white", "d8,h12"]),
        "h8 double-four\n"
    );
}

#[test]
fn several_fouls_sorted_by_column_then_numeric_row() {
    // Four independent groups:
    // * R27 in the corner: C3 makes the horizontal three C3-D3-E3 and the diagonal three
    //   B2-C3-D4 (straight four via E5, five-points A1/F6) -> double-three;
    // * column h with H5 H7 H9 H11 H13 (`X.X?X.X` twice): H8 makes the fours {H5,H7,H8,H9}
    //   (by H6) and {H7,H8,H9,H11} (by H10); H10 makes {H7,H9,H10,H11} (by H8) and
    //   {H9,H10,H11,H13} (by H12) -> both double-four; H6 and H12 make only one four each;
    // * column m: M1-M4 and M6 -> M5 makes a six -> overline.
    // Sorted by column, then row as a number: h8 before h10 (a string sort would swap them),
    // and m5 after h10 (column first).
    let out = fouls(&["--black", "b2,d4,d3,e3,h5,h7,h9,h11,h13,m1,m2,m3,m4,m6"]);
    assert_eq!(
        out,
        "c3 double-three\nh8 double-four\nh10 double-four\nm5 overline\n"
    );
    let h8 = out.find("h8 ").unwrap();
    let h10 = out.find("h10 ").unwrap();
    assert!(h8 < h10, "h8 must come before h10:\n{out}");
}

#[test]
fn r17_four_three_three_and_neighbours() {
    // R17: H8 is the four E8-H8 plus the threes H8-H9-H10 and H8-I9-J10 -> double-three (the
    // four does not excuse it). The same stones give G9 the threes G9-H9-I9 and F8-G9-H10, and
    // I10 the threes H10-I10-J10 and G8-H9-I10.
    assert_eq!(
        fouls(&["--black", "e8,f8,g8,h9,h10,i9,j10"]),
        "g9 double-three\nh8 double-three\ni10 double-three\n"
    );
}

#[test]
fn no_fouls_prints_nothing() {
    assert_eq!(fouls(&["--moves", "h8 h9"]), "");
    assert_eq!(fouls(&["--black", "h8", "--white", "h9"]), "");
}

#[test]
fn five_is_never_a_foul() {
    // R22: H8 makes the exact five D8-H8 plus the fours H8-H11 and H8-K11: five first.
    let out = fouls(&["--black", "d8,e8,f8,g8,h9,h10,h11,i9,j10,k11"]);
    assert!(!out.lines().any(|l| l.starts_with("h8 ")), "{out}");
    // R23: H8 makes the exact five D8-H8 and the six H6-H11: five first.
    let out = fouls(&["--black", "d8,e8,f8,g8,h6,h7,h9,h10,h11"]);
    assert!(!out.lines().any(|l| l.starts_with("h8 ")), "{out}");
}

#[test]
fn move_separators_give_identical_output() {
    // A full-board case from the data set (mintaka pseudo_double_three#1): black E5 E6 E7 E8
    // F6 G6 G9 H8, white E4 E9 F7 F9 H9 I9 I10; the only foul is F8 (E8-F8-.-H8 and E7-F8-G9).
    let spaced = "e5 e4 e6 e9 e7 f7 e8 f9 f6 h9 g6 i9 g9 i10 h8";
    let commas = "e5,e4,e6,e9,e7,f7,e8,f9,f6,h9,g6,i9,g9,i10,h8";
    let joined = "e5e4e6e9e7f7e8f9f6h9g6i9g9i10h8";
    let mixed = "e5, e4 e6,e9e7  f7,e8 f9f6,h9 g6 i9,g9i10 h8";
    let expected = "f8 double-three\n";
    assert_eq!(fouls(&["--moves", spaced]), expected);
    assert_eq!(fouls(&["--moves", commas]), expected);
    assert_eq!(fouls(&["--moves", joined]), expected);
    assert_eq!(fouls(&["--moves", mixed]), expected);

    // R4 (white one point away still leaves a three), with filler white stones.
    let r4 = "h8 double-three\n";
    assert_eq!(fouls(&["--moves", "i8 f8 j8 a1 h9 o1 h10"]), r4);
    assert_eq!(fouls(&["--moves", "i8,f8,j8,a1,h9,o1,h10"]), r4);
    assert_eq!(fouls(&["--moves", "i8f8j8a1h9o1h10"]), r4);
}

#[test]
fn moves_alternate_from_black() {
    // The mintaka position: as moves, and as explicit stone lists.
    let moves = fouls(&["--moves", "e5 e4 e6 e9 e7 f7 e8 f9 f6 h9 g6 i9 g9 i10 h8"]);
    let stones = fouls(&[
        "--black",
        "e5,e6,e7,e8,f6,g6,g9,h8",
        "--white",
        "e4,e9,f7,f9,h9,i9,i10",
    ]);
    assert_eq!(moves, stones);
    assert_eq!(moves, "f8 double-three\n");
    // Colours swapped (what starting with white would give) has no foul at all.
    assert_eq!(
        fouls(&[
            "--black",
            "e4,e9,f7,f9,h9,i9,i10",
            "--white",
            "e5,e6,e7,e8,f6,g6,g9,h8",
        ]),
        ""
    );

    // R4 vs R5: the white stones decide. R4: white F8 only -> H8 still a double-three.
    assert_eq!(
        fouls(&["--moves", "i8 f8 j8 a1 h9 o1 h10"]),
        fouls(&["--black", "i8,j8,h9,h10", "--white", "f8,a1,o1"])
    );
    // R5: white F8 and L8 kill the horizontal three -> no foul.
    assert_eq!(fouls(&["--moves", "i8 f8 j8 l8 h9 a1 h10"]), "");
    assert_eq!(
        fouls(&["--black", "i8,j8,h9,h10", "--white", "f8,l8,a1"]),
        ""
    );
    // Control: the same black stones without white stones give the double-three.
    assert_eq!(fouls(&["--black", "i8,j8,h9,h10"]), "h8 double-three\n");
}

#[test]
fn size_20_with_column_t() {
    // T15-T18 and T20: T19 makes a six along the right edge; T14 makes an exact five.
    assert_eq!(
        fouls(&["--size", "20", "--black", "t15,t16,t17,t18,t20"]),
        "t19 overline\n"
    );
    // The same as alternating moves (white stones far away on the left edge).
    assert_eq!(
        fouls(&["--size", "20", "--moves", "t15 a1 t16 a3 t17 a5 t18 a7 t20"]),
        "t19 overline\n"
    );
}

#[test]
fn diagram_r1() {
    let out = fouls(&["--black", "g8,i8,h9,h10", "--diagram"]);
    let (board, rest) = split_diagram(&out, 15);
    assert_eq!(rest, ["h8 double-three"]);
    assert_eq!(diagram_cell(&board, 15, "h8"), '3');
    for stone in ["g8", "i8", "h9", "h10"] {
        assert_eq!(diagram_cell(&board, 15, stone), 'X', "{stone}");
    }
    for empty in ["h7", "h11", "f8", "j8", "a1", "o15", "a15", "o1"] {
        assert_eq!(diagram_cell(&board, 15, empty), '.', "{empty}");
    }
    // The '3' is in the row numbered 8 and in column h (the eighth cell).
    let row8 = board
        .iter()
        .find(|l| l.split_whitespace().next() == Some("8"))
        .unwrap();
    let cells: Vec<&str> = row8.split_whitespace().collect();
    assert_eq!(cells[1..16].concat(), "......X3X......", "row 8: {row8:?}");
}

#[test]
fn diagram_marks_all_kinds_and_white() {
    let out = fouls(&[
        "--black",
        "b2,d4,d3,e3,h5,h7,h9,h11,h13,m1,m2,m3,m4,m6",
        "--white",
        "o15",
        "--diagram",
    ]);
    let (board, rest) = split_diagram(&out, 15);
    assert_eq!(
        rest,
        [
            "c3 double-three",
            "h8 double-four",
            "h10 double-four",
            "m5 overline"
        ]
    );
    assert_eq!(diagram_cell(&board, 15, "c3"), '3');
    assert_eq!(diagram_cell(&board, 15, "h8"), '4');
    assert_eq!(diagram_cell(&board, 15, "h10"), '4');
    assert_eq!(diagram_cell(&board, 15, "m5"), '6');
    assert_eq!(diagram_cell(&board, 15, "o15"), 'O');
    assert_eq!(diagram_cell(&board, 15, "b2"), 'X');
    assert_eq!(diagram_cell(&board, 15, "m1"), 'X');
    assert_eq!(diagram_cell(&board, 15, "h6"), '.');
    assert_eq!(diagram_cell(&board, 15, "h12"), '.');
    let marks = board
        .iter()
        .skip(1)
        .take(15)
        .flat_map(|l| l.split_whitespace().skip(1).take(15))
        .filter(|c| matches!(*c, "3" | "4" | "6"))
        .count();
    assert_eq!(marks, 4, "one mark per foul:\n{out}");
}

#[test]
fn diagram_size_20_and_moves() {
    let out = fouls(&[
        "--size",
        "20",
        "--black",
        "t15,t16,t17,t18,t20",
        "--white",
        "a1",
        "--diagram",
    ]);
    let (board, rest) = split_diagram(&out, 20);
    assert_eq!(rest, ["t19 overline"]);
    assert_eq!(diagram_cell(&board, 20, "t19"), '6');
    assert_eq!(diagram_cell(&board, 20, "t20"), 'X');
    assert_eq!(diagram_cell(&board, 20, "a1"), 'O');
    assert_eq!(diagram_cell(&board, 20, "a20"), '.');

    // No fouls: only the board. Moves alternate: h8 black, h9 white.
    let out = fouls(&["--moves", "h8 h9", "--diagram"]);
    let (board, rest) = split_diagram(&out, 15);
    assert!(rest.is_empty(), "{out}");
    assert_eq!(diagram_cell(&board, 15, "h8"), 'X');
    assert_eq!(diagram_cell(&board, 15, "h9"), 'O');
}

#[test]
fn help_exits_zero() {
    for args in [&["--help"][..], &["fouls", "--help"][..]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("fouls"), "{args:?}: {text}");
    }
    let out = run(&["fouls", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in ["--size", "--moves", "--black", "--white", "--diagram"] {
        assert!(
            text.contains(flag),
            "fouls --help does not mention {flag}:\n{text}"
        );
    }
}

// ----------------------------------------------------------------------------------------------
// Bad input: exit code 2, empty stdout, one line on stderr
// ----------------------------------------------------------------------------------------------

#[test]
fn bad_coordinate() {
    assert_bad_input(&["fouls", "--black", "h8,zz"]);
    assert_bad_input(&["fouls", "--black", "8h"]);
    assert_bad_input(&["fouls", "--black", "h8,x"]);
    assert_bad_input(&["fouls", "--black", "h8", "--white", "i9,?"]);
    assert_bad_input(&["fouls", "--moves", "h8 9"]);
    assert_bad_input(&["fouls", "--moves", "h8 h9 -i8"]);
    assert_bad_input(&["fouls", "--moves", "h8h"]);
    assert_bad_input(&["fouls", "--black", "h0008"]);
    assert_bad_input(&["fouls", "--black", "h99999999999999999999"]);
    assert_bad_input(&["fouls", "--black", "h8,\u{127}9"]);
    assert_bad_input(&["fouls", "--black", "h8\u{e9}"]);
}

#[test]
fn occupied_point() {
    assert_bad_input(&["fouls", "--moves", "h8 h8"]);
    assert_bad_input(&["fouls", "--moves", "h8 h9 i8 h9"]);
    assert_bad_input(&["fouls", "--black", "h8,i9,h8"]);
    assert_bad_input(&["fouls", "--black", "h8", "--white", "h8"]);
    assert_bad_input(&["fouls", "--black", "h8", "--white", "i9,j10,i9"]);
}

#[test]
fn off_board_point() {
    assert_bad_input(&["fouls", "--black", "p1"]);
    assert_bad_input(&["fouls", "--black", "a16"]);
    assert_bad_input(&["fouls", "--black", "a0"]);
    assert_bad_input(&["fouls", "--black", "t20"]);
    assert_bad_input(&["fouls", "--black", "h8", "--white", "o16"]);
    assert_bad_input(&["fouls", "--moves", "h8 h9 q8"]);
    assert_bad_input(&["fouls", "--size", "20", "--black", "u1"]);
    assert_bad_input(&["fouls", "--size", "20", "--black", "a21"]);
    assert_bad_input(&["fouls", "--size", "5", "--black", "f1"]);
}

#[test]
fn bad_size() {
    assert_bad_input(&["fouls", "--size", "4", "--black", "a1"]);
    assert_bad_input(&["fouls", "--size", "23", "--black", "a1"]);
    assert_bad_input(&["fouls", "--size", "0", "--moves", "a1"]);
    assert_bad_input(&["fouls", "--size", "-1", "--black", "a1"]);
    assert_bad_input(&["fouls", "--size", "abc", "--black", "a1"]);
    assert_bad_input(&[
        "fouls",
        "--size",
        "99999999999999999999999",
        "--black",
        "a1",
    ]);
}

#[test]
fn sizes_at_the_limits_are_accepted() {
    assert_eq!(fouls(&["--size", "5", "--black", "a1,e5"]), "");
    assert_eq!(fouls(&["--size", "22", "--black", "v22,a1"]), "");
}

#[test]
fn five_already_on_board() {
    assert_bad_input(&["fouls", "--black", "d8,e8,f8,g8,h8"]);
    assert_bad_input(&["fouls", "--moves", "d8 a1 e8 a2 f8 a3 g8 a4 h8"]);
    assert_bad_input(&["fouls", "--black", "a1", "--white", "d8,e8,f8,g8,h8"]);
    assert_bad_input(&[
        "fouls",
        "--black",
        "a1,b1,c1,d1",
        "--white",
        "k1,l1,m1,n1,o1",
    ]);
    // A white overline wins for white, so it is a five in renju.
    assert_bad_input(&["fouls", "--black", "a1", "--white", "c8,d8,e8,f8,g8,h8"]);
}

#[test]
fn missing_position_arguments() {
    assert_bad_input(&["fouls"]);
    assert_bad_input(&["fouls", "--size", "15"]);
    assert_bad_input(&["fouls", "--diagram"]);
    assert_bad_input(&["fouls", "--white", "h8"]);
    assert_bad_input(&["fouls", "--moves"]);
    assert_bad_input(&["fouls", "--black"]);
}

#[test]
fn both_moves_and_stone_lists() {
    assert_bad_input(&["fouls", "--moves", "h8", "--black", "i9"]);
    assert_bad_input(&["fouls", "--black", "i9", "--moves", "h8"]);
    assert_bad_input(&["fouls", "--moves", "h8", "--white", "i9"]);
    assert_bad_input(&["fouls", "--moves", "h8", "--black", "i9", "--white", "j10"]);
}

#[test]
fn unknown_flag() {
    assert_bad_input(&["fouls", "--black", "h8", "--foo"]);
    assert_bad_input(&["fouls", "--black", "h8", "-z"]);
    assert_bad_input(&["fouls", "--bogus", "--moves", "h8"]);
    assert_bad_input(&["fouls", "--moves", "h8 h9", "extra"]);
    assert_bad_input(&["--bogus"]);
}

/// `datagen` then `tune` on a tiny run: the data file holds the games asked for, a rerun adds
/// nothing, and the fitted weights file parses as the embedded format with the losses in it.
#[test]
fn datagen_and_tune_round_trip() {
    let dir = std::env::temp_dir().join(format!("cli-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.bin");
    let weights = dir.join("w.txt");
    let data_s = data.to_str().unwrap();
    let gen = [
        "datagen",
        "--rules",
        "freestyle9",
        "--games",
        "12",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--hash",
        "1",
        "--out",
        data_s,
    ];
    for _ in 0..2 {
        let out = run(&gen);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("datagen: 12 games"), "{text}");
    }
    let games = renju_engine::datagen::read_file(&data).unwrap();
    assert_eq!(games.len(), 12);
    let out = run(&[
        "tune",
        "--rule",
        "freestyle",
        "--data",
        data_s,
        "--epochs",
        "1",
        "--batch",
        "16",
        "--out",
        weights.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("epoch 1: train loss"), "{text}");
    let file = std::fs::read_to_string(&weights).unwrap();
    assert!(file.contains("valid loss: hand"), "{file}");
    let w = renju_engine::pattern::code::CodeWeights::parse(
        &file,
        renju_engine::types::Rule::Freestyle,
    )
    .unwrap();
    assert!(w.scale > 0);
    // Bad input is refused.
    assert_bad_input(&[
        "tune",
        "--rule",
        "renju",
        "--data",
        data_s,
        "--out",
        "/dev/null",
    ]);
    assert_bad_input(&[
        "datagen", "--rules", "renju99", "--games", "1", "--out", data_s,
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn opengen_bad_shape() {
    assert_bad_input(&["opengen", "--rule", "freestyle", "--stones", "0"]);
    assert_bad_input(&["opengen", "--rule", "renju", "--stones", "2"]);
    assert_bad_input(&["opengen", "--rule", "freestyle", "--stones", "13"]);
    assert_bad_input(&["opengen", "--rule", "freestyle", "--radius", "0"]);
    assert_bad_input(&[
        "opengen",
        "--rule",
        "freestyle",
        "--size",
        "15",
        "--radius",
        "8",
    ]);
}

/// Write an arena psq record of `cells` (1-based `x,y`) to `path`.
fn write_psq(path: &std::path::Path, cells: &[(usize, usize)]) {
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for (x, y) in cells {
        s.push_str(&format!("{x},{y},100\n"));
    }
    s.push_str("-1\n");
    std::fs::write(path, s).unwrap();
}

/// `import` turns a match's records into a datagen file whose results are read from the
/// boards (a five for black, one for white, none: a draw); a record with a stone after the five
/// is refused as bad input.
#[test]
fn import_reads_match_records_with_their_results() {
    let dir = std::env::temp_dir().join(format!("cli-import-{}", std::process::id()));
    let records = dir.join("match");
    std::fs::create_dir_all(&records).unwrap();
    let black_five = [
        (8, 8),
        (1, 1),
        (9, 8),
        (1, 3),
        (10, 8),
        (1, 5),
        (11, 8),
        (1, 7),
        (12, 8),
    ];
    let white_five = [
        (8, 8),
        (1, 6),
        (12, 3),
        (1, 7),
        (4, 12),
        (1, 8),
        (13, 13),
        (1, 9),
        (3, 3),
        (1, 10),
    ];
    write_psq(&records.join("game-00001.psq"), &black_five);
    write_psq(&records.join("game-00002.psq"), &white_five);
    write_psq(&records.join("game-00003.psq"), &black_five[..8]);
    std::fs::write(records.join("notes.txt"), "not a record").unwrap();
    let data = dir.join("d.bin");
    let out = run(&[
        "import",
        "--rule",
        "renju",
        "--out",
        data.to_str().unwrap(),
        records.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        text.starts_with("import: 3 games (1 won by black, 1 by white, 1 drawn), 27 plies"),
        "{text}"
    );
    let games = renju_engine::datagen::read_file(&data).unwrap();
    let results: Vec<_> = games.iter().map(|g| g.result).collect();
    use renju_engine::types::Color;
    assert_eq!(results, [Some(Color::Black), Some(Color::White), None]);
    assert_eq!(games[1].plies.len(), 10);
    // A stone after the five, and a directory without records, are bad input.
    let mut after = black_five.to_vec();
    after.push((15, 15));
    write_psq(&records.join("game-00004.psq"), &after);
    let (d, r) = (data.to_str().unwrap(), records.to_str().unwrap());
    assert_bad_input(&["import", "--out", d, r]);
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_bad_input(&["import", "--out", d, empty.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
}
