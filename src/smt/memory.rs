//! How z3's memory is served: glibc tuned so that a session's start-up costs as few page
//! faults as possible (a corpus program's whole run is meant to take tens of
//! milliseconds, and a session's start-up was most of it).
//!
//! A fresh z3 context initializes two tables of 8.5 MB each (`Z3_mk_context_rc`, z3
//! 4.8.12): touched in 4 KiB pages that is about 4,400 page faults, 15 ms of system time
//! on the benchmark machine, more than the rest of a small program's run. Two measures,
//! neither of which changes anything z3 answers (where memory lies already differs from
//! run to run with address randomization and thread scheduling):
//!
//! - [`keep_freed_memory`], once per process: the tables are served from the heap, not
//!   mapped afresh, and what a finished session frees is kept for the next session whose
//!   thread inherits its arena (glibc hands a finished thread's arena to the next new
//!   thread).
//! - [`advise_huge_pages`], at the start of each solver thread: the thread's arena may be
//!   backed by transparent huge pages, so the tables fault in 2 MiB at a time. With the
//!   arena's heap opened 32 MiB at a time (`M_TOP_PAD`), the tables lie in whole huge
//!   pages. `simple.bpl`: 4,870 → 1,060 page faults, 24 → 17 ms whole process.
//!
//! Both are glibc-specific and do nothing elsewhere; a layout glibc no longer uses is
//! recognised as such and left alone.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) use glibc::{advise_huge_pages, keep_freed_memory};

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn keep_freed_memory() {}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn advise_huge_pages() -> bool {
    false
}

/// The two measures, where glibc is the allocator.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    /// glibc's `M_MMAP_THRESHOLD` at its maximum (32 MiB) serves z3's large tables from the
    /// heap, `M_TRIM_THRESHOLD` (256 MiB) keeps what they free for the next context, and
    /// `M_TOP_PAD` (32 MiB) opens a thread's heap in steps that hold both tables, so
    /// [`advise_huge_pages`] finds them in whole huge pages. The cost is memory not returned
    /// to the system before exit, at most the peak per arena, and address space reserved
    /// ahead (not touched, so not resident).
    pub fn keep_freed_memory() {
        const M_TRIM_THRESHOLD: i32 = -1;
        const M_TOP_PAD: i32 = -2;
        const M_MMAP_THRESHOLD: i32 = -3;
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        // SAFETY: `mallopt` only changes allocator tuning, is thread-safe, and every
        // parameter and value is valid for glibc (the threshold is at most
        // `HEAP_MAX_SIZE / 2`); a value it rejects leaves its default in place.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, 32 << 20);
            mallopt(M_TRIM_THRESHOLD, 256 << 20);
            mallopt(M_TOP_PAD, 32 << 20);
        }
    }

    /// The size and alignment of a glibc thread arena's heap on a 64-bit target
    /// (`HEAP_MAX_SIZE`, twice the largest mmap threshold).
    const ARENA_HEAP_SIZE: usize = 64 << 20;

    /// Marks the calling thread's glibc arena heap `MADV_HUGEPAGE`, so that what the thread
    /// allocates next faults in as transparent huge pages where the system allows them
    /// (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise` or `always`; with
    /// `never` the advice is accepted and ignored). Returns whether it advised.
    ///
    /// glibc gives a thread arena one heap of [`ARENA_HEAP_SIZE`] bytes aligned to its size,
    /// reserved at once and made writable as it grows. The heap is recognised by a fresh
    /// allocation of this thread lying in an anonymous mapping that starts at that
    /// alignment; anything else (the main arena's `[heap]`, another allocator, another
    /// layout) is left alone. The advice covers the whole reservation, so the part glibc
    /// opens later is advised as well.
    pub fn advise_huge_pages() -> bool {
        if cfg!(not(target_pointer_width = "64")) {
            return false; // `ARENA_HEAP_SIZE` is glibc's 64-bit layout
        }
        // Larger than glibc's per-thread cache takes (1,032 bytes): that cache also holds
        // blocks other arenas allocated and this thread freed.
        let probe = vec![0u8; 4096];
        let at = probe.as_ptr() as usize;
        let heap = at & !(ARENA_HEAP_SIZE - 1);
        let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else { return false };
        let Some(mapping) = mapping_containing(&maps, at) else { return false };
        if mapping.start != heap || !mapping.anonymous {
            return false;
        }
        // SAFETY: `madvise(MADV_HUGEPAGE)` only sets a hint on the mappings of the range; it
        // changes no contents, protection or ownership, and the range is the arena heap
        // glibc reserved for this thread's arena.
        unsafe { rustix::mm::madvise(heap as *mut _, ARENA_HEAP_SIZE, rustix::mm::Advice::LinuxHugepage).is_ok() }
    }

    /// One line of `/proc/self/maps`, as far as [`advise_huge_pages`] needs it.
    #[derive(Debug, PartialEq, Eq)]
    struct Mapping {
        start: usize,
        /// No file, no pseudo-file such as `[heap]` or `[stack]`.
        anonymous: bool,
    }

    /// The mapping of `maps` (the text of `/proc/PID/maps`) that contains address `at`.
    fn mapping_containing(maps: &str, at: usize) -> Option<Mapping> {
        maps.lines().filter_map(mapping).find(|(range, _)| range.contains(&at)).map(|(_, mapping)| mapping)
    }

    /// A line of `/proc/PID/maps` (also a header line of `smaps`): its address range and
    /// what [`Mapping`] keeps of it; `None` for any other line.
    fn mapping(line: &str) -> Option<(std::ops::Range<usize>, Mapping)> {
        // start-end perms offset dev inode [path]
        let mut fields = line.split_whitespace();
        let (start, end) = fields.next()?.split_once('-')?;
        let start = usize::from_str_radix(start, 16).ok()?;
        let end = usize::from_str_radix(end, 16).ok()?;
        let inode = fields.nth(3)?;
        Some((start..end, Mapping { start, anonymous: inode == "0" && fields.next().is_none() }))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        const MAPS: &str = "\
    55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0                          [heap]
    7f3a04000000-7f3a04c22000 rw-p 00000000 00:00 0 
    7f3a04c22000-7f3a08000000 ---p 00000000 00:00 0 
    7f3a0a000000-7f3a0a200000 r--p 00000000 08:01 1234                       /usr/lib/libz3.so.4
    ";

        #[test]
        fn the_mapping_holding_an_address_is_found_with_its_kind() {
            assert_eq!(
                mapping_containing(MAPS, 0x7f3a_0400_1000),
                Some(Mapping { start: 0x7f3a_0400_0000, anonymous: true })
            );
            assert_eq!(
                mapping_containing(MAPS, 0x55d0_c0a0_0010),
                Some(Mapping { start: 0x55d0_c0a0_0000, anonymous: false })
            );
            assert_eq!(
                mapping_containing(MAPS, 0x7f3a_0a00_0000),
                Some(Mapping { start: 0x7f3a_0a00_0000, anonymous: false })
            );
            assert_eq!(mapping_containing(MAPS, 0x7f3a_0900_0000), None);
            assert_eq!(mapping_containing("garbage\n", 0), None);
        }

        /// On glibc, a new thread's arena heap is advised, and the kernel records the advice
        /// on the mapping of what the thread allocates next (`hg` in its `VmFlags`). A kernel
        /// without transparent huge pages refuses the advice.
        #[test]
        fn a_new_threads_arena_is_advised_for_huge_pages() {
            let flags = std::thread::spawn(|| {
                advise_huge_pages().then(|| {
                    let value = vec![1u8; 4096];
                    vm_flags(&std::fs::read_to_string("/proc/self/smaps").unwrap(), value.as_ptr() as usize)
                })
            })
            .join()
            .unwrap();
            match flags {
                Some(flags) => assert!(flags.split_whitespace().any(|flag| flag == "hg"), "VmFlags: {flags}"),
                None => assert!(!std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists()),
            }
        }

        /// The `VmFlags` line of the mapping of `smaps` that contains `at`.
        fn vm_flags(smaps: &str, at: usize) -> String {
            let mut inside = false;
            for line in smaps.lines() {
                if let Some((range, _)) = mapping(line) {
                    inside = range.contains(&at);
                } else if let Some(flags) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                    return flags.to_string();
                }
            }
            panic!("no mapping holds {at:#x}")
        }
    }
}
