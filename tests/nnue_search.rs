//! The search with an evaluation network set for a rule (`renju_engine::nnue::set_for_process`,
//! the protocol engine's `--net`): its static evaluation is the network's value on the rule's
//! calibrated scale, and a fixed-depth search is deterministic. Its own process: the network
//! stays set for the rest of it.

use renju_engine::board::Board;
use renju_engine::nnue::{set_for_process, Network};
use renju_engine::search::{Limits, Searcher, Silent};
use renju_engine::types::{Pos, Rule};

fn quiet_board(rule: Rule) -> Board {
    let mut b = Board::new(15, rule).expect("board");
    for (x, y) in [(7, 7), (9, 9), (5, 9), (9, 5)] {
        b.play_unchecked(Pos::new(x, y, 15));
    }
    b
}

#[test]
fn searches_evaluate_with_the_network_set_for_the_rule() {
    // Freestyle: a network whose value is 0.5 whatever the position (every weight 0, output
    // bias 0.5): a depth-1 search of a quiet position scores every move -0.5 x scale.
    let mut flat = Network::random(Rule::Freestyle, 8, 4, 1);
    let mut v = flat.to_vec();
    v.iter_mut().for_each(|x| *x = 0.0);
    v[flat.layout().b2] = 0.5;
    flat.set_from(&v);
    set_for_process(&flat).expect("first network for freestyle");
    assert!(
        set_for_process(&flat).is_err(),
        "a second network for the rule"
    );
    let scale = renju_engine::pattern::code::CodeWeights::get(Rule::Freestyle).scale;
    let r =
        Searcher::new(16, 1).search(&quiet_board(Rule::Freestyle), Limits::depth(1), &mut Silent);
    assert_eq!(r.score, -((0.5 * scale as f32) as i32), "{r:?}");
    // Renju has no network set: its search is the classical one.
    let classical =
        Searcher::new(16, 1).search(&quiet_board(Rule::Renju), Limits::depth(1), &mut Silent);
    assert_ne!(classical.score.abs(), (0.5 * scale as f32) as i32);

    // Standard with a random network: deterministic at a fixed depth, and a legal move.
    set_for_process(&Network::random(Rule::Standard, 16, 8, 3)).expect("standard network");
    let b = quiet_board(Rule::Standard);
    let run = || Searcher::new(16, 1).search(&b, Limits::depth(6), &mut Silent);
    let (a, c) = (run(), run());
    assert_eq!(
        (a.best, a.score, a.nodes, &a.pv),
        (c.best, c.score, c.nodes, &c.pv)
    );
    assert!(b.is_empty(a.best));
}
