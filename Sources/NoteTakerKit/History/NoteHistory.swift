import Foundation
import GRDB

/// The versions of every note's title and body, kept as a note changes.
///
/// Each row is a text a note had before a change replaced it. Bodies are stored as
/// ``TextDelta``s: the newest version against the note's body now, every older one against
/// the next newer version, so a run of small edits costs a few bytes a version. Every change
/// of a note's body therefore passes through ``keep(_:noteId:title:body:newBody:modifiedAt:replacedBy:now:)``,
/// which keeps the newest delta true to the new body. Continuous editing is coalesced: an edit
/// keeps the text it replaces only when the note's newest version is not an edit kept in the
/// last few minutes (``HistoryRetention/coalescingMinutes``); every other change (sync,
/// merge, restore, resolution) always keeps what it replaces.
enum NoteHistory {
    /// The minutes of editing that make one version, as the retention setting says.
    static func coalescingInterval(_ db: Database) throws -> TimeInterval {
        guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM history_setting WHERE key = 'retention'")),
              let retention = try? JSONDecoder().decode(HistoryRetention.self, from: Data(text.utf8)) else {
            return Double(HistoryRetention.standard.coalescingMinutes) * 60
        }
        return Double(retention.coalescingMinutes) * 60
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE note_version (
                id INTEGER PRIMARY KEY,
                noteId TEXT NOT NULL,
                modifiedAt REAL NOT NULL,
                replacedAt REAL NOT NULL,
                replacedBy TEXT NOT NULL,
                title TEXT NOT NULL,
                bodySize INTEGER NOT NULL,
                body BLOB NOT NULL,
                isDelta INTEGER NOT NULL
            );
            CREATE INDEX note_version_note ON note_version(noteId, replacedAt, id);
            CREATE TABLE history_setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
            -- A note's history goes with it (purged from the trash here or on another device).
            CREATE TRIGGER note_history_deleted AFTER DELETE ON note BEGIN
                DELETE FROM note_version WHERE noteId = OLD.id;
            END;
            """)
    }

    /// Keeps `title` and `body` (written at `modifiedAt`) as a version of the note, because a
    /// change of kind `replacedBy` is replacing the body with `newBody` now; a coalesced edit,
    /// or a text equal to the newest version, keeps nothing (the newest version's delta is
    /// moved onto `newBody`). Never fails an edit over a damaged history.
    static func keep(
        _ db: Database, noteId: String, title: String, body: String, newBody: String, modifiedAt: Date,
        replacedBy: NoteVersion.Replacement, now: Date
    ) throws {
        var replacedAt = now.storageValue
        let newest = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT id, title, body, isDelta, replacedBy, replacedAt FROM note_version WHERE noteId = ? ORDER BY replacedAt DESC, id DESC LIMIT 1
            """), arguments: [noteId])
        if let newest {
            let stored: Data = newest["body"]
            let newestBody = newest["isDelta"] as Bool ? TextDelta.apply(stored, to: body) : String(decoding: stored, as: UTF8.self)
            var coalesced = false
            if replacedBy == .edit, newest["replacedBy"] == NoteVersion.Replacement.edit.rawValue {
                coalesced = now.timeIntervalSince1970 - (newest["replacedAt"] as Double) < (try coalescingInterval(db))
            }
            if coalesced || (newest["title"] == title && newestBody == body) {
                if newBody != body, let newestBody {
                    try db.cachedStatement(sql: "UPDATE note_version SET body = ?, isDelta = 1 WHERE id = ?")
                        .execute(arguments: [TextDelta.make(from: newBody, to: newestBody), newest["id"] as Int64])
                }
                return
            }
            // Otherwise the newest version's delta stays true: its next newer text is `body`,
            // the version kept now, which sorts after it even if the clock went back.
            replacedAt = max(now.storageValue, newest["replacedAt"] as Double)
        }
        // The version is the note's text now: the device (and account) that wrote it are the note's.
        try db.cachedStatement(sql: """
            INSERT INTO note_version (noteId, modifiedAt, replacedAt, replacedBy, title, bodySize, body, isDelta, device, author)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, (SELECT editedOn FROM note WHERE id = ?1), (SELECT editedBy FROM note WHERE id = ?1))
            """).execute(arguments: [
                noteId, modifiedAt.storageValue, replacedAt, replacedBy.rawValue, title, body.utf8.count,
                TextDelta.make(from: newBody, to: body),
            ])
    }

    /// Which versions' texts a walk through the history keeps.
    enum Bodies {
        case none, all
        /// This version's only; the walk stops there.
        case only(Int64)
    }

    /// Every version of a note, newest first, each body rebuilt from the next newer (the
    /// newest from the note's body now): kept in the answer as `bodies` says, else only
    /// summarized (`summaries`) and let go, so a long history of a large note never sits in
    /// memory whole.
    static func versions(_ db: Database, noteId: UUID, bodies: Bodies, summaries: Bool = false) throws -> [NoteVersion] {
        var newer = try String.fetchOne(db, sql: "SELECT body FROM note WHERE id = ?", arguments: [noteId.key])
        let thisDevice = try SyncDevice.name(db)
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, modifiedAt, replacedAt, replacedBy, title, bodySize, body, isDelta, device, author FROM note_version
            WHERE noteId = ? ORDER BY replacedAt DESC, id DESC
            """, arguments: [noteId.key])
        var versions: [NoteVersion] = []
        for row in rows {
            var version = NoteVersion(
                id: row["id"], noteId: noteId, modifiedAt: row.date("modifiedAt") ?? Date(timeIntervalSince1970: 0),
                replacedAt: row.date("replacedAt") ?? Date(timeIntervalSince1970: 0),
                replacedBy: NoteVersion.Replacement(rawValue: row["replacedBy"]) ?? .edit,
                title: row["title"], bodySize: row["bodySize"])
            version.device = Device.name(stored: row["device"], thisDevice: thisDevice)
            version.isThisDevice = (row["device"] as String?) == nil
            version.author = row["author"]
            let stored: Data = row["body"]
            let body: String
            if row["isDelta"] as Bool {
                guard let base = newer, let rebuilt = TextDelta.apply(stored, to: base) else {
                    throw NoteTakerError.invalidInput(Wording("versionDamaged", ["version": String(version.id), "note": noteId.key]))
                }
                body = rebuilt
            } else {
                body = String(decoding: stored, as: UTF8.self)
            }
            if summaries { version.changedLines = TextDiff.changedLines(from: body, to: newer ?? "") }
            switch bodies {
            case .all: version.body = body
            case .only(let id) where id == version.id:
                version.body = body
                return versions + [version]
            default: break
            }
            newer = body
            versions.append(version)
        }
        return versions
    }

    /// One version with its text.
    ///
    /// - Throws: ``NoteTakerError/versionNotFound(note:version:)`` when the note has no such
    ///   version (a version of another note included).
    static func version(_ db: Database, noteId: UUID, id: Int64) throws -> NoteVersion {
        guard let found = try versions(db, noteId: noteId, bodies: .only(id)).last, found.id == id, found.body != nil else {
            throw NoteTakerError.versionNotFound(note: noteId.key, version: id)
        }
        return found
    }

    /// Writes a note's whole history again with only `kept` (newest first, bodies filled
    /// in): what thinning does once it has chosen, and merging the server's versions (those,
    /// with id 0, get new ids).
    static func rewrite(_ db: Database, noteId: UUID, kept: [NoteVersion]) throws {
        try db.execute(sql: "DELETE FROM note_version WHERE noteId = ?", arguments: [noteId.key])
        var newer = try String.fetchOne(db, sql: "SELECT body FROM note WHERE id = ?", arguments: [noteId.key])
        let thisDevice = try SyncDevice.name(db)
        for version in kept {
            let body = version.body ?? ""
            let stored = newer.map { TextDelta.make(from: $0, to: body) } ?? Data(body.utf8)
            try db.execute(sql: """
                INSERT INTO note_version (id, noteId, modifiedAt, replacedAt, replacedBy, title, bodySize, body, isDelta, device, author)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    version.id == 0 ? nil : version.id, noteId.key, version.modifiedAt.storageValue, version.replacedAt.storageValue,
                    version.replacedBy.rawValue, version.title, version.bodySize, stored, newer != nil,
                    Device.stored(name: version.device, thisDevice: thisDevice), version.author,
                ])
            newer = body
        }
    }

    /// The device that wrote a text, as a note and its versions store it: `NULL` for this
    /// device (whatever it is named now), an empty text for one that did not say.
    enum Device {
        /// The name to show; `nil` when the device did not say.
        static func name(stored: String?, thisDevice: String) -> String? {
            guard let stored else { return thisDevice }
            return stored.isEmpty ? nil : stored
        }

        /// What to store for a device's name (`nil`: one that did not say).
        static func stored(name: String?, thisDevice: String) -> String? {
            guard let name else { return "" }
            return name == thisDevice ? nil : name
        }
    }
}
