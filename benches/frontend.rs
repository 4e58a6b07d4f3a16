//! Front-end benchmark: parse + check of a generated 10,000-line program.
//!
//! `cargo bench --bench frontend` (release). Prints the median and the minimum of
//! repeated runs for parsing alone and for parsing plus checking. The target is
//! parse + check under 100 ms.

use seedgen::source::SourceDb;
use std::time::{Duration, Instant};

/// One procedure of 25 lines mixing the constructs a real file has.
fn procedure(index: usize) -> String {
    format!(
        r#"procedure p{index}(a: int, b: int) returns (r: int)
  requires a >= 0 && b >= 0;
  ensures r >= 0;
  modifies M;
{{
  var i: int, s: int;
  i := 0;
  s := 0;
  while (i < a)
    invariant 0 <= i && i <= a;
    invariant s >= 0;
  {{
    if (M[i] > b) {{
      s := s + (M[i] - b) div 2;
    }} else if (M[i] == b) {{
      s := s + 1;
    }} else {{
      M[i] := b;
    }}
    i := i + 1;
  }}
  assert (forall k: int :: {{ M[k] }} 0 <= k && k < i ==> M[k] >= b || M[k] == old(M[k]) || k >= 0);
  call r := helper(s);
}}

"#
    )
}

fn program(lines: usize) -> String {
    let mut text = String::from(
        "var M: [int]int;\n\nprocedure helper(x: int) returns (y: int);\n  requires x >= 0;\n  ensures y == x;\n\n",
    );
    let mut index = 0;
    while text.lines().count() < lines {
        text.push_str(&procedure(index));
        index += 1;
    }
    text
}

fn measure(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[0])
}

fn main() {
    let text = program(10_000);
    let lines = text.lines().count();
    let mut db = SourceDb::new();
    let file = db.add("generated.bpl", text.clone());
    let (ast, errors) = seedgen::syntax::parse(file, &text);
    assert!(errors.is_empty(), "the generated program parses");
    let (hir, sema_errors) = seedgen::sema::check(&ast);
    assert!(hir.is_some() && sema_errors.is_empty(), "the generated program checks");

    let runs = 21;
    let (parse_median, parse_min) = measure(runs, || {
        std::hint::black_box(seedgen::syntax::parse(file, &text));
    });
    let (check_median, check_min) = measure(runs, || {
        let (ast, _) = seedgen::syntax::parse(file, &text);
        std::hint::black_box(seedgen::sema::check(&ast));
    });
    println!("front end on {lines} lines ({} bytes), {runs} runs", text.len());
    println!("  parse          median {:>8.2?}  min {:>8.2?}", parse_median, parse_min);
    println!("  parse + check  median {:>8.2?}  min {:>8.2?}  (target < 100 ms)", check_median, check_min);
}
