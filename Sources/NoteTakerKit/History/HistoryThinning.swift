import Foundation
import NoteTakerSyncProtocol

/// Which versions a retention keeps: the rule the server applies too (``VersionThinning``).
enum HistoryThinning {
    /// The versions to keep, newest first.
    static func kept(_ versions: [NoteVersion], now: Date, retention: HistoryRetention) -> [NoteVersion] {
        VersionThinning.kept(versions, replacedAt: \.replacedAt, now: now, everyVersionDays: retention.everyVersionDays,
                             dailyDays: retention.dailyDays, weeklyDays: retention.weeklyDays)
    }
}
