//! Name resolution and type checking: [`crate::syntax::ast::Program`] → [`hir::Program`].
pub mod hir;
