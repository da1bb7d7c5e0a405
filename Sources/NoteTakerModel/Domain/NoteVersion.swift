import Foundation

/// One earlier version of a note's title and body, kept in its history.
///
/// Encoded (for `--json` and the web API) as `version`, `modifiedAt`, `replacedAt`,
/// `replacedBy`, `title`, `size`, `linesAdded`, `linesRemoved` and `summary`; the body is
/// fetched one version at a time.
public struct NoteVersion: Sendable, Hashable, Encodable {
    /// What replaced a version: why it was kept.
    public enum Replacement: String, Sendable, Hashable, Codable, CaseIterable {
        /// An edit on this device (kept at most once per few minutes of continuous editing).
        case edit
        /// A change from another device, through sync.
        case sync
        /// An edit made from an older version, merged with what had changed meanwhile.
        case merge
        /// Restoring an earlier version.
        case restore
        /// Resolving a sync conflict.
        case resolution
    }

    /// The version's number, unique in the store; newer versions have larger numbers.
    public var id: Int64
    /// The note.
    public var noteId: UUID
    /// When this text was written.
    public var modifiedAt: Date
    /// When it was replaced, and so kept.
    public var replacedAt: Date
    /// What replaced it.
    public var replacedBy: Replacement
    /// The title then.
    public var title: String
    /// The size of the body then, in bytes of UTF-8.
    public var bodySize: Int
    /// The device that wrote this text, by the name it goes by; `nil` when it did not say
    /// (an older version of NoteTaker, or an import of history from elsewhere).
    public var device: String?
    /// Whether this device wrote this text (`device` is then its name now).
    public var isThisDevice: Bool = false
    /// In a shared folder, the account that wrote this text when another (as its signature
    /// attested: docs/sharing.md §4); `nil` for this account's own, and outside shares.
    public var author: String?
    /// The body then.
    public var body: String?
    /// What the next newer text changed, in a note's history list.
    public var changedLines: ChangedLines?

    /// Lines added and removed between two texts.
    public struct ChangedLines: Sendable, Hashable {
        /// Lines the newer text has that the older did not.
        public var added: Int
        /// Lines of the older text the newer no longer has.
        public var removed: Int

        /// Counts of lines changed.
        public init(added: Int, removed: Int) {
            self.added = added
            self.removed = removed
        }

        /// In one line of English (`+3 −1 lines`, or `no change to the text`), for scripts
        /// that read the API's `summary`; people read it worded in their own language.
        public var summary: String {
            if added == 0 && removed == 0 { return "no change to the text" }
            return "+\(added) −\(removed) line\(added + removed == 1 ? "" : "s")"
        }
    }

    /// Describes a version.
    public init(id: Int64, noteId: UUID, modifiedAt: Date, replacedAt: Date, replacedBy: Replacement,
                title: String, bodySize: Int, device: String? = nil, author: String? = nil, body: String? = nil) {
        self.id = id
        self.noteId = noteId
        self.modifiedAt = modifiedAt
        self.replacedAt = replacedAt
        self.replacedBy = replacedBy
        self.title = title
        self.bodySize = bodySize
        self.device = device
        self.author = author
        self.body = body
    }

    /// Encodes the version as the lists show it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .version)
        try container.encode(modifiedAt, forKey: .modifiedAt)
        try container.encode(replacedAt, forKey: .replacedAt)
        try container.encode(replacedBy, forKey: .replacedBy)
        try container.encode(title, forKey: .title)
        try container.encode(bodySize, forKey: .size)
        try container.encode(device, forKey: .device)
        try container.encode(isThisDevice, forKey: .thisDevice)
        try container.encode(author, forKey: .author)
        try container.encode(changedLines?.added, forKey: .linesAdded)
        try container.encode(changedLines?.removed, forKey: .linesRemoved)
        try container.encode(changedLines?.summary, forKey: .summary)
    }

    private enum CodingKeys: String, CodingKey {
        case version, modifiedAt, replacedAt, replacedBy, title, size, device, thisDevice, author, linesAdded, linesRemoved, summary
    }
}

/// How long versions are kept, thinned as backup tools thin their snapshots: every version
/// for a while, then one a day, then one a week; and how close together edits are one run.
public struct HistoryRetention: Sendable, Hashable, Codable {
    /// Edits closer together than this many minutes are one run of editing, which keeps one
    /// version (0: every edit keeps one).
    public var coalescingMinutes: Int
    /// Days during which every version is kept.
    public var everyVersionDays: Int
    /// Days (counted from now) during which one version a day is kept.
    public var dailyDays: Int
    /// Days (counted from now) during which one version a week is kept; `nil`: forever.
    public var weeklyDays: Int?

    /// A version per 5 minutes of editing; every version for 7 days, one a day for 90 days,
    /// then one a week forever.
    public static let standard = HistoryRetention(everyVersionDays: 7, dailyDays: 90, weeklyDays: nil)

    /// Describes a retention.
    public init(everyVersionDays: Int, dailyDays: Int, weeklyDays: Int?, coalescingMinutes: Int = 5) {
        self.coalescingMinutes = coalescingMinutes
        self.everyVersionDays = everyVersionDays
        self.dailyDays = dailyDays
        self.weeklyDays = weeklyDays
    }

    /// Reads a retention; one saved before coalescing was a setting coalesces 5 minutes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        coalescingMinutes = try container.decodeIfPresent(Int.self, forKey: .coalescingMinutes) ?? 5
        everyVersionDays = try container.decode(Int.self, forKey: .everyVersionDays)
        dailyDays = try container.decode(Int.self, forKey: .dailyDays)
        weeklyDays = try container.decodeIfPresent(Int.self, forKey: .weeklyDays)
    }
}
