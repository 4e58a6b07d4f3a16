//! Small well-typed programs from bytes, and the solver/interpreter agreement they are
//! checked for: shared by the `pipeline` fuzz target and the property test
//! (`tests/it/properties.rs`), so both explore the same space. Not part of seedgen's
//! interface (hidden from the docs); nothing else in the crate uses it.
//!
//! [`generate`] reads its decisions from a byte string, one byte per decision, and an
//! exhausted string decides "the simplest alternative": a shorter input is a smaller
//! program, so the fuzzer's and proptest's shrinking of bytes shrinks programs. Every
//! program type-checks by construction (a test of this module asserts it).
//! [`oracle::check`] runs `prove-tests` on one in-process, replays every test of the
//! suite, and reports any disagreement between what the solver claimed and what the
//! interpreter did. [`lsp_client`] drives `seedgen lsp` as an editor does, for its test
//! and its benchmark.

pub mod judge;
pub mod lsp_client;
pub mod oracle;
mod program;
pub mod shapes;
pub mod suites;

/// One generated program and the options to generate its tests with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub source: String,
    /// `--unroll` (0, 1 or 2): small, so one input stays fast.
    pub unroll: u32,
    /// `--inline-depth` (0 or 1): calls by contract, or executed.
    pub inline_depth: u32,
}

/// The first line of a described case: the options, as a Boogie comment.
const HEADER: &str = "// seedgen-case:";

impl Case {
    /// The case as Boogie text with its options in a first comment line (`// seedgen-case:
    /// --unroll 1 --inline-depth 0`): what a failure report shows, and the form a
    /// failing case is kept in under `fuzz/regressions/pipeline/`.
    pub fn describe(&self) -> String {
        format!("{HEADER} --unroll {} --inline-depth {}\n{}", self.unroll, self.inline_depth, self.source)
    }

    /// Reads [`Case::describe`]'s text back; `None` without its header line.
    pub fn from_description(text: &str) -> Option<Case> {
        let (header, source) = text.split_once('\n')?;
        let options: Vec<&str> = header.strip_prefix(HEADER)?.split_whitespace().collect();
        let [unroll_flag, unroll, depth_flag, depth] = options.as_slice() else { return None };
        if (*unroll_flag, *depth_flag) != ("--unroll", "--inline-depth") {
            return None;
        }
        Some(Case { source: source.to_string(), unroll: unroll.parse().ok()?, inline_depth: depth.parse().ok()? })
    }
}

/// The case `bytes` describe: the options first, then the program.
pub fn generate(bytes: &[u8]) -> Case {
    let mut choices = Choices::new(bytes);
    let unroll = choices.below(3) as u32;
    let inline_depth = choices.below(2) as u32;
    let source = program::write(&mut choices);
    Case { source, unroll, inline_depth }
}

/// The decisions of a generator, read off a byte string; past its end every decision is
/// 0, so a generator must make alternative 0 the one that ends soonest.
pub struct Choices<'a> {
    bytes: &'a [u8],
    next: usize,
}

impl<'a> Choices<'a> {
    pub fn new(bytes: &'a [u8]) -> Choices<'a> {
        Choices { bytes, next: 0 }
    }

    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        byte
    }

    /// A number in `0..count` (`count` at most 256).
    pub fn below(&mut self, count: usize) -> usize {
        debug_assert!((1..=256).contains(&count));
        usize::from(self.byte()) % count
    }

    /// Whether something rare happens: one time in `odds`.
    pub fn one_in(&mut self, odds: usize) -> bool {
        self.below(odds) == odds - 1
    }

    /// A number in `low..=high`, 0 when that is in range and the bytes are exhausted.
    pub fn int_in(&mut self, low: i64, high: i64) -> i64 {
        let span = (high - low + 1) as usize;
        let offset = self.below(span) as i64;
        // Shift so that offset 0 is the value 0 (or the nearest end): shrinking bytes
        // toward 0 shrinks constants toward 0.
        let zero = (-low).clamp(0, high - low);
        low + (offset + zero) % (high - low + 1)
    }

    /// One of `items`, the first when the bytes are exhausted.
    pub fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceDb;

    fn assert_checks(bytes: &[u8]) {
        let case = generate(bytes);
        let mut db = SourceDb::new();
        let file = db.add("generated.bpl", case.source.clone());
        let checked = crate::driver::check_file(&db, file, Default::default());
        let rendered: Vec<String> =
            checked.diagnostics.iter().map(|diagnostic| crate::diag::render_short(&db, diagnostic)).collect();
        assert!(checked.hir.is_some() && rendered.is_empty(), "{}\n{}", case.source, rendered.join("\n"));
        let (_, errors) = crate::cfg::lower::lower_all(checked.hir.as_ref().expect("checked"));
        assert!(errors.is_empty(), "{}", case.source);
    }

    #[test]
    fn exhausted_bytes_give_the_smallest_program() {
        let case = generate(&[]);
        assert_eq!((case.unroll, case.inline_depth), (0, 0));
        assert_checks(&[]);
    }

    /// Thousands of pseudo-random byte strings of every length up to 600: each program
    /// parses, type-checks and lowers without a diagnostic.
    #[test]
    fn generated_programs_type_check() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for length in (0..600).step_by(3) {
            for _ in 0..8 {
                let bytes: Vec<u8> = (0..length)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state as u8
                    })
                    .collect();
                assert_checks(&bytes);
            }
        }
    }

    #[test]
    fn a_description_reads_back() {
        let case = generate(&[2, 1, 7, 7, 7]);
        assert_eq!(Case::from_description(&case.describe()), Some(case));
        assert_eq!(Case::from_description("procedure P() {}"), None);
    }

    #[test]
    fn constants_shrink_toward_zero() {
        assert_eq!(Choices::new(&[]).int_in(-3, 5), 0);
        assert_eq!(Choices::new(&[]).int_in(1, 3), 1);
        let all: std::collections::BTreeSet<i64> =
            (0..=255u8).map(|byte| Choices::new(&[byte]).int_in(-3, 5)).collect();
        assert_eq!(all, (-3..=5).collect());
    }
}
