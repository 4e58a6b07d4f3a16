# seedgen developer recipes (https://github.com/casey/just). Each recipe is also a plain
# cargo command you can run without just.

default: build

# Build the seedgen binary (release).
build:
    cargo build --release

# Run every test: unit, integration, snapshots (the README's test command).
test:
    cargo test

# Format the code.
fmt:
    cargo fmt --all

# Lint: formatting check and clippy with warnings as errors.
lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets -- -D warnings

# Benchmarks (release): front-end speed on a generated 10,000-line program; prove-tests
# on every corpus program, next to Boogie when it is installed; the paper's evaluation
# (tables on stdout; JSON, Markdown and SVG plots in target/bench/; under 5 minutes);
# cold, warm and one-changed runs of a generated 200-procedure file, and --jobs 1 vs 2;
# suite sizes and input values with and without minimization and reduction (issue 6).
bench:
    cargo bench --bench frontend
    cargo bench --bench engine
    cargo bench --bench evaluation
    cargo bench --bench incremental
    cargo bench --bench suites

# The paper's evaluation, and the README's "Results" section rewritten from it.
results:
    cargo bench --bench evaluation -- --readme

# Fuzz the front end for SECONDS (default 600). Needs cargo-fuzz; stable Rust works
# with RUSTC_BOOTSTRAP=1.
fuzz seconds="600":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run frontend -- -max_total_time={{seconds}} -max_len=65536

# Generate the suite of the paper's example, show its seeded program, show a rejected one.
demo:
    cargo run --release --quiet -- prove-tests corpus/simple.bpl -o target/simple.tests.json
    cargo run --release --quiet -- seed corpus/simple.bpl
    -cargo run --release --quiet -- check tests/ui/multiple_errors.bpl
