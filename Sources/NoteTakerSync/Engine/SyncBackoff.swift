import Foundation
import NoteTakerKit

/// How long to wait before trying again after failed sync attempts: exponential, capped,
/// with jitter so that many devices do not retry in step. A pure function of its inputs.
public struct SyncBackoff: Sendable, Equatable {
    /// The wait after the first failure.
    public var base: Duration
    /// The longest wait.
    public var maximum: Duration

    /// Creates a backoff; the defaults wait 1 s, 2 s, 4 s … up to 5 minutes.
    public init(base: Duration = .seconds(1), maximum: Duration = .seconds(300)) {
        self.base = base
        self.maximum = maximum
    }

    /// The wait after `failures` failures in a row, scaled by `jitter` in 0.5...1.
    public func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        guard failures > 0 else { return .zero }
        let exponential = base * (1 << min(failures - 1, 20))
        let capped = min(exponential, maximum)
        return capped * min(max(jitter, 0.5), 1)
    }
}
