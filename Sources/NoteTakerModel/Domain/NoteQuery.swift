import Foundation

/// Which notes a list shows, in which page. Lists show pinned notes first, then the others
/// in ``order`` (the most recently modified first by default); notes in the trash are left out (see `NoteStore.trashedNotes(limit:offset:)`).
public struct NoteQuery: Sendable, Hashable {
    /// How far back "recent" reaches: 7 days, as the original's fetched set.
    public static let recentInterval: TimeInterval = 7 * 24 * 60 * 60

    /// Only notes in this folder.
    public var folderId: UUID?
    /// With ``folderId``: also the notes of its subfolders, at any depth.
    public var includeSubfolders: Bool
    /// Only notes carrying this tag (a name, compared case-insensitively).
    public var tag: String?
    /// Only pinned notes.
    public var pinnedOnly: Bool
    /// Only notes modified in the last 7 days.
    public var recentOnly: Bool
    /// The order of the notes after the pinned ones.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Most recently modified first (the default).
        case modified
        /// Most recently created first.
        case created
        /// By title, A to Z, ignoring case.
        case title
    }

    /// The order after the pinned notes.
    public var order: Order
    /// The page size.
    public var limit: Int
    /// How many notes to skip before the page.
    public var offset: Int

    /// Creates a query; with no arguments, the first 50 notes of the whole list.
    public init(
        folderId: UUID? = nil,
        includeSubfolders: Bool = false,
        tag: String? = nil,
        pinnedOnly: Bool = false,
        recentOnly: Bool = false,
        order: Order = .modified,
        limit: Int = 50,
        offset: Int = 0
    ) {
        self.folderId = folderId
        self.includeSubfolders = includeSubfolders
        self.tag = tag
        self.pinnedOnly = pinnedOnly
        self.recentOnly = recentOnly
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}
