import Foundation
import GRDB
import NoteTakerSyncProtocol

/// A note this device published (docs/sharing.md §5.4): where its page is, and the key its
/// link carries. Kept here only: the key never goes to the server, nor to the account's other
/// devices.
public struct PublishedNote: Sendable, Equatable {
    /// The note.
    public var noteId: UUID
    /// The page's id on the server (``PublishedPageID``).
    public var pageId: String
    /// The page's key: 32 bytes, in the link's fragment only.
    public var key: Data
    /// The sync server the page is on.
    public var server: URL
    /// When the page was last put.
    public var publishedAt: Date
    /// When the note was last changed as the page shows it: a later change is not on the page
    /// until the note is published again.
    public var noteModifiedAt: Date

    /// A published note's record.
    public init(noteId: UUID, pageId: String, key: Data, server: URL, publishedAt: Date, noteModifiedAt: Date) {
        (self.noteId, self.pageId, self.key, self.server) = (noteId, pageId, key, server)
        (self.publishedAt, self.noteModifiedAt) = (publishedAt, noteModifiedAt)
    }

    /// The link to give: the server's page for the id, the key in the fragment.
    public var link: String {
        Self.link(server: server, pageId: pageId, key: key)
    }

    /// The link to page `pageId` on `server`, opened with `key`.
    public static func link(server: URL, pageId: String, key: Data) -> String {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/p/" + pageId + "#" + Base64URL.encode(key)
    }
}

/// The notes this device published, in their table.
enum PublishedNotes {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE published_note (
                noteId TEXT PRIMARY KEY NOT NULL,
                pageId TEXT NOT NULL UNIQUE,
                key BLOB NOT NULL,
                server TEXT NOT NULL,
                publishedAt REAL NOT NULL,
                noteModifiedAt REAL NOT NULL
            ) WITHOUT ROWID
            """)
    }

    static func note(_ row: Row) -> PublishedNote? {
        guard let noteId = UUID(key: row["noteId"]), let server = URL(string: row["server"]) else { return nil }
        return PublishedNote(noteId: noteId, pageId: row["pageId"], key: row["key"], server: server,
                             publishedAt: row.date("publishedAt") ?? .distantPast, noteModifiedAt: row.date("noteModifiedAt") ?? .distantPast)
    }
}

extension NoteStore {
    /// The page this device published of note `noteId`, if any.
    public func publishedNote(_ noteId: UUID) throws(NoteTakerError) -> PublishedNote? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM published_note WHERE noteId = ?", arguments: [noteId.key]).flatMap(PublishedNotes.note)
        }
    }

    /// Every page this device published, oldest first; a note deleted since keeps its page
    /// until it is unpublished.
    public func publishedNotes() throws(NoteTakerError) -> [PublishedNote] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM published_note ORDER BY publishedAt, pageId").compactMap(PublishedNotes.note)
        }
    }

    /// Keeps `page` as the one this device published of its note, in place of any before.
    public func keepPublished(_ page: PublishedNote) throws(NoteTakerError) {
        try write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO published_note (noteId, pageId, key, server, publishedAt, noteModifiedAt) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [page.noteId.key, page.pageId, page.key, page.server.absoluteString,
                                 page.publishedAt.storageValue, page.noteModifiedAt.storageValue])
        }
    }

    /// Forgets the page this device published of note `noteId` (unpublished).
    public func forgetPublished(_ noteId: UUID) throws(NoteTakerError) {
        try write { db in try db.execute(sql: "DELETE FROM published_note WHERE noteId = ?", arguments: [noteId.key]) }
    }
}
