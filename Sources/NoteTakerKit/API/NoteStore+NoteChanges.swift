import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Several changes to one note at once: what an editor saves.
public struct NoteChanges: Sendable, Hashable {
    /// The new title, or `nil` to keep it.
    public var title: String?
    /// The new body, or `nil` to keep it.
    public var body: String?
    /// Pinned or not, or `nil` to keep it.
    public var isPinned: Bool?
    /// The folder to file the note in (`.some(nil)`: no folder), or `nil` to keep it.
    public var folderId: UUID??
    /// The note's whole set of tags, or `nil` to keep them.
    public var tags: [String]?
    /// What the edit was made from, so that it is merged with what changed since; `nil`: the
    /// edit replaces what it names whatever changed (and the history keeps what it replaced).
    public var base: NoteBase?

    /// Creates a set of changes; every field left out stays as it is.
    public init(
        title: String? = nil, body: String? = nil, isPinned: Bool? = nil, folderId: UUID?? = nil, tags: [String]? = nil,
        base: NoteBase? = nil
    ) {
        self.title = title
        self.body = body
        self.isPinned = isPinned
        self.folderId = folderId
        self.tags = tags
        self.base = base
    }
}

extension NoteStore {
    /// Applies every change in one transaction: all of them, or — when one is refused (an
    /// unknown folder, a tag name too long, a note in the trash) — none. Changes made from an
    /// older revision (``NoteChanges/base``) are merged with what changed since.
    public func changeNote(id: UUID, _ changes: NoteChanges) throws(NoteTakerError) -> Note {
        try write { db in
            let current = try Self.fetchEditableNote(db, id: id.key)
            return try Self.change(db, current, changes, movedOn: changes.base.map { $0.revision != current.revision } ?? false, sources: sources)
        }
    }

    /// The one edit path: writes `changes` to `current` (a note not in the trash). When the
    /// note has `movedOn` from the changes' base, they are merged with what changed since,
    /// and a body that cannot merge keeps the edit, the other text going to a conflict copy.
    static func change(_ db: Database, _ current: Note, _ changes: NoteChanges, movedOn: Bool, sources: StoreSources) throws -> Note {
        let id = current.id
        var changes = changes
        var conflict: (body: String, edit: RecordFields, other: RecordFields)?
        if let base = changes.base, movedOn {
            let rebased = rebase(changes, from: base, onto: current)
            changes = rebased.changes
            conflict = rebased.losingBody.map { ($0, rebased.edit, rebased.other) }
        }
        let afterText = try RecordWriter.changeText(db, of: current, title: changes.title, body: changes.body, replacedBy: movedOn ? .merge : .edit, at: sources.now)
        var changedMetadata = false
        if let isPinned = changes.isPinned, isPinned != current.isPinned {
            try RecordWriter.setPinned(db, noteId: id.key, isPinned)
            changedMetadata = true
        }
        if let folderId = changes.folderId, folderId != current.folderId {
            if let folderId { _ = try fetchFolder(db, id: folderId.key) }
            try RecordWriter.setFolder(db, noteId: id.key, folderId?.key)
            changedMetadata = true
        }
        if let tags = changes.tags {
            let wanted = Set(tags.map(Tag.normalizedName))
            let dropped = current.tags.filter { !wanted.contains(Tag.normalizedName($0)) }
            if !dropped.isEmpty {
                try RecordWriter.unlinkTags(db, named: dropped, noteId: id.key)
                changedMetadata = true
            }
            if try RecordWriter.linkTags(db, names: tags, noteId: id.key, at: sources.now) { changedMetadata = true }
        }
        if changedMetadata { _ = try RecordWriter.finishNoteChange(db, id: id.key, touchedAt: sources.now) }
        if let conflict {
            // The other text goes to a conflict copy, and both to the conflict view.
            try ConflictCopies.keep(db, noteId: id.key, losingBody: conflict.body, localWon: true,
                                    local: conflict.edit, server: conflict.other, at: sources.now, sources: sources)
        }
        guard changedMetadata || conflict != nil else { return afterText ?? current }
        return try fetchNote(db, id: id.key)
    }
}
