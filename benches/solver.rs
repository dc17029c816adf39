//! Threat-space solver timings on the puzzle collection: every verified VCF puzzle, and a
//! sample of VCT puzzles. Each iteration solves the whole set; the bench checks the count.

use criterion::{criterion_group, criterion_main, Criterion};
use renju_engine::board::Board;
use renju_engine::search::vcf::{Solution, Solver};
use renju_engine::types::{parse_renju_list, Color, Rule};

fn load(filter: impl Fn(&str) -> bool, every: usize) -> Vec<Board> {
    let text = include_str!("../tests/data/puzzles.txt");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && filter(l))
        .step_by(every)
    {
        let get = |k: &str| {
            line.split_whitespace()
                .find_map(|t| t.strip_prefix(&format!("{k}=")))
                .unwrap_or("")
                .to_string()
        };
        let size: usize = get("size").parse().unwrap();
        let rule: Rule = get("rule").parse().unwrap();
        let mut b = Board::new(size, rule).unwrap();
        for (list, c) in [(get("black"), Color::Black), (get("white"), Color::White)] {
            for p in parse_renju_list(&list, size).unwrap() {
                b.put_unchecked(p, c);
            }
        }
        let to_move: Color = get("tomove").parse().unwrap();
        if b.side_to_move() != to_move {
            b.pass();
        }
        out.push(b);
    }
    out
}

fn solvers(c: &mut Criterion) {
    let mut g = c.benchmark_group("solver");
    g.sample_size(10);
    let vcf = load(
        |l| l.contains("expect=vcf-win") && l.contains("ref-vcf:found"),
        1,
    );
    let mut boards = vcf.clone();
    g.bench_function(format!("vcf_verified_{}", vcf.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &mut boards {
                if let Solution::Win(_) = Solver::new(2_000_000).vcf(board) {
                    n += 1;
                }
            }
            assert_eq!(n, vcf.len());
        });
    });
    let vct = load(|l| l.contains("expect=vct-win"), 57);
    let mut boards = vct.clone();
    g.bench_function(format!("vct_sample_{}", vct.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &mut boards {
                if let Solution::Win(_) = Solver::new(300_000).vct(board, 10) {
                    n += 1;
                }
            }
            n
        });
    });
    g.finish();
}

criterion_group!(benches, solvers);
criterion_main!(benches);
