//! `field`: the ledger rows of a gauntlet against another engine (`tools/gauntlet` runs it).
//!
//! `field --summary DIR --opponent TEXT --label REV [--label REV] --rule TEXT --tc TC --book FILE
//! --date D [--ledger FILE]` reads `DIR/summary.json` of an arena gauntlet whose first engine
//! is the opponent, prints one field row per revision (in the order of the `--engine` options
//! after the opponent) and, with `--ledger`, inserts the rows into the ledger's field table.

use arena::field::{insert, rows, RowMeta};
use arena::records::parse_summary;
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "field",
    about = "Ledger rows of a gauntlet against another engine"
)]
struct Args {
    /// The gauntlet's match folder (with summary.json).
    #[arg(long)]
    summary: PathBuf,
    /// The opponent and its version, as the table shows it.
    #[arg(long)]
    opponent: String,
    /// The revision of each pair, in engine order after the opponent.
    #[arg(long = "label", required = true)]
    labels: Vec<String>,
    /// Rule and board side, as the table shows them (`renju 15`).
    #[arg(long)]
    rule: String,
    /// Time control (arena syntax).
    #[arg(long)]
    tc: String,
    /// The opening book's file name.
    #[arg(long)]
    book: String,
    /// Date of the row (`YYYY-MM-DD`).
    #[arg(long)]
    date: String,
    /// Insert the rows into this ledger's field table.
    #[arg(long)]
    ledger: Option<PathBuf>,
}

fn run() -> Result<(), String> {
    let args = arena::parse_args::<Args>()?;
    let path = args.summary.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let summary = parse_summary(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = RowMeta {
        date: args.date.clone(),
        opponent: args.opponent.clone(),
        rule: args.rule.clone(),
        tc: args.tc.clone(),
        book: args.book.clone(),
    };
    let new_rows = rows(&summary, &args.labels, &meta)?;
    for r in &new_rows {
        println!("{r}");
    }
    if let Some(ledger) = &args.ledger {
        let text =
            std::fs::read_to_string(ledger).map_err(|e| format!("{}: {e}", ledger.display()))?;
        let out = insert(&text, &new_rows).map_err(|e| format!("{}: {e}", ledger.display()))?;
        std::fs::write(ledger, out).map_err(|e| format!("{}: {e}", ledger.display()))?;
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
