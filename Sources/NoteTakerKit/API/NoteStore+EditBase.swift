import Foundation
import GRDB
import NoteTakerSyncProtocol

/// What an editor started from: the note's revision and its title, body and tags then.
///
/// An edit that carries its base is merged with whatever changed the note since (another
/// window, the command line, another device through sync) by the rules sync uses: a field
/// changed on one side only takes that side; tags merge as sets; bodies changed on both sides
/// merge as text; bodies that cannot merge keep the edit in the note and the other text in a
/// conflict copy, the note marked `conflict`. Nothing is overwritten unseen.
public struct NoteBase: Sendable, Hashable {
    /// The note's ``Note/revision`` when the editor read it.
    public var revision: Int64
    /// The title then.
    public var title: String
    /// The body then.
    public var body: String
    /// The tags then.
    public var tags: [String]

    /// Describes what an edit started from.
    public init(revision: Int64, title: String, body: String, tags: [String]) {
        self.revision = revision
        self.title = title
        self.body = body
        self.tags = tags
    }

    /// The base of an edit of `note` as it is now.
    public init(_ note: Note) {
        self.init(revision: note.revision, title: note.title, body: note.body, tags: note.tags)
    }
}

extension NoteStore {
    /// The changes to write when `changes` were made from `base` but the note has moved on
    /// to `current`: merged field by field with ``RecordMerge`` (the edit wins a field both
    /// sides changed, as this device does in sync), and the text that lost an unmergeable
    /// body, for a conflict copy.
    static func rebase(_ changes: NoteChanges, from base: NoteBase, onto current: Note)
        -> (changes: NoteChanges, losingBody: String?, edit: RecordFields, other: RecordFields) {
        var names: [String: String] = [:]
        func fields(title: String, body: String, tags: [String]) -> RecordFields {
            for name in tags { names[Tag.id(forName: name).key] = name }
            return ["title": .string(title), "body": .string(body),
                    "tagIds": .array(tags.map { .string(Tag.id(forName: $0).key) }.sorted { $0.string ?? "" < $1.string ?? "" })]
        }
        let baseFields = fields(title: base.title, body: base.body, tags: base.tags)
        let edit = fields(title: changes.title ?? base.title, body: changes.body ?? base.body, tags: changes.tags ?? base.tags)
        let other = fields(title: current.title, body: current.body, tags: current.tags)
        let merged = RecordMerge.merge(recordType: "note", base: baseFields, local: edit, server: other, policy: .localWins)
        var rebased = changes
        rebased.title = merged.fields["title"]?.string
        rebased.body = merged.fields["body"]?.string
        rebased.tags = (merged.fields["tagIds"]?.strings ?? []).compactMap { names[$0] }
        return (rebased, merged.losingBody, edit, other)
    }
}
