//! `field`: the ledger rows of a gauntlet against another engine (`tools/gauntlet` runs it).
//!
//! `field --summary DIR --opponent TEXT --label REV [--label REV] --rule TEXT --tc TC --book FILE
//! [--date D] [--ledger FILE]` reads `DIR/summary.json` of an arena gauntlet whose first engine
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
    /// Date of the row (default: today, UTC).
    #[arg(long)]
    date: Option<String>,
    /// Insert the rows into this ledger's field table.
    #[arg(long)]
    ledger: Option<PathBuf>,
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn run() -> Result<(), String> {
    let args = arena::parse_args::<Args>()?;
    let path = args.summary.join("summary.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let summary = parse_summary(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = RowMeta {
        date: args.date.clone().unwrap_or_else(today),
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
