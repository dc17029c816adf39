//! `combine`: add the summaries of several arena matches of the same pairing into one, for a
//! measurement that was interrupted and continued in a new match (the SPRT is recomputed on
//! the game pairs of all of them).
//!
//! `combine --out DIR [--sprt ELO0,ELO1] MATCH_DIR...` reads `MATCH_DIR/summary.json` of each,
//! writes the sum to `DIR/summary.json` (the format `tools/sprt --record` reads) and prints
//! one line per pair: games, W-L-D, Elo with its 95% interval, game pairs and the LLR.

use arena::records::{parse_summary, Summary};
use arena::stats::{elo_interval, parse_sprt};
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "combine",
    about = "Add the summaries of several arena matches of the same pairing"
)]
struct Args {
    /// Output folder for the combined summary.json.
    #[arg(long)]
    out: PathBuf,
    /// SPRT `elo0,elo1[,alpha,beta]`, recomputed on the combined game pairs of the first pair.
    #[arg(long)]
    sprt: Option<String>,
    /// Match folders (each with a summary.json).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

fn run() -> Result<(), String> {
    let args = arena::parse_args::<Args>()?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let mut total = Summary::default();
    for d in &args.dirs {
        let path = d.join("summary.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let s = parse_summary(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if let (Some(a), Some(b)) = (total.pairs.first(), s.pairs.first()) {
            if (&a.0, &a.1) != (&b.0, &b.1) {
                println!(
                    "note: {} names the engines {} / {}, combined with {} / {}",
                    d.display(),
                    b.0,
                    b.1,
                    a.0,
                    a.1
                );
            }
        }
        total
            .add(&s)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let path = args.out.join("summary.json");
    std::fs::write(&path, total.to_json(sprt)).map_err(|e| format!("{}: {e}", path.display()))?;
    for (i, (a, b, w)) in total.pairs.iter().enumerate() {
        let elo = elo_interval(w).map_or_else(
            || "-".to_string(),
            |(e, lo, hi)| format!("{e:+.1} [{lo:+.1}, {hi:+.1}]"),
        );
        let penta = total.pentanomial.get(i).copied().unwrap_or_default();
        let llr = match (i, sprt) {
            (0, Some(s)) => format!(
                ", LLR {:.2} ({:?})",
                s.llr_pairs(&penta),
                s.decide(s.llr_pairs(&penta))
            ),
            _ => String::new(),
        };
        println!(
            "{a} vs {b}: {} games, {}-{}-{}, Elo {elo}, game pairs {}{llr}",
            w.games(),
            w.wins,
            w.losses,
            w.draws,
            penta.map(|k| k.to_string()).join("/")
        );
    }
    println!("combined {} games -> {}", total.games, path.display());
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
