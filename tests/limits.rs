//! Search limits: time, nodes, the stop flag, and Lazy SMP threads.

use renju_engine::bench;
use renju_engine::rules;
use renju_engine::search::{Limits, Searcher, Silent};
use renju_engine::types::Rule;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn position() -> renju_engine::board::Board {
    bench::position(
        Rule::Renju,
        15,
        "h8 h9 j9 j8 f8 i7 g7 i9 h6 e9 f6 k7 l6 i10 i6 f9 g9 g11 h10 i11 i8",
    )
    .unwrap()
}

#[test]
fn time_limit_is_respected() {
    let b = position();
    for ms in [50u64, 300] {
        let mut s = Searcher::new(16, 1);
        let t = Instant::now();
        let r = s.search(&b, Limits::time_ms(ms), &mut Silent);
        let took = t.elapsed();
        // Generous bound (shared machines): the search must stop near its deadline.
        assert!(
            took < Duration::from_millis(ms + 250),
            "{ms} ms limit took {took:?}"
        );
        assert!(b.is_empty(r.best));
    }
}

#[test]
fn node_limit_and_stop_flag() {
    let b = position();
    let mut s = Searcher::new(16, 1);
    let limits = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    let r = s.search(&b, limits, &mut Silent);
    assert!(r.nodes < 20_000 + 5_000, "{}", r.nodes);
    // An external stop ends an unlimited search.
    let limits = Limits::default();
    let stop = limits.stop.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
    });
    let start = Instant::now();
    let r = s.search(&b, limits, &mut Silent);
    t.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(3));
    assert!(b.is_empty(r.best));
}

#[test]
fn lazy_smp_threads_return_legal_moves() {
    for &(rule, size, moves) in bench::POSITIONS.iter().take(12) {
        let mut b = bench::position(rule, size, moves).unwrap();
        let mut s = Searcher::new(16, 2);
        let r = s.search(&b, Limits::depth(6), &mut Silent);
        assert!(
            r.depth >= 1 || renju_engine::eval::is_mate(r.score),
            "{moves}"
        );
        assert!(
            rules::try_play(&mut b, r.best).is_ok(),
            "{moves}: {:?}",
            r.best
        );
    }
}
