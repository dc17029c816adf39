//! Threat-space solver tests on the puzzle collection: VCF wins (proof lines replayed), the
//! no-VCF trap, and VCT wins. Size knob: `PUZZLES` (default: all verified VCF puzzles, a sample
//! of VCT puzzles).

mod common;
use common::*;
use renju_engine::search::vcf::{check_proof, Solution, Solver};
use renju_engine::types::{Color, Rule};
use std::time::Instant;

fn build(case: &Case) -> renju_engine::board::Board {
    let rule = rule_of(case.get("rule"));
    let size: usize = case.get("size").parse().unwrap();
    let black = stones(case.get("black"), size);
    let white = stones(case.get("white"), size);
    let mut b = board_from(rule, size, &black, &white, 0);
    let to_move: Color = case.get("tomove").parse().unwrap();
    if b.side_to_move() != to_move {
        b.pass();
    }
    let _ = Rule::Renju;
    b
}

#[test]
fn verified_vcf_puzzles_are_solved_with_valid_proofs() {
    let cases: Vec<Case> = read_cases("puzzles.txt")
        .into_iter()
        .filter(|c| c.get("expect") == "vcf-win" && c.line.contains("ref-vcf:found"))
        .collect();
    let mut solved = 0;
    let mut failed = Vec::new();
    let start = Instant::now();
    for case in &cases {
        let mut b = build(case);
        let mut s = Solver::new(2_000_000);
        match s.vcf(&mut b) {
            Solution::Win(line) => {
                if let Err(e) = check_proof(&b, &line, true) {
                    panic!("bad proof {e}: {:?}\n{}", line, case.line);
                }
                solved += 1;
            }
            Solution::NoWin => failed.push(case.line.clone()),
        }
    }
    println!(
        "VCF: {solved}/{} solved in {:?}; unsolved: {:?}",
        cases.len(),
        start.elapsed(),
        failed.iter().take(3).collect::<Vec<_>>()
    );
    assert!(solved * 100 >= cases.len() * 99, "{solved}/{}", cases.len());
}

#[test]
fn every_vcf_puzzle_and_the_no_vcf_trap() {
    let cases = read_cases("puzzles.txt");
    let mut total = 0;
    let mut solved = 0;
    for case in cases.iter().filter(|c| c.get("expect") == "vcf-win") {
        let mut b = build(case);
        total += 1;
        if let Solution::Win(line) = Solver::new(500_000).vcf(&mut b) {
            if let Err(e) = check_proof(&b, &line, true) {
                panic!("bad proof {e}: {:?}\n{}", line, case.line);
            }
            solved += 1;
        }
    }
    println!("all VCF puzzles (some unverified transcriptions): {solved}/{total}");
    assert!(solved * 100 >= total * 95, "{solved}/{total}");
    for case in cases.iter().filter(|c| c.get("expect") == "no-vcf") {
        let mut b = build(case);
        assert_eq!(
            Solver::new(2_000_000).vcf(&mut b),
            Solution::NoWin,
            "{}",
            case.line
        );
    }
}

#[test]
fn vct_puzzles_sample() {
    let n: usize = std::env::var("PUZZLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let cases: Vec<Case> = read_cases("puzzles.txt")
        .into_iter()
        .filter(|c| c.get("expect") == "vct-win")
        .collect();
    let step = (cases.len() / n.max(1)).max(1);
    let mut total = 0;
    let mut solved = 0;
    for case in cases.iter().step_by(step).take(n) {
        let mut b = build(case);
        total += 1;
        if let Solution::Win(line) = Solver::new(300_000).vct(&mut b, 10) {
            if let Err(e) = check_proof(&b, &line, false) {
                panic!("bad proof {e}: {:?}\n{}", line, case.line);
            }
            solved += 1;
        }
    }
    println!("VCT puzzles (sources only, unverified): {solved}/{total}");
    assert!(solved * 100 >= total * 60, "{solved}/{total}");
}
