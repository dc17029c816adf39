//! The arena: engine-vs-engine matches between pbrain engines.
//!
//! Modules: [`stats`] (Elo, LOS, SPRT), [`openings`] (opening files), [`engine`] (a pbrain
//! child process with deadlines), [`game`] (one refereed game), [`records`] (psq, SGF,
//! summary), [`json`] (reading a summary back), [`tournament`] (pairings, the worker pool, the report),
//! [`referee`] (a post-mortem of a match by another engine), [`field`] (the ledger's table of
//! matches against other engines).
#![deny(missing_docs)]

pub mod engine;
pub mod field;
pub mod game;
pub mod json;
pub mod openings;
pub mod records;
pub mod referee;
pub mod stats;
pub mod tournament;

/// Parse a binary's command line: `--help` and `--version` print and exit 0; a bad argument is
/// the first line of clap's message, for the caller to print as a one-line error.
///
/// # Errors
/// The bad argument's message.
pub fn parse_args<A: clap::Parser>() -> Result<A, String> {
    A::try_parse().map_err(|e| {
        if matches!(
            e.kind(),
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
        ) {
            print!("{e}");
            std::process::exit(0);
        }
        e.to_string()
            .lines()
            .next()
            .unwrap_or("bad arguments")
            .to_string()
    })
}
