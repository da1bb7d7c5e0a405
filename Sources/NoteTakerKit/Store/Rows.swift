import Foundation
import GRDB

/// How domain values map to rows: ids as lowercase UUID text, dates as seconds since 1970.
extension UUID {
    /// The form ids take in the database: lowercase text.
    var key: String { uuidString.lowercased() }
}

extension Date {
    /// The form dates take in the database: seconds since 1970.
    var storageValue: Double { timeIntervalSince1970 }
}

extension Row {
    func uuid(_ column: String) -> UUID? {
        (self[column] as String?).flatMap(UUID.init(uuidString:))
    }

    func date(_ column: String) -> Date? {
        (self[column] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    func syncMetadata() -> SyncMetadata {
        SyncMetadata(
            status: SyncStatus(rawValue: self["syncStatus"]) ?? .pending,
            changeTag: self["changeTag"],
            lastSyncedAt: date("lastSyncedAt"),
            retryCount: self["syncRetryCount"],
            errorMessage: self["syncErrorMessage"])
    }
}

/// The columns that make up the domain types, shared by every query that decodes them.
enum Columns {
    static let note = qualified("note", "id, title, body, createdAt, modifiedAt, isPinned, folderId, trashedAt, tagNames")
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
    /// Decodes a row selected with `Columns.note`; attachments are filled in separately.
    init(row: Row) {
        let tagNames: String = row["tagNames"]
        self.init(
            id: row.uuid("id") ?? UUID(),
            title: row["title"],
            body: row["body"],
            createdAt: row.date("createdAt") ?? Date(timeIntervalSince1970: 0),
            modifiedAt: row.date("modifiedAt"),
            isPinned: row["isPinned"],
            folderId: row.uuid("folderId"),
            tags: tagNames.isEmpty ? [] : tagNames.components(separatedBy: "\n"),
            trashedAt: row.date("trashedAt"),
            sync: row.syncMetadata())
    }
}

extension Folder {
    /// Decodes a row selected with `Columns.folder`.
    init(row: Row) {
        self.init(
            id: row.uuid("id") ?? UUID(),
            name: row["name"],
            icon: row["icon"],
            sortOrder: row["sortOrder"],
            createdAt: row.date("createdAt") ?? Date(timeIntervalSince1970: 0),
            modifiedAt: row.date("modifiedAt"),
            parentId: row.uuid("parentId"),
            sync: row.syncMetadata())
    }
}

extension Tag {
    /// Decodes a row selected with `Columns.tag`.
    init(row: Row) {
        self.init(
            id: row.uuid("id") ?? UUID(),
            name: row["name"],
            createdAt: row.date("createdAt") ?? Date(timeIntervalSince1970: 0),
            sync: row.syncMetadata())
    }
}

extension Attachment {
    /// Decodes a row selected with `Columns.attachment`.
    init(row: Row) {
        self.init(
            id: row.uuid("id") ?? UUID(),
            noteId: row.uuid("noteId") ?? UUID(),
            kind: Kind(rawValue: row["kind"]) ?? .file,
            fileName: row["fileName"],
            fileSize: row["fileSize"],
            contentHash: row["contentHash"],
            createdAt: row.date("createdAt") ?? Date(timeIntervalSince1970: 0),
            sync: row.syncMetadata())
    }
}
