import Foundation

/// An earlier version of a note record that the server kept when a change replaced it, so
/// that a device joining later, or set up again, sees the note's whole history.
public struct RecordVersion: Sendable, Hashable, Codable {
    /// The change tag the replaced version had.
    public var changeTag: String
    /// When the server replaced it (seconds since 1970).
    public var replacedAt: Double
    /// The fields of the version the history needs: `title`, `body`, `modifiedAt`, `editedOn`.
    public var fields: RecordFields

    /// Describes a kept version.
    public init(changeTag: String, replacedAt: Double, fields: RecordFields) {
        self.changeTag = changeTag
        self.replacedAt = replacedAt
        self.fields = fields
    }
}

/// The answer of `GET /v1/records/{id}/versions`: the versions the server kept, newest first.
public struct RecordVersionsResponse: Sendable, Hashable, Codable {
    /// The versions, newest first.
    public var versions: [RecordVersion]

    /// Creates an answer.
    public init(versions: [RecordVersion]) {
        self.versions = versions
    }
}

/// How long the server keeps versions: the same rule devices follow by default.
public enum ServerVersionRetention {
    /// Every version for 7 days.
    public static let everyVersionDays = 7
    /// Then one a day until 90 days.
    public static let dailyDays = 90
    /// Then one a week, forever.
    public static let weeklyDays: Int? = nil
}
