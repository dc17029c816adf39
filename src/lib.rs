//! renju-engine: a Gomoku/Renju engine.
//!
//! Modules in dependency order (each may import only those above it):
//! [`types`] → [`pattern`] → [`board`] → [`rules`] → [`eval`], [`nnue`] → [`search`] → [`bench`],
//! [`opening`], [`selfplay`], [`protocol`] → [`cli`].
#![deny(missing_docs)]

pub mod bench;
pub mod board;
pub mod cli;
pub mod datagen;
pub mod eval;
pub mod nnue;
pub mod opening;
pub mod pattern;
pub mod postmortem;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod tactics;
pub mod train;
pub mod tune;
pub mod types;
