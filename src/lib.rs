//! renju-engine: a Gomoku/Renju engine.
//!
//! Modules in dependency order (each may import only those above it):
//! [`types`] → [`pattern`] → [`board`] → [`rules`] → [`eval`] → [`search`] → [`bench`] →
//! [`cli`].
#![deny(missing_docs)]

pub mod types;
pub mod pattern;
pub mod board;
pub mod rules;
pub mod eval;
pub mod search;
pub mod bench;
pub mod cli;
