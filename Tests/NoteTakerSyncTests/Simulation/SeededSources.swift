import Foundation
import NoteTakerKit
import NoteTakerServerTestSupport
import Synchronization

extension StoreSources {
    /// Sources that follow from `seed` alone, so that a simulated device makes the same ids
    /// and reads the same times on every run: a clock that starts on 20 September 2026 and
    /// moves a millisecond at each reading, and the seeded generator's numbers.
    static func seeded(_ seed: UInt64) -> StoreSources {
        let state = Mutex((random: SeededGenerator(seed: seed), time: 1_790_000_000.0))
        return StoreSources(
            now: { Date(timeIntervalSince1970: state.withLock { $0.time += 0.001; return $0.time }) },
            randomBits: { state.withLock { $0.random.next() } })
    }
}
