import Foundation
import GRDB
import Testing
@testable import NoteTakerKit

@Suite("Opening a store")
struct StoreOpeningTests {
    @Test func createsTheStoreAndItsFolder() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("deep/er/NoteTaker.sqlite")
        let store = try NoteStore.open(at: url)
        try store.make("Hello")
        #expect(FileManager.default.fileExists(atPath: url.path))
        let reopened = try NoteStore.open(at: url)
        #expect(try reopened.listTitles() == ["Hello"])
    }

    @Test func usesWriteAheadLoggingAndFullSync() throws {
        let directory = TemporaryDirectory()
        let store = try makeDiskStore(in: directory)
        let (mode, sync) = try store.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(sync == 2)
    }

    @Test func refusesAFileThatIsNotSQLiteAndLeavesItUntouched() throws {
        let directory = TemporaryDirectory()
        let bytes = Data("These are my precious notes in plain text.\n".utf8)
        let file = try directory.write(bytes, named: "notes.sqlite")
        #expect {
            try NoteStore.open(at: file)
        } throws: { error in
            guard case NoteTakerError.storeUnreadable = error else { return false }
            return (error as? NoteTakerError)?.message.contains("not an SQLite database") == true
        }
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func refusesACorruptStoreAndLeavesItUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        do {
            let store = try NoteStore.open(at: url)
            try store.make("Soon corrupt")
        }
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange(100..<4096, with: Data(repeating: 0xAB, count: 3996))
        try bytes.write(to: url)
        try? FileManager.default.removeItem(at: directory.file("NoteTaker.sqlite-wal"))
        try? FileManager.default.removeItem(at: directory.file("NoteTaker.sqlite-shm"))
        #expect(throws: NoteTakerError.self) { try NoteStore.open(at: url) }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func refusesAnotherApplicationsDatabaseAndLeavesItUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in try db.execute(sql: "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)") }
        }
        let before = try Data(contentsOf: url)
        #expect(throws: NoteTakerError.notANoteTakerStore(path: url.path)) { try NoteStore.open(at: url) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func refusesAStoreFromANewerVersionAndLeavesItUntouched() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        do {
            let store = try NoteStore.open(at: url)
            try store.make("From the future")
            try store.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            }
            try store.writer.close()
        }
        let before = try Data(contentsOf: url)
        #expect(throws: NoteTakerError.storeFromNewerVersion(path: url.path)) { try NoteStore.open(at: url) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func upgradesAStoreWrittenByTheFirstSchemaVersion() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        do {
            // The first schema, as the first release wrote it, with a note, a folder and a tag.
            let queue = try DatabaseQueue(path: url.path)
            try NoteStore.migrator.migrate(queue, upTo: NoteStore.firstMigration)
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO folder (id, name, createdAt, modifiedAt) VALUES ('11111111-1111-1111-1111-111111111111', 'Recipes', 0, 0);
                    INSERT INTO note (id, title, body, createdAt, modifiedAt, folderId)
                    VALUES ('22222222-2222-2222-2222-222222222222', 'Crème brûlée', 'Caramelize the sugar', 0, 0,
                            '11111111-1111-1111-1111-111111111111');
                    INSERT INTO tag (id, name, normalizedName, createdAt) VALUES ('33333333-3333-3333-3333-333333333333', 'Dessert', 'dessert', 0);
                    INSERT INTO noteTag (noteId, tagId) VALUES ('22222222-2222-2222-2222-222222222222', '33333333-3333-3333-3333-333333333333');
                    """)
            }
        }
        let store = try NoteStore.open(at: url)
        let folder = try store.resolveFolder("Recipes")
        #expect(try store.searchTitles("creme") == ["Crème brûlée"])
        #expect(try store.searchTitles("caramelize", tag: "dessert", folder: folder.id) == ["Crème brûlée"])
        #expect(try store.note(id: UUID(uuidString: "22222222-2222-2222-2222-222222222222")!).tags == ["Dessert"])
        let applied = try store.read { db in try NoteStore.migrator.appliedMigrations(db) }
        // The index keeps up to 64 MB of new entries in memory before writing a segment.
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT v FROM note_fts_config WHERE k = 'hashsize'") } == 64 << 20)
        #expect(applied == ["v1-schema", "v2-search", "v3-metrics", "v4-explicit-indexing", "v5-marked-facets", "v6-sync", "v7-references-and-derived-changes", "v8-staged-by-record", "v9-quarantine", "v10-history-and-revisions", "v11-version-devices", "v12-note-links", "v13-spaceless-search", "v14-spaceless-characters", "v15-deferred-indexing", "v16-larger-index-segments", "v17-edited-notes-stay-pending", "v18-note-bases-copied-on-change", "v19-no-syncing-status", "v20-unlisted-after-purge", "v21-tag-tombstones", "v22-tag-deletions-learned-late", "v23-preferences", "v24-sealed-record-revisions", "v25-import-bases", "v26-import-bases-as-digests", "v27-known-identities", "v28-published-notes", "v29-renamed-tags", "v30-renamed-tags-taken-up", "v31-note-tags-versions", "v32-converted-tags", "v33-synced-through", "v34-sent-again", "v35-sealed-before-restore", "v36-shared-zones", "v37-moved-histories", "v38-authors", "v39-sent-deletions"])
    }

    @Test("v31: a synced note's tags come from its version when another device sent it, from none when this one did")
    func tagsVersionsFromSentHere() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: NoteStore.configuration())
            try NoteStore.migrator.migrate(queue, upTo: "v30-renamed-tags-taken-up")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO note (id, title, body, createdAt, modifiedAt, changeTag, sentHere)
                    VALUES ('22222222-2222-2222-2222-222222222222', 'From elsewhere', '', 0, 0, '12', 0),
                           ('44444444-4444-4444-4444-444444444444', 'Sent here', '', 0, 0, '13', 1),
                           ('55555555-5555-5555-5555-555555555555', 'Never synced', '', 0, 0, NULL, 0);
                    """)
            }
        }
        let store = try NoteStore.open(at: url)
        let versions = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT title, tagsVersion FROM note ORDER BY id").map { "\($0["title"] as String): \(($0["tagsVersion"] as Int64?).map(String.init) ?? "none")" }
        }
        #expect(versions == ["From elsewhere: 12", "Sent here: none", "Never synced: none"])
    }

    @Test("v33: a store that synced before the marks were kept starts its synced mark at the highest change tag a row holds, and has fetched through none")
    func syncedThroughStartsFromRows() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: NoteStore.configuration())
            try NoteStore.migrator.migrate(queue, upTo: "v32-converted-tags")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO note (id, title, body, createdAt, modifiedAt, changeTag)
                    VALUES ('22222222-2222-2222-2222-222222222222', 'Nine', '', 0, 0, '9'),
                           ('44444444-4444-4444-4444-444444444444', 'Never synced', '', 0, 0, NULL);
                    INSERT INTO folder (id, name, createdAt, modifiedAt, changeTag) VALUES ('33333333-3333-3333-3333-333333333333', 'Twelve', 0, 0, '12');
                    """)
            }
        }
        let store = try NoteStore.open(at: url)
        let marks = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM sync_state WHERE key IN ('syncedThrough', 'fetchedThrough')").map { "\($0["key"] as String)=\($0["value"] as String)" }
        }
        #expect(marks == ["syncedThrough=12"])
    }

    @Test func rowsAnOlderVersionLeftSyncingArePendingAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        let note = try NoteStore.open(at: url).make("In flight when an older version stopped")
        do {
            // Older versions marked the rows of a batch in flight `syncing`.
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                try db.execute(sql: "UPDATE note SET syncStatus = 'syncing'")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v19-no-syncing-status'")
            }
        }
        let store = try NoteStore.open(at: url)
        #expect(try store.note(id: note.id).sync.status == .pending)
    }

    @Test func defaultLocationFollowsTheEnvironment() {
        #expect(NoteStore.defaultLocation(environment: ["NOTETAKER_STORE": "/tmp/x.sqlite", "HOME": "/home/a"]).path == "/tmp/x.sqlite")
        #expect(NoteStore.defaultLocation(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path
                == "/data/notetaker/NoteTaker.sqlite")
        #expect(NoteStore.defaultLocation(environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/share/notetaker/NoteTaker.sqlite")
    }

    @Test func aStoreOpenedForReadingWritesNothing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        let writer = try NoteStore.open(at: url)
        try writer.make("Kept", "text")
        let reader = try NoteStore.openForReading(at: url)
        #expect(try reader.searchTitles("text") == ["Kept"])
        #expect(throws: NoteTakerError.self) { try reader.make("Refused") }
        try writer.make("Later")
        #expect(try reader.notes().count == 2, "a reader sees what was written since")
        // A store that does not exist yet is created, as by `open`.
        let fresh = try NoteStore.openForReading(at: directory.file("New.sqlite"))
        #expect(try fresh.notes().isEmpty)
        try fresh.make("Writable")
    }

    @Test func twoStoresOnOneFileSeeEachOthersWrites() throws {
        let directory = TemporaryDirectory()
        let first = try makeDiskStore(in: directory)
        let second = try makeDiskStore(in: directory)
        try first.make("From the first")
        try second.make("From the second")
        #expect(Set(try first.listTitles()) == ["From the first", "From the second"])
    }
}

@Suite("Preferences")
struct PreferenceTests {
    @Test func lineBreaksAreOnUntilTurnedOffAndTheChoiceIsKept() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("NoteTaker.sqlite")
        #expect(try NoteStore.open(at: url).preferences() == Preferences(lineBreaks: true))
        try NoteStore.open(at: url).setPreferences(Preferences(lineBreaks: false))
        #expect(try NoteStore.open(at: url).preferences().lineBreaks == false)
    }

    @Test func aValueThisVersionCannotReadLeavesTheDefaults() throws {
        let store = try NoteStore.inMemory()
        for stored in ["not json", #"{"lineBreaks": "no"}"#, "[]"] {
            try store.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO preference (key, value) VALUES ('display', ?)", arguments: [stored])
            }
            #expect(try store.preferences() == Preferences(), "\(stored)")
        }
        // A newer version's preference this one does not know is no reason to lose the rest.
        try store.write { db in
            try db.execute(sql: #"INSERT OR REPLACE INTO preference (key, value) VALUES ('display', '{"lineBreaks": false, "later": 1}')"#)
        }
        #expect(try store.preferences() == Preferences(lineBreaks: false))
    }
}
