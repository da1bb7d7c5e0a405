import Foundation
import NoteTakerKit

/// Dates other apps write as a count since 1970: Keep's and Standard Notes' microseconds,
/// Joplin's milliseconds.
enum EpochDate {
    /// `count` units, `perSecond` to a second, since 1970; `nil` outside the years NoteTaker
    /// can write.
    static func date(_ count: Int64, perSecond: Double) -> Date? {
        let seconds = Double(count) / perSecond
        return Timestamp.representable.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
    }
}
