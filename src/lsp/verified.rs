//! `seedgen verify` on save, remembered: each implementation's diagnostics (contracts
//! and assertions that can fail, with their failing tests) kept under the key its
//! `prove-tests` cache entry has, which covers everything a verdict depends on (the
//! implementation's text, every procedure it may call, all other declarations, the
//! options, the seedgen build). A save verifies only the implementations whose key
//! changed; a look as the user types shows the remembered ones whose key still holds.
//!
//! Kept in memory for the server's life, one entry per implementation slot (the newest
//! key replaces the older), with spans relative to the implementation's start, so an
//! implementation moved by an edit elsewhere keeps its diagnostics. A verdict the solver
//! left undecided is not kept, nor one with a label outside its implementation.

use crate::cache::{Key, Slot};
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::verify::{self, ImplementationVerdict};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The remembered diagnostics, shared by the server's workers.
#[derive(Default)]
pub struct Verified {
    entries: Mutex<BTreeMap<String, (String, Vec<Diagnostic>)>>,
}

impl Verified {
    /// The diagnostics remembered for `key` in `slot`, placed in the implementation at
    /// `implementation`; `None` when nothing is remembered for that key.
    pub fn recall(&self, (slot, key): &(Slot, Key), implementation: Span) -> Option<Vec<Diagnostic>> {
        let entries = self.entries.lock().expect("no thread panics holding the entries");
        let (kept, diagnostics) = entries.get(&slot.0)?;
        (kept == &key.0).then(|| moved(diagnostics, implementation.start, true))
    }

    /// `verdict`'s diagnostics, remembered for `key` in `slot` when it is worth keeping.
    pub fn remember(
        &self,
        (slot, key): &(Slot, Key),
        implementation: Span,
        verdict: &ImplementationVerdict,
    ) -> Vec<Diagnostic> {
        let diagnostics = verify::diagnostics(std::slice::from_ref(verdict));
        let inside = |span: &Span| implementation.start <= span.start && span.end <= implementation.end;
        let placed = diagnostics.iter().flat_map(|diagnostic| &diagnostic.labels).all(|label| inside(&label.span));
        if placed && verdict.undecided() == 0 {
            let relative = moved(&diagnostics, implementation.start, false);
            let mut entries = self.entries.lock().expect("no thread panics holding the entries");
            entries.insert(slot.0.clone(), (key.0.clone(), relative));
        }
        diagnostics
    }
}

/// `diagnostics` with every label moved `by` bytes later (`later`) or earlier.
fn moved(diagnostics: &[Diagnostic], by: u32, later: bool) -> Vec<Diagnostic> {
    let shift = |offset: u32| if later { offset + by } else { offset - by };
    let mut moved = diagnostics.to_vec();
    for label in moved.iter_mut().flat_map(|diagnostic| &mut diagnostic.labels) {
        label.span = Span { start: shift(label.span.start), end: shift(label.span.end), ..label.span };
    }
    moved
}
