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

# Lint: formatting check, clippy and the API docs' links with warnings as errors.
lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --document-private-items

# The API docs, private items included (they are for contributors): target/doc/seedgen.
doc:
    cargo doc --no-deps --document-private-items

# Benchmarks (release): front-end speed on a generated 10,000-line program; prove-tests
# on every corpus program, next to Boogie when it is installed; the paper's evaluation
# (tables on stdout; JSON, Markdown and SVG plots in target/bench/; under 5 minutes);
# cold, warm and one-changed runs of a generated 200-procedure file, and --jobs 1 vs 2;
# suite sizes and input values with and without minimization and reduction;
# time, goals and encoding size of --unroll N for N = 0..10 and 15; the
# language server on the 200-procedure file (keystrokes, saves, hovers, cancellation);
# `prove-tests --kill-mutants` suites' mutation scores and fault detection.
bench:
    cargo bench --bench frontend
    cargo bench --bench engine
    cargo bench --bench evaluation
    cargo bench --bench incremental
    cargo bench --bench lsp
    cargo bench --bench suites
    cargo bench --bench unroll
    cargo bench --bench mutation

# Boogie's own test suite beside Boogie 2.4.1: how many files `seedgen check` accepts
# and rejects as Boogie does, per language feature, the disagreements by seedgen's first
# error, and `verify` beside Boogie's verification (README, "Conformance"). Needs
# SEEDGEN_BOOGIE_REPO, a local copy of boogie-org/boogie (a directory containing Test/);
# ARGS go to the harness: `--files textbook`, `--seedgen PATH`, `--json PATH`, `--no-verify`.
conformance *ARGS:
    cargo bench --bench conformance -- {{ARGS}}

# The paper's evaluation, and the README's "Results" section rewritten from it.
results:
    cargo bench --bench evaluation -- --readme

# Fuzz the front end for SECONDS (default 600). Needs cargo-fuzz; stable Rust works
# with RUSTC_BOOTSTRAP=1.
fuzz seconds="600":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run frontend -- -max_total_time={{seconds}} -max_len=65536

# Fuzz the whole pipeline (prove-tests, then replay: solver and interpreter must agree)
# on small generated programs for SECONDS. One worker: each input runs Z3. Inputs are
# the generator's decisions, so lengths up to 512 are allowed from the start
# (`-len_control=0`): short inputs are only the smallest programs.
fuzz-pipeline seconds="600":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run pipeline -- -max_total_time={{seconds}} -max_len=512 -len_control=0 -timeout=60 -jobs=1 -workers=1

# Reachability with Boogie as the judge for SECONDS on the stable toolchain: generated
# programs until the time is up, disagreements written to target/judge-failures (the
# form fuzz/regressions/boogie_judge/ keeps). Needs Boogie; BOOGIE names it.
judge seconds="1800":
    JUDGE_SECONDS={{seconds}} JUDGE_FAILURES=target/judge-failures cargo test --test it properties::boogie_judges -- --ignored --nocapture

# Front-end output (AutoProof, Dafny, Viper, SMACK; directories or files named by
# SEEDGEN_FRONTEND_CORPUS, `:`-separated, one corpus each) beside Boogie 2.4.1, check by
# check: accepted, `verify` per implementation and per error, with `--goals` the goals
# Boogie reaches on `seed` output against `prove-tests`' coverage, time, crashes.
frontends *ARGS:
    cargo bench --bench frontends -- {{ARGS}}

# Boogie's Test/havoc0 driver models beside Boogie 2.4.1 (needs SEEDGEN_BOOGIE_REPO).
axioms:
    cargo bench --bench axioms

# Fuzz reachability with Boogie as the judge for SECONDS (needs Boogie; BOOGIE names it).
fuzz-judge seconds="1800":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run boogie_judge -- -max_total_time={{seconds}} -max_len=512 -len_control=0 -timeout=120 -jobs=1 -workers=1

# Fuzz the suite reader (run-tests on any bytes, for a few corpus programs) for SECONDS;
# seed its corpus first with `just fuzz-seed-suites`.
fuzz-suites seconds="600":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run suite_reader -- -max_total_time={{seconds}} -max_len=65536 -timeout=30

# Seed the suite_reader corpus with the suites seedgen writes for its programs
# (`testgen::suites::PROGRAMS`, in order: an input's first byte is the program's
# position), as JSON, as Boogie and unrolled.
fuzz-seed-suites:
    #!/usr/bin/env bash
    set -euo pipefail
    cargo build --quiet
    mkdir -p fuzz/corpus/suite_reader target/fuzz-seeds
    index=0
    for program in $(grep -o '"corpus/[a-z_]*\.bpl"' src/testgen/suites.rs | tr -d '"'); do
        for options in "--emit json" "--emit bpl" "--emit json --unroll 2"; do
            suite="target/fuzz-seeds/$index-${options//[ -]/}"
            target/debug/seedgen prove-tests --quiet --force $options "$program" -o "$suite" > /dev/null
            { printf "\\x$(printf %02x $index)"; cat "$suite"; } > "fuzz/corpus/suite_reader/${suite##*/}"
        done
        index=$((index + 1))
    done

# Generate the suite of the paper's example, show its seeded program, show a rejected one.
demo:
    cargo run --release --quiet -- prove-tests corpus/simple.bpl -o target/simple.tests.json
    cargo run --release --quiet -- seed corpus/simple.bpl
    -cargo run --release --quiet -- check tests/ui/multiple_errors.bpl
