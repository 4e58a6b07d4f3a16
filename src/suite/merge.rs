//! `seedgen merge`: the suites of `prove-tests --shard 1/N` … `N/N` combined into the
//! suite one run without `--shard` writes, byte for byte.
//!
//! Input: the shard suites, in any order. Output: the whole suite, or why the shards do
//! not make one. Shard `K` holds the implementations at positions `K-1`, `K-1+N`, …
//! of the program (`config::Shard`), so position `p` of the whole suite is the
//! `p / N`-th procedure of shard `p % N + 1`: the shards alone give program order.

use super::json;
use crate::config::Shard;

/// A suite and the name it is shown by in errors (its path).
pub struct Named {
    pub name: String,
    pub suite: json::Suite,
}

/// Merges `shards` (at least one). A single suite without a shard is returned as it is.
pub fn merge(mut shards: Vec<Named>) -> Result<json::Suite, String> {
    let first = shards.first().ok_or("no suite to merge")?;
    for shard in &shards {
        check_version(shard)?;
        same_run(first, shard)?;
    }
    if let [whole] = shards.as_slice() {
        if whole.suite.options.shard.is_none() {
            return Ok(shards.remove(0).suite);
        }
    }
    let count = shard_count(&shards)?;
    shards.sort_by_key(|shard| shard.suite.options.shard.map(|shard| shard.index));
    let total: usize = shards.iter().map(|shard| shard.suite.procedures.len()).sum();
    for named in &shards {
        let shard = named.suite.options.shard.expect("every suite is a shard (shard_count)");
        let expected = Shard { index: shard.index, count }.size(total);
        if named.suite.procedures.len() != expected {
            return Err(format!(
                "`{}` holds {} procedures, but shard {}/{count} of {total} holds {expected}: the shards come from different runs",
                named.name,
                named.suite.procedures.len(),
                shard.index
            ));
        }
    }
    let mut parts: Vec<std::vec::IntoIter<json::Procedure>> = Vec::with_capacity(shards.len());
    let mut merged = None;
    for named in shards {
        let mut suite = named.suite;
        parts.push(std::mem::take(&mut suite.procedures).into_iter());
        merged.get_or_insert(suite);
    }
    let mut merged = merged.expect("at least one shard");
    merged.options.shard = None;
    let count = parts.len();
    merged.procedures = (0..total)
        .map(|position| parts[position % count].next().expect("each shard holds its share (checked above)"))
        .collect();
    Ok(merged)
}

/// Shards of a readable version merge into a suite of that version: merging moves
/// whole sections, and the goal spans of either version are the same in the merged
/// suite as in its shard.
fn check_version(named: &Named) -> Result<(), String> {
    if named.suite.format != json::FORMAT || !json::READABLE.contains(&named.suite.version) {
        return Err(format!(
            "`{}` is not a seedgen suite of version {} (format `{}`, version {})",
            named.name,
            super::load::readable_versions(),
            named.suite.format,
            named.suite.version
        ));
    }
    Ok(())
}

/// Whether `other` was made by the same tool, from the same program, with the same
/// options as `first` (but for the shard).
fn same_run(first: &Named, other: &Named) -> Result<(), String> {
    let (a, b) = (&first.suite, &other.suite);
    let differs = if a.version != b.version {
        Some(format!("suite format version {} and {}", a.version, b.version))
    } else if a.tool != b.tool {
        Some(format!("tool `{}` and `{}`", a.tool, b.tool))
    } else if a.source != b.source {
        Some(format!("program `{}` ({}) and `{}` ({})", a.source.file, a.source.digest, b.source.file, b.source.digest))
    } else if unsharded(&a.options) != unsharded(&b.options) {
        let show = |options: &json::Options| serde_json::to_string(&unsharded(options)).expect("options serialize");
        Some(format!("options {} and {}", show(&a.options), show(&b.options)))
    } else {
        None
    };
    match differs {
        Some(what) => {
            Err(format!("`{}` and `{}` are not shards of one run: they differ in {what}", first.name, other.name))
        }
        None => Ok(()),
    }
}

fn unsharded(options: &json::Options) -> json::Options {
    json::Options { shard: None, ..options.clone() }
}

/// N, when the suites are exactly shards 1/N … N/N, each once.
fn shard_count(shards: &[Named]) -> Result<u32, String> {
    let mut count = None;
    let mut seen: Vec<Option<&str>> = Vec::new();
    for named in shards {
        let shard = named.suite.options.shard.ok_or_else(|| format!("`{}` is not a shard suite", named.name))?;
        if *count.get_or_insert(shard.count) != shard.count {
            return Err(format!(
                "`{}` is shard {}/{}, the others are of {}",
                named.name,
                shard.index,
                shard.count,
                count.unwrap_or(0)
            ));
        }
        seen.resize(shard.count as usize, None);
        let slot = &mut seen[(shard.index - 1) as usize];
        if let Some(earlier) = slot.replace(&named.name) {
            return Err(format!("`{earlier}` and `{}` are both shard {}/{}", named.name, shard.index, shard.count));
        }
    }
    let count = count.expect("at least one shard");
    match seen.iter().position(Option::is_none) {
        Some(missing) => Err(format!("shard {}/{count} is missing", missing + 1)),
        None => Ok(count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn procedure(name: &str) -> json::Procedure {
        json::Procedure { name: name.to_string(), digest: String::new(), goals: Vec::new(), tests: Vec::new() }
    }

    fn suite(shard: Option<(u32, u32)>, names: &[&str]) -> Named {
        let mut suite = json::Suite::for_tests(names.iter().map(|name| procedure(name)).collect());
        suite.options.shard = shard.map(|(index, count)| json::Shard { index, count });
        Named { name: format!("s{}", shard.map_or(0, |shard| shard.0)), suite }
    }

    fn names(suite: &json::Suite) -> Vec<&str> {
        suite.procedures.iter().map(|procedure| procedure.name.as_str()).collect()
    }

    #[test]
    fn shards_interleave_back_into_program_order() {
        let shards =
            vec![suite(Some((2, 3)), &["b", "e"]), suite(Some((3, 3)), &["c"]), suite(Some((1, 3)), &["a", "d"])];
        let merged = merge(shards).expect("a whole set of shards");
        assert_eq!(names(&merged), ["a", "b", "c", "d", "e"]);
        assert_eq!(merged.options.shard, None);
    }

    #[test]
    fn a_whole_suite_merges_to_itself() {
        let merged = merge(vec![suite(None, &["a", "b"])]).expect("one whole suite");
        assert_eq!(names(&merged), ["a", "b"]);
    }

    #[test]
    fn incomplete_or_foreign_shards_are_refused() {
        let error = |shards| merge(shards).expect_err("refused");
        assert!(error(vec![suite(Some((1, 2)), &["a"])]).contains("shard 2/2 is missing"));
        assert!(error(vec![suite(Some((1, 2)), &["a"]), suite(Some((1, 2)), &["a"])]).contains("both shard 1/2"));
        assert!(error(vec![suite(Some((1, 2)), &["a"]), suite(Some((2, 3)), &["b"])]).contains("of 2"));
        assert!(error(vec![suite(Some((1, 2)), &["a"]), suite(None, &["b"])]).contains("not a shard"));
        assert!(error(vec![suite(Some((1, 2)), &["a"]), suite(Some((2, 2)), &["b", "c"])]).contains("different runs"));
        let mut other = suite(Some((2, 2)), &["b"]);
        other.suite.source.digest = "sha256:1".to_string();
        assert!(error(vec![suite(Some((1, 2)), &["a"]), other]).contains("differ in program"));
        let mut other = suite(Some((2, 2)), &["b"]);
        other.suite.options.unroll = 3;
        assert!(error(vec![suite(Some((1, 2)), &["a"]), other]).contains("differ in options"));
        let mut other = suite(Some((2, 2)), &["b"]);
        other.suite.version = 1;
        assert!(error(vec![suite(Some((1, 2)), &["a"]), other]).contains("version"));
        let mut other = suite(Some((2, 2)), &["b"]);
        other.suite.version = 2;
        assert!(error(vec![suite(Some((1, 2)), &["a"]), other]).contains("differ in suite format version 4 and 2"));
    }

    #[test]
    fn shards_of_version_2_merge_into_a_suite_of_version_2() {
        let old = |shard| {
            let mut named = suite(Some(shard), &[if shard.0 == 1 { "a" } else { "b" }]);
            named.suite.version = 2;
            named
        };
        let merged = merge(vec![old((2, 2)), old((1, 2))]).expect("shards of one version 2 run");
        assert_eq!((names(&merged), merged.version), (vec!["a", "b"], 2));
    }
}
