//! The evaluation network's cost in the search: play+undo with the accumulator kept up to date
//! as the search keeps it (`Accumulator::play`, `take_back`; against the board alone) and the value read from it, on mid-game renju positions, for a
//! random network of each width (zero or random weights cost the same). Reported as elements
//! (play+undo pairs, or values) per second.

mod common;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use renju_engine::nnue::accumulator::{Accumulator, Quantised};
use renju_engine::nnue::Network;
use renju_engine::types::Rule;

fn network(c: &mut Criterion) {
    let mut g = c.benchmark_group("nnue");
    let rule = Rule::Renju;
    let mut boards: Vec<_> = (0..4).map(|s| common::midgame(rule, 15, 40, s)).collect();
    let lists: Vec<_> = boards.iter().map(common::moves).collect();
    let pairs: usize = lists.iter().map(Vec::len).sum();
    g.throughput(Throughput::Elements(pairs as u64));
    g.bench_function("play_undo/board-only", |bench| {
        bench.iter(|| {
            for (b, list) in boards.iter_mut().zip(&lists) {
                for &p in list {
                    b.play_unchecked(black_box(p));
                    b.undo();
                }
            }
        });
    });
    for (d, h) in [(16, 16), (32, 32)] {
        let q = Quantised::new(&Network::random(rule, d, h, 1));
        let mut accs: Vec<Accumulator> = boards.iter().map(|b| Accumulator::new(&q, b)).collect();
        g.throughput(Throughput::Elements(pairs as u64));
        g.bench_function(format!("play_undo/d{d}"), |bench| {
            bench.iter(|| {
                for ((b, a), list) in boards.iter_mut().zip(accs.iter_mut()).zip(&lists) {
                    for &p in list {
                        b.play_unchecked(black_box(p));
                        a.play(&q, b, p);
                        b.undo();
                        a.take_back();
                    }
                }
            });
        });
        // The bench checks its own answer: each accumulator is its board's.
        for (b, a) in boards.iter().zip(&accs) {
            assert_eq!(*a, Accumulator::new(&q, b));
        }
        g.throughput(Throughput::Elements(boards.len() as u64));
        g.bench_function(format!("value/d{d}-h{h}"), |bench| {
            bench.iter(|| {
                let mut s = 0.0f32;
                for (b, a) in boards.iter().zip(&accs) {
                    s += a.value(&q, black_box(b.side_to_move()));
                }
                s
            });
        });
    }
    g.finish();
}

criterion_group!(benches, network);
criterion_main!(benches);
