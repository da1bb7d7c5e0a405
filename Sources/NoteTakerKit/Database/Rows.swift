import Foundation
import GRDB
import NoteTakerSyncProtocol

/// How domain values map to rows: ids as lowercase UUID text (`UUID.key`, shared with the
/// sync protocol), dates as seconds since 1970.
extension Date {
    /// The form dates take in the database: seconds since 1970.
    var storageValue: Double { timeIntervalSince1970 }
}

extension Row {
    func uuid(_ column: String) -> UUID? {
        (self[column] as String?).flatMap(UUID.init(key:))
    }

    func date(_ column: String) -> Date? {
        (self[column] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    // Domain rows decode by position (columns as `Columns` lists them): a name lookup per
    // value costs more than the rest of decoding a page of notes.

    func uuid(at index: Int) -> UUID? {
        (self[index] as String?).flatMap(UUID.init(key:))
    }

    func date(at index: Int) -> Date? {
        (self[index] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    /// The sync columns, which `Columns` puts after a type's own columns, from `index` on.
    func syncMetadata(at index: Int) -> SyncMetadata {
        SyncMetadata(
            status: SyncStatus(rawValue: self[index]) ?? .pending,
            changeTag: self[index + 1],
            lastSyncedAt: date(at: index + 2),
            retryCount: self[index + 3],
            errorMessage: self[index + 4])
    }
}

/// The columns that make up the domain types, shared by every query that decodes them.
/// A query selects them first: the decoders read by position.
enum Columns {
    static let note = qualified("note", "id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagNames, revision")
    static let folder = qualified("folder", "id, name, icon, sortOrder, createdAt, modifiedAt, parentId")
    static let tag = qualified("tag", "id, name, createdAt")
    static let attachment = qualified("attachment", "id, noteId, kind, fileName, fileSize, contentHash, createdAt")

    /// `table.column, ...` for the given columns and the sync columns.
    private static func qualified(_ table: String, _ columns: String) -> String {
        (columns + ", syncStatus, changeTag, lastSyncedAt, syncRetryCount, syncErrorMessage")
            .split(separator: ",")
            .map { "\(table).\($0.trimmingCharacters(in: .whitespaces))" }
            .joined(separator: ", ")
    }
}

extension Note {
    /// Decodes a row that starts with `Columns.note`; attachments are filled in separately.
    init(row: Row) {
        let tagNames: String = row[8]
        self.init(
            id: row.uuid(at: 0) ?? UUID(),
            title: row[1],
            body: row[2],
            createdAt: row.date(at: 3) ?? Date(timeIntervalSince1970: 0),
            modifiedAt: row.date(at: 4),
            isPinned: row[5],
            folderId: row.uuid(at: 6),
            tags: tagNames.isEmpty ? [] : tagNames.components(separatedBy: "\n"),
            trashedAt: row.date(at: 7),
            revision: row[9],
            sync: row.syncMetadata(at: 10))
    }
}

extension Folder {
    /// Decodes a row that starts with `Columns.folder`.
    init(row: Row) {
        self.init(
            id: row.uuid(at: 0) ?? UUID(),
            name: row[1],
            icon: row[2],
            sortOrder: row[3],
            createdAt: row.date(at: 4) ?? Date(timeIntervalSince1970: 0),
            modifiedAt: row.date(at: 5),
            parentId: row.uuid(at: 6),
            sync: row.syncMetadata(at: 7))
    }
}

extension Tag {
    /// Decodes a row that starts with `Columns.tag`.
    init(row: Row) {
        self.init(
            id: row.uuid(at: 0) ?? UUID(),
            name: row[1],
            createdAt: row.date(at: 2) ?? Date(timeIntervalSince1970: 0),
            sync: row.syncMetadata(at: 3))
    }
}

extension Attachment {
    /// Decodes a row that starts with `Columns.attachment`.
    init(row: Row) {
        self.init(
            id: row.uuid(at: 0) ?? UUID(),
            noteId: row.uuid(at: 1) ?? UUID(),
            kind: Kind(rawValue: row[2]) ?? .file,
            fileName: row[3],
            fileSize: row[4],
            contentHash: row[5],
            createdAt: row.date(at: 6) ?? Date(timeIntervalSince1970: 0),
            sync: row.syncMetadata(at: 7))
    }
}
