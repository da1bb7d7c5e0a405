import Foundation

/// Which versions a retention keeps: a pure function over a note's versions.
enum HistoryThinning {
    /// The versions to keep, newest first: all those replaced within the retention's first
    /// days, then the newest of each day, then the newest of each week (for as long as the
    /// retention keeps weekly ones).
    static func kept(_ versions: [NoteVersion], now: Date, retention: HistoryRetention) -> [NoteVersion] {
        var seenBuckets = Set<String>()
        return versions.filter { version in
            let replaced = version.replacedAt.timeIntervalSince1970
            let ageDays = (now.timeIntervalSince1970 - replaced) / 86_400
            let bucket: String
            if ageDays < Double(retention.everyVersionDays) {
                return true
            } else if ageDays < Double(retention.dailyDays) {
                bucket = "day \((replaced / 86_400).rounded(.down))"
            } else if ageDays < Double(retention.weeklyDays ?? .max) {
                bucket = "week \((replaced / (7 * 86_400)).rounded(.down))"
            } else {
                return false
            }
            // Newest first: the first version seen in a bucket is its newest.
            return seenBuckets.insert(bucket).inserted
        }
    }
}
