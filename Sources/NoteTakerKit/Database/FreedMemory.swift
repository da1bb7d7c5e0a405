#if canImport(Glibc)
import Glibc
#endif

/// Gives memory the process freed back to the system.
///
/// glibc keeps freed memory in the arena of the thread that allocated it, for that arena's
/// next allocations, and gives each thread that allocates while another does an arena of its
/// own. GRDB runs a store's writes on whichever thread its queue gets, so the pages a large
/// pull or import read into the writer's cache may be freed in one arena while the search
/// index's entries are then allocated in another: a first sync of 100,000 notes peaked at
/// 158 MB in some runs and 210 MB in others. Given back before the index pass, the freed
/// pages no longer count, and every run peaks at the lower figure.
enum FreedMemory {
    /// Returns the free memory of every arena to the system (glibc's `malloc_trim`; nothing
    /// elsewhere).
    static func giveBack() {
        #if canImport(Glibc)
        // `malloc_trim` is not in the Glibc module: looked up in the C library itself.
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
        #endif
    }
}
