//! Generated programs of one shape each, many procedures long, for the coverage
//! benchmark (`benches/coverage.rs`) and its integration tests: programs seedgen was not
//! tuned on, whose every goal a simple test reaches.

/// A deterministic stream of small numbers (xorshift64), so a program is the same on
/// every machine (the benchmarks' generated files use it too).
pub struct Numbers(pub u64);

impl Numbers {
    /// The next number, below `below`.
    pub fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// `procedures` procedures, each a branch, then a bounded loop whose invariant
/// (`r >= 0 && k >= 0`) forgets how far `r` grew, then a branch on `r`: a model through
/// the loop's invariant abstraction picks an `r` after the loop that the inputs do not
/// produce, so covering the last branch needs the loop run exactly. Constants (the
/// first comparison, the step of the loop, the last threshold) vary per procedure.
pub fn branch_after_loop(procedures: usize) -> String {
    let mut numbers = Numbers(0x5eed_0023);
    let mut text = format!("// {procedures} generated procedures: a branch after a loop cut by its invariant\n\n");
    for index in 0..procedures {
        let (c, step, threshold) = (numbers.next(20), numbers.next(3) + 1, numbers.next(15) + 5);
        text.push_str(&format!(
            "procedure p{index}(x: int, y: int) returns (r: int)\n{{\n  var k: int;\n  \
             if (x > {c}) {{ r := x - {c}; }} else {{ r := {c} - x; }}\n  k := 0;\n  \
             while (k < y)\n    invariant r >= 0 && k >= 0;\n  {{\n    r := r + {step};\n    k := k + 1;\n  }}\n  \
             if (r > {threshold}) {{ r := r - {threshold}; }}\n}}\n\n"
        ));
    }
    text
}
