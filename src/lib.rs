//! renju-engine: a Gomoku/Renju engine.
//!
//! Modules in dependency order (each may import only those above it):
//! [`types`] → [`pattern`] → [`board`] → [`rules`] → [`cli`].
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod pattern;
pub mod rules;
pub mod types;
