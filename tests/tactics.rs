//! The renju tactics set (`tests/data/renju_tactics.txt`, made by `renju-engine tacticsgen`
//! from the engine's self-play games): every label re-checked from scratch, and the engine's
//! moves judged by the solvers. Size knob: `TACTICS` positions of each kind (default 4; the
//! whole set with a large value).

use renju_engine::eval::WIN_THRESHOLD;
use renju_engine::search::vcf::{Solution, Solver};
use renju_engine::search::{Limits, Searcher, Silent};
use renju_engine::tactics::{engine_move, parse_file, solves, verify, Kind, Tactic};

fn set() -> Vec<Tactic> {
    parse_file(include_str!("data/renju_tactics.txt")).expect("the set parses")
}

/// An evenly spread sample of each kind: `TACTICS` of them, or `default`.
fn sample(default: usize) -> Vec<Tactic> {
    let n: usize = std::env::var("TACTICS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let all = set();
    let mut out = Vec::new();
    for kind in Kind::ALL {
        let of: Vec<&Tactic> = all.iter().filter(|t| t.kind == kind).collect();
        let step = (of.len() / n.max(1)).max(1);
        out.extend(of.iter().step_by(step).take(n).map(|&t| t.clone()));
    }
    out
}

#[test]
fn the_set_has_every_kind_and_at_least_200_positions() {
    let all = set();
    assert!(all.len() >= 200, "{} positions", all.len());
    for kind in Kind::ALL {
        assert!(
            all.iter().filter(|t| t.kind == kind).count() >= 30,
            "too few {kind:?}"
        );
    }
    // The text form round-trips.
    for t in &all {
        assert_eq!(&Tactic::parse(&t.to_line()).unwrap(), t);
    }
}

#[test]
fn every_sampled_label_holds() {
    for t in sample(4) {
        if let Err(e) = verify(&t) {
            panic!("{e}: {}", t.to_line());
        }
    }
}

#[test]
fn a_wrong_label_is_caught() {
    // Each kind relabelled as another fails its check: the checks tell the kinds apart.
    let all = set();
    for kind in Kind::ALL {
        let t = all.iter().find(|t| t.kind == kind).unwrap();
        for other in Kind::ALL {
            if other == kind || (kind == Kind::Foul && other == Kind::Vct) {
                // A forced-foul VCF is also a win, but not a VCF-less one; checked below.
                continue;
            }
            let wrong = Tactic {
                kind: other,
                ..t.clone()
            };
            assert!(
                verify(&wrong).is_err(),
                "{kind:?} as {other:?}: {}",
                t.to_line()
            );
        }
    }
    // A move far from every stone neither wins nor defends.
    for kind in Kind::ALL {
        let t = all.iter().find(|t| t.kind == kind).unwrap();
        let b = t.board().unwrap();
        let far = b
            .empty_cells()
            .find(|&p| !b.is_candidate(p) && b.empty_cells().count() > 0)
            .expect("a cell away from the stones");
        assert!(!solves(t, far), "{kind:?}: {}", t.to_line());
        assert!(solves(t, t.line[0]) || kind == Kind::Defend);
    }
    // A foul position is not a VCT-only one (white has the VCF).
    let t = all.iter().find(|t| t.kind == Kind::Foul).unwrap();
    let wrong = Tactic {
        kind: Kind::Vct,
        ..t.clone()
    };
    assert!(verify(&wrong).is_err());
}

#[test]
fn the_engine_solves_sampled_positions_at_a_fixed_depth() {
    // Depth 8 is reached at 0.5 s a move on this machine; the full measure is the
    // `renju-engine tactics` command (README). A proven win's move and a defence are judged by
    // the solvers, never by the engine itself.
    let sample = sample(4);
    let mut solved = 0;
    for t in &sample {
        let m = engine_move(t, 500, Some(8), 1).expect("a move");
        solved += usize::from(solves(t, m));
    }
    // Wins the engine cannot miss: every foul and VCT position of the sample is a proven win
    // within the solver's reach, and the search runs its own VCF/VCT checks.
    assert!(
        solved * 10 >= sample.len() * 7,
        "solved {solved} of {}",
        sample.len()
    );
}

#[test]
fn the_root_vct_probe_proves_vct_wins_at_a_fixed_depth() {
    // At depth 12 the alpha-beta alone misses some of these wins (they need threes, not only
    // fours; the test fails with the probe off); the root VCT probe after each iteration
    // proves them, and the move it plays is judged by the solvers, never by the engine itself.
    let vct: Vec<Tactic> = sample(4)
        .into_iter()
        .filter(|t| t.kind == Kind::Vct)
        .collect();
    assert!(!vct.is_empty());
    for t in &vct {
        let b = t.board().unwrap();
        let mut searcher = Searcher::new(16, 1);
        let r = searcher.search(&b, Limits::depth(12), &mut Silent);
        assert!(
            r.score >= WIN_THRESHOLD,
            "score {} at depth 12: {}",
            r.score,
            t.to_line()
        );
        // The set's labels are proved with VCTs of at most 8 threats; the probe's may be longer.
        let proved =
            solves(t, r.best) || Solver::new(2_000_000).wins_after(&mut b.clone(), r.best, 12);
        assert!(proved, "{:?}: {}", r.best, t.to_line());
        assert!(r.pv.len() >= 3 && r.pv[0] == r.best, "{:?}", r.pv);
    }
}

#[test]
fn the_root_vct_guard_avoids_moves_that_lose_to_a_vct() {
    // In the defend positions the opponent threatens a VCT of several threat moves. When the
    // search ends (here after depth 8) the guard gives the opponent's VCT after the best move
    // a solver probe (at fixed depth 4,000 nodes doubling per depth from 5: 32,000 at depth 8)
    // and drops a move it proves lost, searching depth 8 again. So the move played at depth 8 never loses to a VCT
    // that a fresh solver proves within 32,000 nodes. Without the guard the alpha-beta plays
    // such moves (checked: the test fails with the guard off).
    // All of them (about 20 s): the alpha-beta's misses are few.
    let defend: Vec<Tactic> = set()
        .into_iter()
        .filter(|t| t.kind == Kind::Defend)
        .collect();
    assert!(!defend.is_empty());
    let mut lost = Vec::new();
    for t in &defend {
        let mut b = t.board().unwrap();
        let m = engine_move(t, 500, Some(8), 1).expect("a move");
        b.play_unchecked(m);
        if Solver::new(32_000).vct(&mut b, 10) != Solution::NoWin {
            lost.push(t.to_line());
        }
    }
    assert!(lost.is_empty(), "moves lost to a short VCT in {lost:?}");
}
