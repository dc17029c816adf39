//! Renju foul detection: every empty point of dense 15x15 positions.

mod common;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use renju_engine::board::Board;
use renju_engine::rules::renju;
use renju_engine::types::{parse_renju_list, Color, Rule};

/// Dense positions from the test data (nested and recursive double-three cases), the densest
/// of 200 random centre blocks, and a generated 60-stone renju middle game.
fn positions() -> Vec<(String, Board, usize)> {
    let cases = [
        // (name, black, white, expected number of fouls)
        ("nested-multiple", "d8,d9,e7,f7,g6,g9,h8,h12,i9,j7,j9,k6,k9,l6,m9,m11,n10", "b7,c9,e5,e8,f8,f10,h9,i8,l9,m6,m10", 4),
        ("recursive", "f7,f8,g6,g7,g8,g9,h6,h7,h8,h9,i7,i8", "e7,e8,g5,g10,h5,h10,j7,j8", 4),
        ("mixed", "b1,b5,b8,b13,c1,c5,c7,c12,c14,d5,d6,d13,e1,f1,g1,k1,k11,l1,l12,l13,m1,m12,m14,n1,n13,n14,o15", "l14,n12", 3),
    ];
    let mut out = Vec::new();
    for (name, black, white, n) in cases {
        let mut b = Board::new(15, Rule::Renju).unwrap();
        for p in parse_renju_list(black, 15).unwrap() {
            b.put_unchecked(p, Color::Black);
        }
        for p in parse_renju_list(white, 15).unwrap() {
            b.put_unchecked(p, Color::White);
        }
        out.push((name.to_string(), b, n));
    }
    let mut dense = common::dense_renju(200);
    let n = renju::all_fouls(&mut dense).len();
    out.push(("dense-random".to_string(), dense, n));
    let mut mid = common::midgame(Rule::Renju, 15, 60, 3);
    let n = renju::all_fouls(&mut mid).len();
    out.push(("midgame-60".to_string(), mid, n));
    out
}

fn fouls(c: &mut Criterion) {
    let mut g = c.benchmark_group("fouls");
    for (name, mut b, n) in positions() {
        assert_eq!(renju::all_fouls(&mut b).len(), n, "{name}");
        g.bench_function(format!("all_fouls/{name}"), |bench| {
            bench.iter(|| {
                let f = renju::all_fouls(black_box(&mut b));
                assert_eq!(f.len(), n);
                f
            });
        });
        let empties: Vec<_> = b.empty_cells().collect();
        g.bench_function(format!("every_point/{name}"), |bench| {
            bench.iter(|| {
                let k = empties
                    .iter()
                    .filter(|&&p| renju::is_foul(&mut b, p))
                    .count();
                assert_eq!(k, n);
                k
            });
        });
    }
    g.finish();
}

criterion_group!(benches, fouls);
criterion_main!(benches);
