//! The SMT back end: the only module that talks to z3.
//!
//! ```text
//! vc::Encoding ──translate──▶ z3 ASTs (maps curried) ──asserted once──▶ Session
//! Session::check_reach(goals) / first_look(goal) / check_failure(id) ──z3 model──▶ model::decode ──▶ vc::Model
//! ```
//! **API boundary:** nothing z3 leaves this module; callers see [`Session`], [`Reach`]
//! and the solver-independent [`crate::vc::Model`].
mod closed_points;
mod detach;
pub mod footing;
mod ground;
mod interrupt;
mod memory;
mod minimize;
mod model;
mod ranges;
pub mod refine;
mod session;
mod simple_maps;
mod translate;

pub use detach::{end_process, workers_detached, MARGIN as DEADLINE_MARGIN};
pub use footing::{Contradiction, Footing};
pub use ground::Question;
pub use minimize::SMALL_SCOPE_BOUND;
pub use session::{to_smt2, Reach, Session, SessionOptions, FIRST_LOOK_MBQI_ITERATIONS, TIME_LIMIT};

#[cfg(test)]
mod tests;
