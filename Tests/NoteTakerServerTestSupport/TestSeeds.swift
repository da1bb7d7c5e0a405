import Foundation

/// The seeds a randomized test runs: `<PREFIX>_SEEDS` of them (or its default) starting at
/// `<PREFIX>_FROM` (or 1). `scripts/test` runs the default seeds, then a window that moves
/// with each commit, so that every run also tries seeds no run has tried; a failure names
/// its seed, which `<PREFIX>_FROM=S <PREFIX>_SEEDS=1` replays.
public enum TestSeeds {
    /// The seeds for the environment variables starting with `prefix` (`NOTETAKER_SIM`).
    public static func list(_ prefix: String, defaultCount: UInt64) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["\(prefix)_SEEDS"].flatMap(UInt64.init) ?? defaultCount
        let first = environment["\(prefix)_FROM"].flatMap(UInt64.init) ?? 1
        return Array(first..<(first + count))
    }
}
