import Foundation

/// Which versions of a note a retention keeps, on a device and on the server alike: every
/// version while it is young, then the newest of each day, then the newest of each week.
public enum VersionThinning {
    /// The items to keep, in the order given (newest first): all those replaced within
    /// `everyVersionDays`, then the newest of each UTC day until `dailyDays`, then the newest
    /// of each week until `weeklyDays` (`nil`: forever).
    public static func kept<Item>(
        _ items: [Item], replacedAt: (Item) -> Date, now: Date,
        everyVersionDays: Int, dailyDays: Int, weeklyDays: Int?
    ) -> [Item] {
        var seenBuckets = Set<String>()
        return items.filter { item in
            let replaced = replacedAt(item).timeIntervalSince1970
            let ageDays = (now.timeIntervalSince1970 - replaced) / 86_400
            let bucket: String
            if ageDays < Double(everyVersionDays) {
                return true
            } else if ageDays < Double(dailyDays) {
                bucket = "day \((replaced / 86_400).rounded(.down))"
            } else if ageDays < Double(weeklyDays ?? .max) {
                bucket = "week \((replaced / (7 * 86_400)).rounded(.down))"
            } else {
                return false
            }
            // Newest first: the first item seen in a bucket is its newest.
            return seenBuckets.insert(bucket).inserted
        }
    }
}
