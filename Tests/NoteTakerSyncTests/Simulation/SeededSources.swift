import Foundation
import NoteTakerKit
import NoteTakerServerTestSupport
import Synchronization

extension StoreSources {
    /// Sources that follow from `seed` alone, so that a simulated device makes the same ids
    /// and reads the same times on every run: a clock that starts on 20 September 2026 and
    /// moves a millisecond at each reading, and the seeded generator's numbers.
    static func seeded(_ seed: UInt64) -> StoreSources {
        let state = SeededState(seed: seed)
        return StoreSources(now: { state.tick() }, randomBits: { state.next() })
    }
}

/// The clock and the generator behind ``StoreSources/seeded(_:)``, shared by its two closures.
private final class SeededState: Sendable {
    private let state: Mutex<(random: SeededGenerator, time: Double)>

    init(seed: UInt64) {
        state = Mutex((SeededGenerator(seed: seed), 1_790_000_000))
    }

    func tick() -> Date {
        Date(timeIntervalSince1970: state.withLock { $0.time += 0.001; return $0.time })
    }

    func next() -> UInt64 {
        state.withLock { $0.random.next() }
    }
}
