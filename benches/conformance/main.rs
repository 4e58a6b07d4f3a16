//! Conformance harness: `seedgen check` and `seedgen verify` over Boogie's own test
//! suite, beside Boogie 2.4.1 (and the suite's expected results), with agreement per
//! language feature.
//!
//! `SEEDGEN_BOOGIE_REPO=/path/to/boogie cargo bench --bench conformance` (or `just
//! conformance`). The suite is not part of this repository: the harness reads
//! `Test/**/*.bpl` of a local copy of boogie-org/boogie, a directory containing `Test/`
//! named by `SEEDGEN_BOOGIE_REPO`. For each file:
//!
//! 1. a lexical scan says which features it uses and whether it is CIVL or floating
//!    point ([`features`]);
//! 2. Boogie 2.4.1 says whether it accepts it (`boogie /noVerify`), cached by digest in
//!    `target/conformance/` or `SEEDGEN_CONFORMANCE_CACHE` ([`reference`]); the file's
//!    own expectations say whether current Boogie does ([`expectation`]): a file only
//!    2.4.1 rejects uses newer syntax (or an option such as `-inferModifies`);
//! 3. `seedgen check` runs on it, with a time limit, a panic or crash noted
//!    ([`seedgen`]);
//! 4. where both accept a core file, Boogie 2.4.1 verifies it (cached too) and `seedgen
//!    verify` runs: its counts are compared with Boogie's, and with the ones the file's
//!    `.expect` gives where the suite runs it with options that do not change them.
//!
//! The report ([`report`]) on stdout: crashes first, the buckets (core, CIVL, floating
//! point, only 2.4.1 rejects), the feature table of the core files, the disagreements both
//! ways grouped by seedgen's first message, and the verify comparison.
//!
//! Options (after `--`): `--seedgen PATH` (or `SEEDGEN_BIN`): the binary to test,
//! default the one this build made; `--files TEXT`: only files whose path contains
//! TEXT (repeatable); `--json PATH`: every file's result as JSON; `--baseline PATH`:
//! what changed since the run that wrote that JSON ([`baseline`]); `--no-verify`;
//! `--jobs N` (default: the cores); `--check-limit S`, `--verify-limit S`: time limits
//! per file in seconds (default 60 and 20). Exit status 1 when seedgen crashed on
//! any file, 2 for a usage error, else 0.

mod baseline;
mod expectation;
mod features;
mod process;
mod reference;
mod report;
mod seedgen;

use features::{Dialect, Scan};
use rayon::prelude::*;
use reference::Verdict;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The validated command line.
struct Options {
    repo: PathBuf,
    seedgen: PathBuf,
    filters: Vec<String>,
    json: Option<PathBuf>,
    baseline: Option<PathBuf>,
    verify: bool,
    jobs: usize,
    check_limit: Duration,
    verify_limit: Duration,
}

/// Which part of the suite a file is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bucket {
    /// The Boogie 2 that seedgen means to accept (or reject, as Boogie 2.4.1 does).
    Core,
    Civl,
    FloatingPoint,
    /// Boogie 2.4.1 rejects it, current Boogie does not (the suite's expectations show
    /// no error of its front end) or it uses `uses { }`: syntax newer than 2.4.1, or a
    /// file the suite runs with an option (`-inferModifies`, `-lib`).
    CurrentBoogieOnly,
    /// Boogie gave no verdict (no cached one and no `boogie`, or it crashed).
    NoReference,
}

impl Bucket {
    pub const ALL: [Bucket; 5] =
        [Bucket::Core, Bucket::Civl, Bucket::FloatingPoint, Bucket::CurrentBoogieOnly, Bucket::NoReference];

    pub fn name(self) -> &'static str {
        match self {
            Bucket::Core => "core",
            Bucket::Civl => "CIVL",
            Bucket::FloatingPoint => "floating point",
            Bucket::CurrentBoogieOnly => "only 2.4.1 rejects",
            Bucket::NoReference => "no Boogie verdict",
        }
    }
}

/// Everything known about one file of the suite.
pub struct FileResult {
    /// `Test/...`.
    pub relative: String,
    /// The SHA-256 of its text.
    pub digest: String,
    pub scan: Scan,
    pub bucket: Bucket,
    pub boogie: Option<Verdict>,
    pub check: seedgen::Check,
    /// The verification result the suite's `.expect` file gives.
    pub expected: Option<expectation::Counts>,
    /// Boogie 2.4.1's verification result, where `verify` is compared.
    pub boogie_verification: Option<reference::Verification>,
    pub verify: Option<seedgen::Verify>,
}

impl FileResult {
    /// Boogie's acceptance, where it gave a verdict.
    pub fn boogie_accepts(&self) -> Option<bool> {
        self.boogie.as_ref().and_then(Verdict::accepts)
    }
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("conformance: {message}");
            std::process::exit(2);
        }
    };
    rayon::ThreadPoolBuilder::new().num_threads(options.jobs).build_global().expect("the thread pool is built once");
    let start = Instant::now();
    let (results, boogie) = run(&options);
    let report = report::Report::new(&results, &options.seedgen, boogie.as_deref());
    print!("{}", report.text());
    let json = report.json();
    if let Some(path) = &options.baseline {
        match baseline::changes(path, &json) {
            Ok(changes) => print!("{changes}"),
            Err(message) => eprintln!("conformance: the baseline is unreadable: {message}"),
        }
    }
    if let Some(path) = &options.json {
        let text = serde_json::to_string_pretty(&json).expect("a JSON value serializes");
        if let Err(error) = std::fs::write(path, text + "\n") {
            eprintln!("conformance: could not write {}: {error}", path.display());
            std::process::exit(2);
        }
    }
    eprintln!("conformance: {} files in {:.0} s", results.len(), start.elapsed().as_secs_f64());
    // A crash of seedgen anywhere fails the run, whatever the agreement.
    if report.crashes() > 0 {
        eprintln!("conformance: seedgen crashed on {} files (listed first in the report)", report.crashes());
        std::process::exit(1);
    }
}

/// Reads the options from the command line and the environment.
fn options() -> Result<Options, String> {
    let repo = std::env::var_os("SEEDGEN_BOOGIE_REPO").map(PathBuf::from).ok_or(
        "SEEDGEN_BOOGIE_REPO is not set: name a local copy of boogie-org/boogie (a directory containing Test/), \
         e.g. `git -C BOOGIE_GIT_DIR archive HEAD Test | tar -x -C DIR`",
    )?;
    if !repo.join("Test").is_dir() {
        return Err(format!("{} has no Test/ directory", repo.display()));
    }
    let mut options = Options {
        repo,
        seedgen: std::env::var_os("SEEDGEN_BIN")
            .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_seedgen")), PathBuf::from),
        filters: Vec::new(),
        json: None,
        baseline: None,
        verify: true,
        jobs: std::thread::available_parallelism().map_or(1, usize::from),
        check_limit: Duration::from_secs(60),
        verify_limit: Duration::from_secs(20),
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| arguments.next().ok_or(format!("{name} needs a value"));
        let seconds =
            |text: String| text.parse::<f64>().map(Duration::from_secs_f64).map_err(|error| format!("{text}: {error}"));
        match argument.as_str() {
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            "--seedgen" => options.seedgen = PathBuf::from(value("--seedgen")?),
            "--files" => options.filters.extend(value("--files")?.split(',').map(str::to_string)),
            "--json" => options.json = Some(PathBuf::from(value("--json")?)),
            "--baseline" => options.baseline = Some(PathBuf::from(value("--baseline")?)),
            "--no-verify" => options.verify = false,
            "--jobs" => options.jobs = value("--jobs")?.parse().map_err(|error| format!("--jobs: {error}"))?,
            "--check-limit" => options.check_limit = seconds(value("--check-limit")?)?,
            "--verify-limit" => options.verify_limit = seconds(value("--verify-limit")?)?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if !options.seedgen.is_file() {
        return Err(format!("no seedgen binary at {}", options.seedgen.display()));
    }
    Ok(options)
}

/// The files of the suite (`Test/**/*.bpl`, sorted) that pass the filters.
fn suite_files(options: &Options) -> Vec<String> {
    let mut files = Vec::new();
    let mut directories = vec![options.repo.join("Test")];
    while let Some(directory) = directories.pop() {
        let Ok(entries) = std::fs::read_dir(&directory) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                directories.push(path);
            } else if path.extension().is_some_and(|extension| extension == "bpl") {
                let relative =
                    path.strip_prefix(&options.repo).expect("under the repository").to_string_lossy().into_owned();
                files.push(relative.replace('\\', "/"));
            }
        }
    }
    files.retain(|file| {
        options.filters.is_empty() || options.filters.iter().any(|filter| file.contains(filter.as_str()))
    });
    files.sort();
    files
}

/// One file read and scanned, before any tool runs.
struct Source {
    relative: String,
    digest: String,
    scan: Scan,
    /// The suite runs it with `-inferModifies`, so seedgen runs with `--infer-modifies`
    /// (Boogie 2.4.1 has no such option: it rejects such files, which are in the bucket
    /// of files only current Boogie accepts).
    infer_modifies: bool,
    current_boogie_rejects: Option<bool>,
    expected: Option<expectation::Counts>,
}

/// Every file's result, and Boogie's version line where it is known.
fn run(options: &Options) -> (Vec<FileResult>, Option<String>) {
    let sources: Vec<Source> = suite_files(options)
        .into_par_iter()
        .map(|relative| {
            let bytes = std::fs::read(options.repo.join(&relative)).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Source {
                digest: reference::digest(&text),
                infer_modifies: expectation::infers_modifies(&text),
                scan: features::scan(&relative, &text),
                current_boogie_rejects: expectation::current_boogie_rejects(&options.repo, &relative, &text),
                expected: expectation::expected_verification(&options.repo, &relative, &text),
                relative,
            }
        })
        .collect();
    eprintln!("conformance: {} files of {}", sources.len(), options.repo.join("Test").display());
    let mut cache = reference::Cache::open(&cache_directory());
    let keys: Vec<(String, String)> =
        sources.iter().map(|source| (source.relative.clone(), source.digest.clone())).collect();
    let installed = cache.boogie().is_some() && which("boogie");
    let verdicts = cache.verdicts(&options.repo, &keys, installed);
    let checks = progress("seedgen check", &sources, |source| {
        seedgen::check(
            &options.seedgen,
            &options.repo.join(&source.relative),
            source.infer_modifies,
            options.check_limit,
        )
    });
    let mut results: Vec<FileResult> = sources
        .into_iter()
        .zip(verdicts)
        .zip(checks)
        .map(|((source, boogie), check)| FileResult {
            bucket: bucket(&source, boogie.as_ref()),
            relative: source.relative,
            digest: source.digest,
            scan: source.scan,
            boogie,
            check,
            expected: source.expected,
            boogie_verification: None,
            verify: None,
        })
        .collect();
    if options.verify {
        verify_all(options, &mut cache, installed, &mut results);
    }
    (results, cache.boogie().map(str::to_string))
}

/// Boogie 2.4.1's verification (cached) and `seedgen verify` on the files where they
/// are compared.
fn verify_all(options: &Options, cache: &mut reference::Cache, installed: bool, results: &mut [FileResult]) {
    let indices: Vec<usize> = (0..results.len()).filter(|&index| verifiable(&results[index])).collect();
    let keys: Vec<(String, String)> =
        indices.iter().map(|&index| (results[index].relative.clone(), results[index].digest.clone())).collect();
    let boogie = cache.verifications(&options.repo, &keys, installed);
    let verifies = progress("seedgen verify", &keys, |(relative, _)| {
        let infer_modifies =
            std::fs::read_to_string(options.repo.join(relative)).is_ok_and(|text| expectation::infers_modifies(&text));
        seedgen::verify(&options.seedgen, &options.repo.join(relative), infer_modifies, options.verify_limit)
    });
    for ((index, boogie), verify) in indices.into_iter().zip(boogie).zip(verifies) {
        results[index].boogie_verification = boogie;
        results[index].verify = Some(verify);
    }
}

/// Whether `seedgen verify` is compared on the file: a core file both accept.
fn verifiable(result: &FileResult) -> bool {
    result.bucket == Bucket::Core && result.boogie_accepts() == Some(true) && result.check.accepts == Ok(true)
}

fn bucket(source: &Source, boogie: Option<&Verdict>) -> Bucket {
    if source.scan.dialects.contains(&Dialect::Civl) {
        return Bucket::Civl;
    }
    if source.scan.dialects.contains(&Dialect::FloatingPoint) {
        return Bucket::FloatingPoint;
    }
    match boogie.and_then(Verdict::accepts) {
        None => Bucket::NoReference,
        Some(false)
            if source.scan.features.contains(&features::Feature::UsesClauses)
                || source.current_boogie_rejects == Some(false) =>
        {
            Bucket::CurrentBoogieOnly
        }
        Some(_) => Bucket::Core,
    }
}

/// `work` on every item, in parallel, the count shown on stderr as it goes.
fn progress<T: Sync, R: Send>(what: &str, items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let done = AtomicUsize::new(0);
    let total = items.len();
    let start = Instant::now();
    let results = items
        .par_iter()
        .map(|item| {
            let result = work(item);
            let count = done.fetch_add(1, Ordering::Relaxed) + 1;
            if count.is_multiple_of(100) || count == total {
                eprintln!("conformance: {what}: {count}/{total} ({:.0} s)", start.elapsed().as_secs_f64());
            }
            result
        })
        .collect();
    results
}

/// Where Boogie's verdicts are cached: `SEEDGEN_CONFORMANCE_CACHE` (so that worktrees
/// can share one), or `conformance/` in Cargo's target directory.
fn cache_directory() -> PathBuf {
    if let Some(directory) = std::env::var_os("SEEDGEN_CONFORMANCE_CACHE") {
        return PathBuf::from(directory);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"), PathBuf::from);
    target.join("conformance")
}

fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|directory| directory.join(program).is_file()))
}
