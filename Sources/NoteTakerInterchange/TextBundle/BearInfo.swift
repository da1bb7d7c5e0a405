import Foundation
import NoteTakerKit
import NoteTakerMarkdown

/// What Bear writes of a note in its bundle's `info.json` (under `net.shinyfrog.bear`): its
/// id, dates, pin, archive and trash (flags `0`/`1`), lock and the device that edited it last.
struct BearInfo {
    var identifier: String?
    var created: Date?
    var modified: Date?
    var trashed: Date?
    var isPinned = false
    var isArchived = false
    var isTrashed = false
    /// The properties block's lines: the fields NoteTaker has no place for.
    var properties: [String] = []

    /// Reads Bear's part of `info.json`; `nil` (another app's bundle) reads as no fields.
    init(_ fields: JSONFields?) {
        guard var fields else { return }
        identifier = fields.string("uniqueIdentifier")
        created = fields.string("creationDate").flatMap(Timestamp.date(from:))
        modified = fields.string("modificationDate").flatMap(Timestamp.date(from:))
        trashed = fields.string("trashedDate").flatMap(Timestamp.date(from:))
        isPinned = fields.bool("pinned") ?? false
        isArchived = fields.bool("archived") ?? false
        isTrashed = fields.bool("trashed") ?? false
        // Dates of states the note is not in, and Bear's own bookkeeping, say nothing of it.
        fields.ignore("pinnedDate", "archivedDate", "lockedDate", "pinnedInTagTitles", "version", "lastEditingDevice")
        for (name, value) in fields.leftovers {
            if let value, !value.isEmpty, value != "0" { properties.append("\(name): \(FrontMatter.quoted(value))") }
        }
    }
}
