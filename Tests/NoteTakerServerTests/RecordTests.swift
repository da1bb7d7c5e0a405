import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
import Testing

@Suite("Records")
struct RecordTests {
    @Test("fields in any spelling of JSON are kept as sent, and read back as the same values")
    func fieldsKeptAsWritten() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let id = UUID()
            let fields = #"{ "body" : "a\nb \/ \u00e9 \ud83d\ude00",\#n\#t"pinned":true, "tags": [ "x" ], "title":"one" , "title2": 1.50 }"#
            let body = #"{"requestId":"\#(UUID())","changes":[{"recordType":"note","recordId":"\#(id)","operation":"save","fields":\#(fields)}]}"#
            let response = try await client.send(.post, "/v1/records/modify", token: token, raw: body)
            #expect(response.status == .ok)
            let records = try await client.changes(token).records
            #expect(records.map(\.recordId) == [id])
            #expect(records.first?.fields == [
                "body": .string("a\nb / é 😀"), "pinned": .bool(true), "tags": .array([.string("x")]), "title": .string("one"),
                "title2": .number(1.5),
            ])
        }
    }

    @Test("a save is fetched by the next device; a stale change tag gets the server's copy")
    func saveFetchConflict() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let id = UUID()
            let saved = try await client.modify(token, [noteSave(id, title: "one")])
            #expect(saved.results.map(\.outcome) == [.saved])
            let tag = try #require(saved.results[0].changeTag)

            let everything = try await client.changes(token)
            #expect(everything.records.map(\.recordId) == [id])
            #expect(everything.records[0].fields["title"] == .string("one"))
            #expect(everything.moreComing == false)

            let second = try await client.modify(token, [noteSave(id, title: "two", base: tag)])
            #expect(second.results[0].outcome == .saved)
            let stale = try await client.modify(token, [noteSave(id, title: "three", base: tag)])
            #expect(stale.results[0].outcome == .serverRecordChanged)
            #expect(stale.results[0].serverRecord?.fields["title"] == .string("two"))

            let since = try await client.changes(token, since: everything.token)
            #expect(since.records.map { $0.fields["title"] } == [.string("two")])
            #expect(try await client.changes(token, since: since.token).records.isEmpty)
        }
    }

    @Test("a repeated batch is answered again, not applied twice")
    func idempotentBatch() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let request = UUID()
            let id = UUID()
            let first = try await client.modify(token, [noteSave(id, title: "once")], requestId: request)
            let again = try await client.modify(token, [noteSave(id, title: "once")], requestId: request)
            #expect(first == again)
            let changes = try await client.changes(token)
            #expect(changes.records.count == 1)
            #expect(changes.records[0].changeTag == first.results[0].changeTag)
        }
    }

    @Test("an answer older than its 30 days is not given again: the batch is decided anew", .enabled(if: !TestStorage.usesPostgres))
    func expiredAnswerNotGivenAgain() async throws {
        let server = try await TestServer()
        let directory = try #require(server.directory)
        try await server.test { client in
            let token = try await client.register("ada")
            let (request, id) = (UUID(), UUID())
            let first = try await client.modify(token, [noteSave(id, title: "once")], requestId: request)
            #expect(first.results[0].outcome == .saved)
            // The answer is kept, and only forgotten when another batch comes: make it 31 days old.
            let database = try DatabaseQueue(path: directory.appendingPathComponent("NoteTakerServer.sqlite").path)
            try await database.write { try $0.execute(sql: "UPDATE request SET createdAt = createdAt - 31 * 86400") }
            try await database.close()
            // Decided against the record as it is: a save with no change tag meets the one it made.
            let again = try await client.modify(token, [noteSave(id, title: "once")], requestId: request)
            #expect(again.results[0].outcome == .serverRecordChanged)
            #expect(again.results[0].serverRecord?.changeTag == first.results[0].changeTag)
            // Its new answer took the old one's place, and is given again from now on.
            #expect(try await client.modify(token, [noteSave(id, title: "once")], requestId: request) == again)
        }
    }

    @Test("kept answers stay small and few: a conflict's server copy is read afresh, and only the newest 1,000 are kept")
    func keptAnswers() async throws {
        let server = try await TestServer()
        let service = server.service
        let (account, _) = try await server.account()
        let id = UUID()
        let tag = try #require(try await service.modify(ModifyRequest(changes: [noteSave(id, title: "one")]), for: account).results[0].changeTag)
        _ = try await service.modify(ModifyRequest(changes: [noteSave(id, title: "two", base: tag)]), for: account)
        let conflicting = ModifyRequest(changes: [noteSave(id, title: "stale", base: tag)])
        let first = try await service.modify(conflicting, for: account)
        let replayed = try await service.modify(conflicting, for: account)
        #expect(replayed.results[0].outcome == .serverRecordChanged)
        #expect(replayed.results[0].serverRecord?.fields["title"] == .string("two"))
        #expect(replayed == first)

        let oldest = ModifyRequest(changes: [noteSave(title: "the oldest answer")])
        _ = try await service.modify(oldest, for: account)
        for index in 0..<1_000 {
            _ = try await service.modify(ModifyRequest(changes: [noteSave(title: "batch \(index)")]), for: account)
        }
        // Forgotten: repeated now, it is decided afresh (the record exists, so it conflicts).
        #expect(try await service.modify(oldest, for: account).results[0].outcome == .serverRecordChanged)
    }

    @Test("kept answers count in the account's usage, and stop counting when they are forgotten")
    func keptAnswersInUsage() async throws {
        let server = try await TestServer()
        let service = server.service
        let (account, _) = try await server.account()
        let id = UUID()
        // Deleting one record again and again changes no record after the first time: what
        // grows is the answers kept, each the same size.
        func deleteAgain() async throws -> Int64 {
            let change = RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: nil, fields: [:])
            _ = try await service.modify(ModifyRequest(changes: [change]), for: account)
            return try await service.status(of: account).usedBytes
        }
        let first = try await deleteAgain()
        let second = try await deleteAgain()
        let answer = second - first
        #expect(answer > 0)
        var usage = second
        for _ in 2..<1_000 { usage = try await deleteAgain() }
        #expect(usage == first + 999 * answer)
        for _ in 0..<10 { #expect(try await deleteAgain() == usage, "the oldest answer goes as a new one comes") }
    }

    @Test("a page of changes is bounded in bytes as well as in records")
    func pageBytes() async throws {
        let server = try await TestServer()
        let service = server.service
        let (account, _) = try await server.account()
        let big = String(repeating: "x", count: 900_000)
        for index in 0..<12 {
            _ = try await service.modify(ModifyRequest(changes: [noteSave(title: "\(index) \(big)")]), for: account)
        }
        var since: String?
        var pages: [Int] = []
        repeat {
            let page = try await service.changes(for: account, ChangesQuery(since: since), limit: 1000)
            pages.append(page.records.count)
            since = page.token
            if !page.moreComing { break }
        } while pages.count < 20
        #expect(pages.reduce(0, +) == 12)
        #expect(pages.count > 1)
        #expect(pages.allSatisfy { $0 * 900_000 <= SyncLimits.maxPageBytes + 900_000 })
    }

    @Test("deletes leave tombstones; deleting a deleted record succeeds")
    func tombstones() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let id = UUID()
            let tag = try await client.modify(token, [noteSave(id, title: "x")]).results[0].changeTag
            let delete = RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: tag, fields: nil)
            #expect(try await client.modify(token, [delete]).results[0].outcome == .saved)
            let again = RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: "1", fields: nil)
            #expect(try await client.modify(token, [again]).results[0].outcome == .saved)
            let records = try await client.changes(token).records
            #expect(records.count == 1 && records[0].deleted && records[0].fields.isEmpty)
        }
    }

    @Test("a deletion based on an older version applies over changes the software made on its own, never over an edit")
    func deletionBeatsDerivedSaves() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            func save(_ id: UUID, _ title: String, base: String?, derived: Bool = false) async throws -> String? {
                var change = noteSave(id, title: title, base: base)
                change.derived = derived ? true : nil
                return try await client.modify(token, [change]).results[0].changeTag
            }
            func delete(_ id: UUID, base: String?) async throws -> RecordResult.Outcome {
                try await client.modify(token, [RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: base, fields: nil)])
                    .results[0].outcome
            }
            // Edited, then moved by the software twice: a deletion of the edit applies.
            let moved = UUID()
            let edited = try await save(moved, "edit", base: nil)
            let once = try await save(moved, "moved up", base: edited, derived: true)
            _ = try await save(moved, "moved again", base: once, derived: true)
            #expect(try await delete(moved, base: edited) == .saved)
            #expect(try await client.changes(token).records.first { $0.recordId == moved }?.deleted == true)

            // A derived change, then an edit: the deletion of the older version is refused,
            // whether it was based on the edit before or on the derived change.
            let reedited = UUID()
            let first = try await save(reedited, "edit", base: nil)
            let derived = try await save(reedited, "moved up", base: first, derived: true)
            _ = try await save(reedited, "edited again", base: derived)
            #expect(try await delete(reedited, base: first) == .serverRecordChanged)
            #expect(try await delete(reedited, base: derived) == .serverRecordChanged)

            // A change without the flag (an older device's) is an edit, as before.
            let plain = UUID()
            let before = try await save(plain, "edit", base: nil)
            _ = try await save(plain, "edit again", base: before)
            #expect(try await delete(plain, base: before) == .serverRecordChanged)
            // A deletion never based on any version is refused as before.
            #expect(try await delete(plain, base: nil) == .serverRecordChanged)

            // Made by the software alone (a tag a conversion sent again under its keyed id),
            // and saved so again: no one edited it, and a deletion based on nothing applies.
            let unedited = UUID()
            let made = try await save(unedited, "sent again", base: nil, derived: true)
            _ = try await save(unedited, "sent again, sealed anew", base: made, derived: true)
            #expect(try await delete(unedited, base: nil) == .saved)
            // Edited once since, it is refused.
            let editedSince = UUID()
            let sentAgain = try await save(editedSince, "sent again", base: nil, derived: true)
            _ = try await save(editedSince, "renamed", base: sentAgain)
            #expect(try await delete(editedSince, base: nil) == .serverRecordChanged)
        }
    }

    @Test("a device that made a record's last edit deletes it whatever its base: the answer to its edit may have been lost")
    func deletionByTheLastEditor() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let (mine, other) = (UUID(), UUID())
            func save(_ id: UUID, _ title: String, base: String?, by device: UUID, derived: Bool = false) async throws -> String? {
                var change = noteSave(id, title: title, base: base)
                change.derived = derived ? true : nil
                return try await client.modify(token, [change], deviceId: device).results[0].changeTag
            }
            func delete(_ id: UUID, base: String?, by device: UUID?) async throws -> RecordResult.Outcome {
                let change = RecordChange(recordType: "note", recordId: id, operation: .delete, baseChangeTag: base, fields: nil)
                return try await client.modify(token, [change], deviceId: device).results[0].outcome
            }
            // Created here (the answer lost: this device knows no version), then moved by
            // another device's software: this device's deletion, based on nothing, applies.
            let created = UUID()
            let first = try await save(created, "mine", base: nil, by: mine)
            _ = try await save(created, "moved up", base: first, by: other, derived: true)
            #expect(try await delete(created, base: nil, by: other) == .serverRecordChanged)
            #expect(try await delete(created, base: nil, by: nil) == .serverRecordChanged)
            #expect(try await delete(created, base: nil, by: mine) == .saved)
            #expect(try await client.changes(token).records.first { $0.recordId == created }?.deleted == true)

            // Edited by another device since: that edit wins over this device's deletion.
            let edited = UUID()
            let own = try await save(edited, "mine", base: nil, by: mine)
            _ = try await save(edited, "theirs", base: own, by: other)
            #expect(try await delete(edited, base: nil, by: mine) == .serverRecordChanged)
            #expect(try await delete(edited, base: own, by: mine) == .serverRecordChanged)
        }
    }

    @Test("a sealed note's edits keep its old envelope as a version; a derived save (a re-seal, a move) keeps none")
    func sealedVersionsKept() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let id = UUID()
            func sealed(_ salt: String) -> RecordFields {
                ["$enc": .number(1), "$zone": .string("private"), "$key": .number(1), "$salt": .string(salt), "$sealed": .string("sealed-\(salt)")]
            }
            func save(_ fields: RecordFields, base: String?, derived: Bool = false) async throws -> String? {
                var change = RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: base, fields: fields)
                change.derived = derived ? true : nil
                return try await client.modify(token, [change]).results[0].changeTag
            }
            let first = try await save(sealed("first"), base: nil)
            let resealed = try await save(sealed("resealed"), base: first, derived: true)
            _ = try await save(sealed("edited"), base: resealed)
            let kept = try await client.send(.get, "/v1/records/\(id)/versions", token: token).decode(RecordVersionsResponse.self).versions
            #expect(kept.map(\.fields) == [sealed("resealed")], "the edit kept the envelope it replaced; the re-seal kept none")
        }
    }

    @Test("changes come in pages with moreComing")
    func paging() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            _ = try await client.modify(token, (0..<25).map { noteSave(title: "n\($0)") })
            var since: String?
            var seen = 0
            var pages = 0
            repeat {
                let query = since.map { "&since=\($0)" } ?? ""
                let page = try await client.send(.get, "/v1/changes?limit=10\(query)", token: token).decode(ChangesResponse.self)
                seen += page.records.count
                pages += 1
                since = page.token
                if !page.moreComing { break }
            } while true
            #expect(seen == 25)
            #expect(pages == 3)
        }
    }

    @Test("an unusable token answers resync required")
    func resyncRequired() async throws {
        let other = try await TestServer()
        let foreign = try await other.test { client in
            let token = try await client.register("ada")
            _ = try await client.modify(token, [noteSave(title: "x")])
            return try await client.changes(token).token
        }
        try await TestServer().test { client in
            let token = try await client.register("ada")
            for bad in [foreign, "garbage", "\(foreign.split(separator: ":")[0]):99"] {
                let response = try await client.send(.get, "/v1/changes?since=\(bad)", token: token)
                #expect(response.status == .gone)
                #expect(response.errorCode == .resyncRequired)
            }
            let badLimit = try await client.send(.get, "/v1/changes?limit=0", token: token)
            #expect(badLimit.status == .badRequest)
            let notNumber = try await client.send(.get, "/v1/changes?limit=ten", token: token)
            #expect(notNumber.status == .badRequest)
        }
    }
}
