//! Pattern lookup: line key extraction plus table lookup for every cell and direction of a
//! mid-game position, and raw table lookups of keys.

mod common;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use renju_engine::pattern::table::Tables;
use renju_engine::types::{Color, Rule};

fn lookup(c: &mut Criterion) {
    let mut g = c.benchmark_group("pattern");
    let b = common::midgame(Rule::Renju, 15, 40, 1);
    let cells: Vec<usize> = b.empty_cells().map(|p| p.index()).collect();
    let t = Tables::get(Rule::Renju);
    // Reference answer, computed once from the board's incremental state.
    let want: u32 = cells
        .iter()
        .flat_map(|&p| (0..4).map(move |d| (p, d)))
        .map(|(p, d)| b.pattern(renju_engine::types::Pos(p as u16), d, Color::Black) as u32)
        .sum();
    g.throughput(Throughput::Elements((cells.len() * 4) as u64));
    g.bench_function("key_and_lookup", |bench| {
        bench.iter(|| {
            let mut sum = 0u32;
            for &p in &cells {
                for d in 0..4 {
                    sum += t.pattern(b.key_at(black_box(p), d), Color::Black) as u32;
                }
            }
            assert_eq!(sum, want);
            sum
        });
    });
    g.finish();
}

criterion_group!(benches, lookup);
criterion_main!(benches);
