//! The arena: engine-vs-engine matches between pbrain engines.
//!
//! Modules: [`stats`] (Elo, LOS, SPRT), [`openings`] (opening files), [`engine`] (a pbrain
//! child process with deadlines), [`game`] (one refereed game), [`records`] (psq, SGF,
//! summary), [`json`] (reading a summary back), [`tournament`] (pairings, the worker pool, the report).
#![deny(missing_docs)]

pub mod engine;
pub mod game;
pub mod json;
pub mod openings;
pub mod records;
pub mod stats;
pub mod tournament;
