//! The generated 200-procedure program of the incremental and language-server
//! benchmarks (`benches/incremental.rs`, `benches/lsp.rs`), and its one-procedure edit.

use seedgen::testgen::shapes::Numbers;

pub const PROCEDURES: usize = 200;
/// The procedure the "one changed" runs edit.
pub const CHANGED: usize = 137;

fn procedure(index: usize, numbers: &mut Numbers) -> String {
    let (a, b, c) = (numbers.next(50), numbers.next(50) + 1, numbers.next(9) + 1);
    match index % 4 {
        0 => format!(
            "procedure p{index}(x: int, y: int) returns (r: int)\n{{\n  if (x > {a}) {{\n    if (y < x - {b}) {{ r := x - y; }} else {{ r := {c}; }}\n  }} else if (x == y) {{\n    r := 0;\n  }} else {{\n    r := y + {c};\n  }}\n}}\n"
        ),
        1 => format!(
            "procedure p{index}(n: int) returns (s: int)\n  requires n >= 0;\n{{\n  var i: int;\n  i := 0; s := 0;\n  while (i < n)\n    invariant 0 <= i;\n  {{\n    if (i mod {c} == 0) {{ s := s + {a}; }} else {{ s := s - 1; }}\n    i := i + 1;\n  }}\n  if (s > {b}) {{ s := {b}; }}\n}}\n"
        ),
        2 => format!(
            "procedure p{index}(a: [int]int, n: int, key: int) returns (found: bool)\n{{\n  var i: int;\n  i := 0; found := false;\n  while (i < n && !found)\n  {{\n    if (a[i] == key + {a}) {{ found := true; }}\n    i := i + 1;\n  }}\n  if (found && n > {b}) {{ found := false; }}\n}}\n"
        ),
        _ => format!(
            "procedure p{index}(x: int) returns (r: int)\n{{\n  call r := clamp(x + {a});\n  if (r == {c}) {{ r := r + 1; }} else if (r > {b}) {{ r := {b}; }}\n}}\n"
        ),
    }
}

pub fn program() -> String {
    let mut numbers = Numbers(0x5eed_0008);
    let mut text = String::from(
        "// 200 generated procedures: cargo bench --bench incremental\n\nprocedure clamp(x: int) returns (y: int);\n  ensures y >= 0 && y <= 100;\n\n",
    );
    for index in 0..PROCEDURES {
        text.push_str(&procedure(index, &mut numbers));
        text.push('\n');
    }
    text
}

/// The program with procedure `CHANGED` edited: a constant of its first branch.
pub fn changed(program: &str) -> String {
    let header = format!("procedure p{CHANGED}(");
    let start = program.find(&header).expect("the changed procedure exists");
    let end = start + program[start..].find("\n}\n").expect("the procedure ends");
    let body = program[start..end].replacen(" > ", " > 1 + ", 1);
    format!("{}{body}{}", &program[..start], &program[end..])
}
