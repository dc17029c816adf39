//! The search with an evaluation network set for a rule (`renju_engine::nnue::set_for_process`,
//! the protocol engine's `--net`): a fixed-depth search is deterministic (that the network is
//! what is evaluated: `weights_option.rs`). Its own process: the network stays set for the rest
//! of it.

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
fn a_search_with_a_network_is_deterministic() {
    // Standard with a random network: deterministic at a fixed depth, and a legal move; one
    // network per rule.
    let net = Network::random(Rule::Standard, 16, 8, 3);
    set_for_process(&net).expect("standard network");
    assert!(
        set_for_process(&net).is_err(),
        "a second network for the rule"
    );
    let b = quiet_board(Rule::Standard);
    let run = || Searcher::new(16, 1).search(&b, Limits::depth(6), &mut Silent);
    let (a, c) = (run(), run());
    assert_eq!(
        (a.best, a.score, a.nodes, &a.pv),
        (c.best, c.score, c.nodes, &c.pv)
    );
    assert!(b.is_empty(a.best));
}
