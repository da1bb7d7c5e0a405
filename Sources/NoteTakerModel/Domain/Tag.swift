import Foundation

/// A tag. Names are unique compared case-insensitively, and the id derives from the name,
/// so two devices that both create "Work" end with one tag.
public struct Tag: Sendable, Hashable, Identifiable {
    /// The id, derived from the normalized name (see ``Tag/id(forName:)``; keyed by the account
    /// in a store of an end-to-end encrypted one).
    public var id: UUID
    /// The name as first typed (its display form).
    public var name: String
    /// When the tag was created.
    public var createdAt: Date
    /// Sync bookkeeping.
    public var sync: SyncMetadata

    /// Creates a tag value.
    public init(id: UUID, name: String, createdAt: Date = Date(), sync: SyncMetadata = SyncMetadata()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.sync = sync
    }

    /// The form in which tag names are compared: trimmed, inner white space folded to one
    /// space, Unicode-composed and lowercased. `" Work "` and `"work"` normalize alike.
    public static func normalizedName(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .precomposedStringWithCanonicalMapping
            .lowercased()
    }
}

/// A tag with the number of notes (outside the trash) that carry it.
public struct TagSummary: Sendable, Hashable, Identifiable {
    /// The tag.
    public var tag: Tag
    /// How many notes outside the trash carry it.
    public var noteCount: Int

    /// The tag's id.
    public var id: UUID { tag.id }
    /// A tag and how many notes carry it.
    package init(tag: Tag, noteCount: Int) {
        self.tag = tag
        self.noteCount = noteCount
    }
}
