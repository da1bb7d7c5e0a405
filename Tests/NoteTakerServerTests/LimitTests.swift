import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@Suite("Limits and bad input: a clear 4xx, nothing changed")
struct LimitTests {
    /// Runs `body`, then checks the account still holds exactly one record.
    private func expectUnchanged(_ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await TestServer(quotaBytes: 20_000).test { client in
            let token = try await client.register("ada")
            _ = try await client.modify(token, [noteSave(title: "kept")])
            try await body(client, token)
            let records = try await client.changes(token).records
            #expect(records.map { $0.fields["title"] } == [.string("kept")])
        }
    }

    @Test("a batch over the 1,000 changes the health answer announces")
    func batchSize() async throws {
        try await expectUnchanged { client, token in
            let health = try await client.send(.get, "/v1/health").decode(HealthResponse.self)
            #expect(health.maxBatchSize == 1_000)
            #expect(health.version == NoteTakerVersion.current)
            let response = try await client.send(.post, "/v1/records/modify", token: token,
                                                 json: ModifyRequest(changes: (0...1_000).map { noteSave(title: "n\($0)") }))
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == .tooLarge)
        }
    }

    @Test("a record over 1 MB, even after good changes in the same batch")
    func recordSize() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let huge = String(repeating: "x", count: SyncLimits.maxRecordBytes + 1)
            let response = try await client.send(.post, "/v1/records/modify", token: token,
                                                 json: ModifyRequest(changes: [noteSave(title: "fine"), noteSave(title: huge)]))
            #expect(response.status == .contentTooLarge)
            #expect(try await client.changes(token).records.isEmpty)
        }
    }

    @Test("the account's quota: storage full")
    func quota() async throws {
        try await expectUnchanged { client, token in
            let big = String(repeating: "y", count: 30_000)
            let response = try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(changes: [noteSave(title: big)]))
            #expect(response.status.code == 507)
            #expect(response.errorCode == .quotaExceeded)
            #expect(try response.decode(APIErrorBody.self).message.contains("Storage full"))
        }
    }

    @Test("deletions of records never held and saves of {} count what their rows cost, and are refused past the quota")
    func emptyRecordsCount() async throws {
        try await TestServer(quotaBytes: 20_000).test { client in
            let token = try await client.register("ada")
            _ = try await client.modify(token, [noteSave(title: "kept")])
            // 100 rows with nothing in them would take the account past 20,000 bytes.
            let deletions = (0..<100).map { _ in
                RecordChange(recordType: "note", recordId: UUID(), operation: .delete, baseChangeTag: nil, fields: nil)
            }
            let empties = (0..<100).map { _ in
                RecordChange(recordType: "tag", recordId: UUID(), operation: .save, baseChangeTag: nil, fields: [:])
            }
            for changes in [deletions, empties] {
                let response = try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(changes: changes))
                #expect(response.status.code == 507)
                #expect(response.errorCode == .quotaExceeded)
            }
            #expect(try await client.changes(token).records.count == 1, "a refused batch stores nothing")
            let before = try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self).usedBytes
            _ = try await client.modify(token, Array(deletions.prefix(10)))
            let after = try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self).usedBytes
            #expect(after - before >= 10 * 200, "10 deletions of records never held counted \(after - before) bytes")
        }
    }

    @Test("malformed JSON, wrong types, an unknown record type, a save without fields")
    func malformed() async throws {
        try await expectUnchanged { client, token in
            let id = UUID().uuidString
            let bodies = [
                "{not json",
                "{\"requestId\": \"\(UUID())\", \"changes\": 5}",
                "{\"requestId\": \"not-a-uuid\", \"changes\": []}",
                "{\"requestId\": \"\(UUID())\", \"changes\": [{\"recordType\": \"note\", \"recordId\": \"\(id)\", \"operation\": \"save\", \"fields\": {\"x\": {\"nested\": 1}}}]}",
                "{\"requestId\": \"\(UUID())\", \"changes\": [{\"recordType\": \"note\", \"recordId\": \"\(id)\", \"operation\": \"explode\"}]}",
            ]
            for body in bodies {
                let response = try await client.send(.post, "/v1/records/modify", token: token, raw: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == .badRequest)
                if body.contains("nested") {
                    // The answer says what is wrong, and where.
                    let message = try response.decode(APIErrorBody.self).message
                    #expect(message.hasPrefix("The request body is not valid JSON for this endpoint: a field that is an object"), "\(message)")
                    #expect(message.contains(" at byte ") && message.hasSuffix("Nothing was changed."), "\(message)")
                }
            }
            let unknown = RecordChange(recordType: "spaceship", recordId: UUID(), operation: .save, baseChangeTag: nil, fields: [:])
            let response = try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(changes: [noteSave(title: "x"), unknown]))
            #expect(response.status == .badRequest)
            #expect(try response.decode(APIErrorBody.self).message.contains("spaceship"))
            let empty = RecordChange(recordType: "note", recordId: UUID(), operation: .save, baseChangeTag: nil, fields: nil)
            #expect(try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(changes: [empty])).status == .badRequest)
        }
    }

    @Test("an oversized request body")
    func oversizedBody() async throws {
        try await expectUnchanged { client, token in
            let body = String(repeating: " ", count: SyncLimits.maxRequestBytes + 10)
            let response = try await client.send(.post, "/v1/records/modify", token: token, raw: body)
            #expect(response.status == .contentTooLarge)
        }
    }
}
