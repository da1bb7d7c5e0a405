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

/// A version the server kept of one of the account's notes, as a page of versions to seal
/// again lists it (docs/encryption.md §2.3).
public struct KeptVersion: Sendable, Hashable, Codable {
    /// The note's id.
    public var recordId: UUID
    /// The change tag the replaced version had: it names the version.
    public var changeTag: String
    /// The version's fields: an envelope, or plaintext fields in an account converted since.
    public var fields: RecordFields

    /// Describes a kept version.
    public init(recordId: UUID, changeTag: String, fields: RecordFields) {
        self.recordId = recordId
        self.changeTag = changeTag
        self.fields = fields
    }
}

/// The answer of `GET /v1/accounts/current/versions`: the kept versions not sealed with a data
/// key of at least the version asked, from one stretch of the account's versions.
public struct KeptVersionsPage: Sendable, Hashable, Codable {
    /// The versions of the stretch the server read that need sealing again.
    public var versions: [KeptVersion]
    /// Where the next stretch starts (`after`), or `nil` when this one was the last.
    public var next: String?

    /// Creates a page.
    public init(versions: [KeptVersion], next: String?) {
        self.versions = versions
        self.next = next
    }

    /// The most versions the server reads for one page.
    public static let maximumStretch = 500
}

/// The body of `PUT /v1/records/{id}/versions`: a kept version sealed again, with a newer data
/// key, to replace the bytes the server keeps under its change tag.
public struct ResealedVersion: Sendable, Hashable, Codable {
    /// The change tag of the version replaced.
    public var changeTag: String
    /// Its new envelope.
    public var fields: RecordFields

    /// Describes a version sealed again.
    public init(changeTag: String, fields: RecordFields) {
        self.changeTag = changeTag
        self.fields = fields
    }
}

/// The body of `POST /v1/records/{id}/versions` (and of a shared zone's
/// `POST /v1/zones/{zone}/records/{id}/versions`): earlier versions of a note that moved into
/// this zone from another (docs/sharing.md §3.5), sealed for this zone as its records are, for
/// the server to keep with the versions it keeps of the note itself.
public struct MovedVersions: Sendable, Hashable, Codable {
    /// The versions, in any order.
    public var versions: [MovedVersion]

    /// Describes the versions to keep.
    public init(versions: [MovedVersion]) {
        self.versions = versions
    }

    /// The most versions one request carries.
    public static let maximumCount = 100
}

/// One earlier version of a note that moved into a zone.
public struct MovedVersion: Sendable, Hashable, Codable {
    /// When a later version replaced it (seconds since 1970), as the history it comes from says.
    public var replacedAt: Double
    /// Its fields (`title`, `body`, `modifiedAt`, `editedOn`), sealed as the zone's records are.
    public var fields: RecordFields

    /// Describes a version.
    public init(replacedAt: Double, fields: RecordFields) {
        self.replacedAt = replacedAt
        self.fields = fields
    }
}

/// The answer of `POST …/records/{id}/versions`: how many versions the server kept (one of a
/// time it keeps a version of already, a request sent again, is not kept twice).
public struct MovedVersionsKept: Sendable, Hashable, Codable {
    /// How many were kept.
    public var kept: Int

    /// Describes the answer.
    public init(kept: Int) {
        self.kept = kept
    }
}

/// The body of `POST /v1/versions` (and `POST /v1/zones/{zone}/versions`): the notes whose
/// kept versions a device asks for at once, before they move (docs/sharing.md §3.5).
public struct VersionsQuery: Sendable, Hashable, Codable {
    /// The notes, at most ``maximumCount``.
    public var recordIds: [UUID]

    /// The most notes one request asks for.
    public static let maximumCount = 100

    /// Asks for the versions of `recordIds`.
    public init(recordIds: [UUID]) {
        self.recordIds = recordIds
    }
}

/// The answer of `POST /v1/versions`: the versions of each note asked for that the account
/// holds, newest first, as `GET /v1/records/{id}/versions` answers them one at a time.
public struct VersionsOfNotes: Sendable, Hashable, Codable {
    /// A note's versions.
    public struct Note: Sendable, Hashable, Codable {
        /// The note's id.
        public var recordId: UUID
        /// Its versions, newest first.
        public var versions: [RecordVersion]

        /// Describes a note's versions.
        public init(recordId: UUID, versions: [RecordVersion]) {
            self.recordId = recordId
            self.versions = versions
        }
    }

    /// The notes read, in the order asked; a note the account does not hold is left out.
    public var notes: [Note]
    /// The notes asked for and not read, because the answer held about
    /// ``SyncLimits/maxPageBytes`` already: asked for again in another request.
    public var unread: [UUID]

    /// Creates an answer.
    public init(notes: [Note], unread: [UUID]) {
        self.notes = notes
        self.unread = unread
    }
}
