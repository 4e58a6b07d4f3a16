//! Goals and seeding (DESIGN.md §1, seeds/001 §2–4): which blocks a suite must reach,
//! and the conditionally seeded program `if (bn == i) { assert false; }` that Boogie can
//! cross-check.
pub mod goals;
pub mod print;
pub mod seeded;
