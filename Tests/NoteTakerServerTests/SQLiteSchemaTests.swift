import Foundation
import GRDB
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// The SQLite storage's schema upgrades keep what a server held.
@Suite struct SQLiteSchemaTests {
    /// A database file left by a server whose records, kept answers and versions were
    /// WITHOUT ROWID tables (schema v4).
    private func version4Database() throws -> (URL, recordIds: [UUID], requestId: UUID) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("NoteTakerServer.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try SQLiteSyncStorage.migrator.migrate(queue, upTo: "v4-record-versions")
        let ids = [UUID(), UUID(), UUID()]
        let requestId = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO account (id, username, passwordHash, createdAt, sequence) VALUES (1, 'ada', 'x', 0, 3)")
            for (index, id) in ids.enumerated() {
                let record: RecordFields = ["title": .string("Note \(index)"), "body": .string("Körper / \(index)")]
                let fields = record.wireJSON
                try db.execute(sql: """
                    INSERT INTO record (accountId, recordId, recordType, seq, deleted, fields, size, author)
                    VALUES (1, ?, 'note', ?, 0, ?, ?, NULL)
                    """, arguments: [id.uuidString.lowercased(), 3 - index, fields, fields.utf8.count])
            }
            let answer = try JSONEncoder().encode(ModifyResponse(results: [RecordResult(recordId: ids[0], recordType: "note", outcome: .saved, changeTag: "3")]))
            // Kept a day ago: within the 30 days an answer is given again.
            try db.execute(sql: "INSERT INTO request (accountId, requestId, response, createdAt) VALUES (1, ?, ?, ?)",
                           arguments: [requestId.uuidString.lowercased(), answer, Date().timeIntervalSince1970 - 86_400])
            try db.execute(sql: """
                INSERT INTO record_version (accountId, recordId, seq, replacedAt, fields, size) VALUES (1, ?, 1, 0, '{"title":"Old"}', 15)
                """, arguments: [ids[0].uuidString.lowercased()])
        }
        return (url, ids, requestId)
    }

    @Test func rowidTablesKeepRecordsAnswersAndVersions() async throws {
        let (url, ids, requestId) = try version4Database()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let storage = try SQLiteSyncStorage(url: url)

        let page = try await storage.changes(account: 1, after: 0, skipping: nil, limit: 10, maxBytes: 1_000_000)
        #expect(page.records.map(\.recordId) == ids.reversed())
        #expect(page.records.map(\.changeTag) == ["1", "2", "3"])
        #expect(page.records.last?.fields["body"] == .string("Körper / 0"))
        let versions = try await storage.versions(account: 1, recordId: ids[0])
        #expect(versions?.map(\.fields) == [["title": .string("Old")]])

        // The kept answer is still given to the batch sent again.
        let replayed = try await storage.modify(account: 1, request: ModifyRequest(requestId: requestId, changes: []), fieldsJSON: [], quota: 1_000_000)
        #expect(replayed.results.map(\.changeTag) == ["3"])

        // A record saved again replaces its row: one row per record, the newest change.
        let save = RecordChange(recordType: "note", recordId: ids[2], operation: .save, baseChangeTag: "1", fields: ["title": .string("New")])
        let saved = try await storage.modify(account: 1, request: ModifyRequest(changes: [save]), fieldsJSON: [], quota: 1_000_000)
        #expect(saved.results.map(\.outcome) == [.saved])
        let after = try await storage.changes(account: 1, after: 0, skipping: nil, limit: 10, maxBytes: 1_000_000)
        #expect(after.records.map(\.recordId) == [ids[1], ids[0], ids[2]])

        let schema = try await DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_schema WHERE name IN ('record', 'request', 'record_version')")
        }
        #expect(schema.count == 3)
        #expect(schema.allSatisfy { !$0.contains("WITHOUT ROWID") })
    }

    @Test("tombstones from before purges count their days from the upgrade")
    func tombstonesDatedAtUpgrade() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("NoteTakerServer.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try SQLiteSyncStorage.migrator.migrate(queue, upTo: "v10-history-marks")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO account (id, username, passwordHash, createdAt, sequence, recordBytes) VALUES (1, 'ada', 'x', 0, 1, 202);
                INSERT INTO record (accountId, recordId, recordType, seq, deleted, fields, size) VALUES (1, 'a', 'note', 1, 1, '{}', 202);
                """)
        }
        try queue.close()
        let upgraded = Date().timeIntervalSince1970
        let storage = try SQLiteSyncStorage(url: url)
        let nobodyLive = upgraded + 10
        let early = try await storage.purgeTombstones(PurgeHorizon(deletedBefore: upgraded - 1, usedSince: nobodyLive, createdSince: nobodyLive, markedBefore: 0))
        #expect(early.tombstones == 0)
        let later = try await storage.purgeTombstones(PurgeHorizon(deletedBefore: upgraded + 5, usedSince: nobodyLive, createdSince: nobodyLive, markedBefore: 0))
        #expect(later.tombstones == 1)
        #expect(try await storage.purgedThrough(account: 1) == 1)
        #expect(try await storage.usage(account: 1).bytes == 0)
    }

    @Test func aDatabaseANewerServerUpgradedIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-newer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("NoteTakerServer.sqlite")
        _ = try SQLiteSyncStorage(url: file)
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        #expect(throws: SyncServerError.self) { try SQLiteSyncStorage(url: file) }
        do {
            _ = try SQLiteSyncStorage(url: file)
        } catch let error as SyncServerError {
            #expect(error.message.contains("set up by a newer notetaker-server"))
        }
    }

    @Test("a share made before zones kept records gets its holder, and its members record is kept as its first epoch")
    func sharesMadeBeforeZoneRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("NoteTakerServer.sqlite")
        let zone = UUID().uuidString.lowercased()
        do {
            let queue = try DatabaseQueue(path: url.path)
            try SQLiteSyncStorage.migrator.migrate(queue, upTo: "v19-purged-records")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO account (id, username, passwordHash, createdAt) VALUES (1, 'ada', 'x', 0), (2, 'bob', 'x', 0)")
                try db.execute(sql: "INSERT INTO share_zone (id, ownerId, epoch, members, signature, createdAt) VALUES (?, 1, 3, 'the text', 'the signature', 0)",
                               arguments: [zone])
                try db.execute(sql: "INSERT INTO share_member (zoneId, accountId, role, accepted) VALUES (?, 1, 'owner', 1), (?, 2, 'editor', 1)",
                               arguments: [zone, zone])
            }
        }
        let storage = try SQLiteSyncStorage(url: url)
        let access = try #require(try await storage.zoneAccess(zone: zone, account: 2))
        #expect(access.role == .editor && access.owner == 1 && access.holder > 2)
        #expect(try await storage.shareMembers(zone: zone, epoch: 3, account: 2) == SignedShareMembers(members: "the text", signature: "the signature"))
        #expect(try await storage.shareMembers(zone: zone, epoch: nil, account: 2)?.members == "the text")
        #expect(try await storage.accountSummaries().map(\.username) == ["ada", "bob"], "the holder is no account to list")
        #expect(try await storage.account(named: ZoneAccess.holderName(zone: zone)) == nil, "nor one to log in to")
    }
}
