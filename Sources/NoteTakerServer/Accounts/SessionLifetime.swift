import Foundation

/// How long a session lives: it ends after ``idle`` without a request, and ``absolute``
/// after its log-in whatever happens, so that a token copied from a lost device stops
/// working on its own. Both are configurable (`--session-idle-days`, `--session-max-days`).
public struct SessionLifetime: Sendable, Hashable {
    /// The longest a session may go unused, in seconds.
    public var idle: TimeInterval
    /// The longest a session may live, in seconds.
    public var absolute: TimeInterval

    /// Idle for 60 days, or a year old: log in again.
    public static let standard = SessionLifetime(idle: 60 * 86_400, absolute: 365 * 86_400)
    /// How stale a session's "last used" may be before it is written again: a request does
    /// not cost a write each time.
    static let touchInterval: TimeInterval = 3_600

    /// Creates a lifetime.
    public init(idle: TimeInterval, absolute: TimeInterval) {
        self.idle = idle
        self.absolute = absolute
    }

    /// What becomes of a session at `now`.
    enum Verdict: Equatable {
        /// It goes on; `touch` when its "last used" should be written.
        case live(touch: Bool)
        /// It has ended, for the reason given (words for the device).
        case expired(String)
    }

    /// The one rule for a session's age.
    func judge(createdAt: Double, lastUsedAt: Double, now: Double) -> Verdict {
        if now - createdAt > absolute {
            return .expired("This device's session began over \(Self.days(absolute)) ago and has ended; log in again.")
        }
        if now - lastUsedAt > idle {
            return .expired("This device's session went unused for over \(Self.days(idle)) and has ended; log in again.")
        }
        return .live(touch: now - lastUsedAt > Self.touchInterval)
    }

    /// A span in whole days, for messages ("a day", "60 days").
    static func days(_ seconds: TimeInterval) -> String {
        let days = (seconds / 86_400).rounded()
        return days == 1 ? "a day" : String(format: "%.0f days", days)
    }
}
