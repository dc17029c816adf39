//! Threat-space solver tests on the puzzle collection: VCF wins (proof lines replayed), the
//! no-VCF trap, and VCT wins. Size knob: `PUZZLES` (default: all verified VCF puzzles, a sample
//! of VCT puzzles).

mod common;
use common::*;
use renju_engine::search::vcf::{check_proof, Solution, Solver};
use std::time::Instant;

/// An evenly spread sample of the puzzles whose `expect` is `expect`: `PUZZLES` of them (the
/// size knob), or `default` when it is not set.
fn sample(expect: &str, default: usize) -> Vec<Case> {
    let n: usize = std::env::var("PUZZLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let cases: Vec<Case> = read_cases("puzzles.txt")
        .into_iter()
        .filter(|c| c.get("expect") == expect)
        .collect();
    let step = (cases.len() / n.max(1)).max(1);
    cases.into_iter().step_by(step).take(n).collect()
}

/// A VCF puzzle turned round: the defender moves first while the attacker threatens its VCF.
/// `None` when the defender wins by VCF itself or must block a four (no choice to test).
fn turned_round(case: &Case) -> Option<renju_engine::board::Board> {
    use renju_engine::search::params::ROOT_VCF_NODES;
    let mut b = puzzle_board(case);
    b.pass();
    let me = b.side_to_move();
    let free = Solver::new(ROOT_VCF_NODES).vcf(&mut b) == Solution::NoWin
        && !b.has(me.opponent(), renju_engine::pattern::Class::Five);
    free.then_some(b)
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
        let mut b = puzzle_board(case);
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
        let mut b = puzzle_board(case);
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
        let mut b = puzzle_board(case);
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
    let mut total = 0;
    let mut solved = 0;
    for case in &sample("vct-win", 120) {
        let mut b = puzzle_board(case);
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

#[test]
fn the_root_stops_a_vcf_the_opponent_threatens() {
    use renju_engine::search::params::{QS_MAX_PLY, ROOT_VCF_NODES};
    use renju_engine::search::threats::legal;
    use renju_engine::search::{Limits, Searcher, Silent};
    // VCF puzzles turned round: the defender moves first. Whenever some legal move leaves the
    // attacker no VCF (by the solver at the root guard's per-move budget), a depth-1 search
    // must play such a move. Size knob `PUZZLES` (default: every VCF puzzle; about 25 of them
    // have a threat longer than the quiescence follows and a move that stops it).
    let loses = |b: &mut renju_engine::board::Board, m| {
        b.play_unchecked(m);
        let won = Solver::new(ROOT_VCF_NODES / 4).vcf(b) != Solution::NoWin;
        b.undo();
        won
    };
    let (mut tried, mut defended) = (0, 0);
    for case in &sample("vcf-win", usize::MAX) {
        let Some(mut b) = turned_round(case) else {
            continue;
        };
        let me = b.side_to_move();
        // Long threats only (more fours than the quiescence follows): the ones the
        // alpha-beta alone does not see at depth 1.
        b.pass();
        let threat = Solver::new(ROOT_VCF_NODES).vcf(&mut b);
        b.undo();
        match threat {
            Solution::Win(line) if line.len() > 2 * QS_MAX_PLY as usize => {}
            _ => continue,
        }
        let cands: Vec<_> = b.candidates().collect();
        let good: Vec<_> = cands
            .into_iter()
            .filter(|&m| legal(&mut b, m, me) && !loses(&mut b, m))
            .collect();
        if good.is_empty() {
            continue;
        }
        tried += 1;
        let r = Searcher::new(16, 1).search(&b, Limits::depth(1), &mut Silent);
        assert!(
            good.contains(&r.best),
            "{:?} does not stop the VCF; these do: {good:?}\n{}",
            r.best,
            case.line
        );
        defended += 1;
    }
    println!("root guard: {defended} of {tried} turned-round VCF puzzles defended");
    assert!(tried > 0, "no usable puzzle");
}

#[test]
fn a_node_limited_search_keeps_its_nodes_when_the_root_guard_fires() {
    use renju_engine::search::{Limits, Searcher, Silent};
    // VCF puzzles turned round (the defender moves first, the attacker threatens a VCF): under
    // a node limit the root guard's checks stay within their share, so the search still
    // completes an iteration. Size knob `PUZZLES` (default 300 puzzles).
    let mut tried = 0;
    for case in &sample("vcf-win", 300) {
        let Some(b) = turned_round(case) else {
            continue;
        };
        tried += 1;
        let limits = Limits {
            max_nodes: Some(10_000),
            ..Limits::default()
        };
        let r = Searcher::new(16, 1).search(&b, limits, &mut Silent);
        assert!(
            r.depth >= 1,
            "no iteration in {} nodes\n{}",
            r.nodes,
            case.line
        );
    }
    assert!(tried > 0, "no usable puzzle");
}
