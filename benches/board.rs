//! play+undo throughput with the full incremental update, on realistic mid-game positions per
//! rule. Reported as elements (play+undo pairs) per second.

mod common;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use renju_engine::types::Rule;

fn play_undo(c: &mut Criterion) {
    let mut g = c.benchmark_group("play_undo");
    for (rule, size) in [
        (Rule::Freestyle, 15),
        (Rule::Standard, 15),
        (Rule::Renju, 15),
        (Rule::Caro, 15),
        (Rule::Freestyle, 20),
    ] {
        let mut boards: Vec<_> = (0..4).map(|s| common::midgame(rule, size, 40, s)).collect();
        let lists: Vec<_> = boards.iter().map(common::moves).collect();
        let pairs: usize = lists.iter().map(Vec::len).sum();
        let hashes: Vec<u64> = boards.iter().map(|b| b.hash()).collect();
        g.throughput(Throughput::Elements(pairs as u64));
        g.bench_function(format!("{rule}-{size}"), |bench| {
            bench.iter(|| {
                for (b, list) in boards.iter_mut().zip(&lists) {
                    for &p in list {
                        b.play_unchecked(black_box(p));
                        b.undo();
                    }
                }
            });
        });
        // The bench checks its own answer: every board is back where it started.
        for (b, h) in boards.iter().zip(&hashes) {
            assert_eq!(b.hash(), *h);
            assert!(b.check_invariants().is_ok());
        }
    }
    g.finish();
}

criterion_group!(benches, play_undo);
criterion_main!(benches);
