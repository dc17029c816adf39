//! The post-mortem of decided games (`renju-engine postmortem`, `src/postmortem.rs`): where the
//! winner first had a VCT and whether the loser's move before it let the VCT in.

use renju_engine::postmortem::{parse_psq, verdict, Decided, Verdict};
use renju_engine::types::{Color, Pos, Rule};
use std::process::Command;

/// A freestyle 15 game in arena psq form (1-based cells): black builds h-row stones from h8,
/// white plays on the a-file; white's third stone ignores black's open three.
fn ignored_three() -> String {
    let cells = [
        (8, 8),
        (1, 1),
        (9, 8),
        (1, 3),
        (10, 8),
        (1, 5), // ignores the open three
        (11, 8),
        (1, 7),
        (12, 8),
    ];
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for (x, y) in cells {
        s.push_str(&format!("{x},{y},100\n"));
    }
    s.push_str("-1\nfirst\nsecond\n");
    s
}

fn moves_of(text: &str) -> Vec<Pos> {
    parse_psq(text, 15).unwrap().iter().map(|s| s.0).collect()
}

#[test]
fn a_move_that_ignores_an_open_three_allowed_the_vct() {
    let moves = moves_of(&ignored_three());
    assert_eq!(moves.len(), 9, "the trailer lines are no stones");
    let v = verdict(&moves, Rule::Freestyle, 15, 100_000).unwrap();
    assert_eq!(
        v,
        Verdict::Decisive {
            winner: Color::Black,
            ply: 6,
            decided: Decided::Allowed,
            proof_nodes: 1_000,
        }
    );
}

#[test]
fn a_game_without_a_five_is_a_draw_and_bad_records_are_refused() {
    let moves = moves_of(&ignored_three());
    assert_eq!(
        verdict(&moves[..8], Rule::Freestyle, 15, 10_000).unwrap(),
        Verdict::Draw
    );
    assert!(parse_psq("header\n16,1,0\n", 15).is_err());
    assert!(parse_psq("header\n3,3,0\n3,3,5\n", 15).is_err());
}

#[test]
fn the_command_reports_each_game_and_the_loser_engines() {
    let dir = std::env::temp_dir().join(format!("postmortem-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Game 1: the first engine has black (and wins); game 2: the first engine has white.
    std::fs::write(dir.join("game-00001.psq"), ignored_three()).unwrap();
    std::fs::write(dir.join("game-00002.psq"), ignored_three()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_renju-engine"))
        .args(["postmortem", "--rule", "freestyle", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("game 1: black wins; first VCT at stone 7"),
        "{stdout}"
    );
    assert!(stdout.contains("second engine): allowed"), "{stdout}");
    assert!(stdout.contains("game 2: black wins"), "{stdout}");
    assert!(
        stdout.contains("first engine lost 1: 1 allowed, 0 lost, 0 unclear"),
        "{stdout}"
    );
    assert!(
        stdout.contains("second engine lost 1: 1 allowed, 0 lost, 0 unclear"),
        "{stdout}"
    );
}
