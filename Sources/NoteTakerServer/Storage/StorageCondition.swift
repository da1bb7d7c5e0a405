import Synchronization

/// Whether the storage works, as the server last saw it, so that a failure is logged once when
/// it starts (not at every request while it lasts) and once more when it ends.
///
/// A pure state machine behind a lock: each call says what to log, the caller logs it.
public final class StorageCondition: Sendable {
    /// What the caller should log after a call.
    public enum Report: Equatable, Sendable {
        /// Nothing new.
        case none
        /// A failure of a new kind began (or the first one).
        case began(StorageFailure)
        /// The storage works again, after this many failed calls.
        case ended(failedCalls: Int)
    }

    private struct State {
        var failure: StorageFailure?
        var failedCalls = 0
    }

    private let state = Mutex(State())

    /// A condition that starts out working.
    public init() {}

    /// The failure going on, if any.
    public var failure: StorageFailure? { state.withLock { $0.failure } }

    /// Notes a failed call.
    public func failed(_ failure: StorageFailure) -> Report {
        state.withLock { state in
            if case .other = failure { return .began(failure) }
            state.failedCalls += 1
            guard state.failure.map({ !Self.sameKind($0, failure) }) ?? true else { return .none }
            state.failure = failure
            return .began(failure)
        }
    }

    /// Notes a call that worked.
    public func succeeded() -> Report {
        state.withLock { state in
            guard state.failure != nil else { return .none }
            let calls = state.failedCalls
            state = State()
            return .ended(failedCalls: calls)
        }
    }

    private static func sameKind(_ a: StorageFailure, _ b: StorageFailure) -> Bool {
        switch (a, b) {
        case (.unreachable, .unreachable), (.full, .full): true
        default: false
        }
    }
}
