import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerServer

/// Converting an account that holds notes to end-to-end encryption (docs/encryption.md §2.4),
/// as the server sees it: it takes the keys, from then on only sealed saves, and once every
/// record is sealed it deletes the versions and files it still holds in plain text.
@Suite struct ConversionTests {
    private func upload(_ client: some TestClientProtocol, _ token: String, _ address: String, _ bytes: Data) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/v1/assets/\(address)", method: .put,
                                 headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(data: bytes)).status
    }

    private func status(_ client: some TestClientProtocol, _ token: String) async throws -> AccountStatus {
        try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self)
    }

    @Test("an account with notes takes keys; it then refuses plaintext saves, and drops its plaintext only once every record is sealed")
    func plaintextDroppedOnceSealed() async throws {
        try await TestServer().test { client in
            let other = try await client.register("bob")
            let token = try await client.register("ada")
            let otherDevice = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse"))
                .decode(SessionResponse.self).token
            let (diary, list) = (UUID(), UUID())
            let first = try await client.modify(token, [noteSave(diary, title: "Diagnosis"), noteSave(list, title: "Groceries")])
            let tag = try #require(first.results[0].changeTag)
            _ = try await client.modify(token, [noteSave(diary, title: "Diagnosis, second opinion", base: tag)])
            // A tag deleted under the id its name gives unkeyed (version 5), and one under a keyed id (version 8).
            let (plainTag, keyedTag) = (UUID(uuidString: "3f2a8c1e-5b7d-5e21-9a0b-1c2d3e4f5a6b")!, UUID(uuidString: "3f2a8c1e-5b7d-8e21-9a0b-1c2d3e4f5a6b")!)
            let tags = try await client.modify(token, [plainTag, keyedTag].map {
                RecordChange(recordType: "tag", recordId: $0, operation: .save, baseChangeTag: nil, fields: ["name": .string("Medical")])
            })
            _ = try await client.modify(token, zip([plainTag, keyedTag], tags.results).map {
                RecordChange(recordType: "tag", recordId: $0, operation: .delete, baseChangeTag: $1.changeTag, fields: nil)
            })
            // One under its unkeyed id left live, as a batch whose answer was lost leaves it (the
            // device sends it again under its keyed id): it holds no conversion up.
            let leftTag = UUID(uuidString: "0b7e3d5a-1c2f-5a4b-8c9d-0e1f2a3b4c5d")!
            _ = try await client.modify(token, [RecordChange(recordType: "tag", recordId: leftTag, operation: .save, baseChangeTag: nil,
                                                             fields: ["name": .string("Work")])])
            let (photo, shared) = (Data("a readable photo".utf8), Data("a file bob holds too".utf8))
            for bytes in [photo, shared] { #expect(try await upload(client, token, sha256Hex(bytes), bytes) == .noContent) }
            #expect(try await upload(client, other, sha256Hex(shared), shared) == .noContent)
            #expect(try await client.send(.delete, "/v1/accounts/current/plaintext", token: token).status == .notFound, "not encrypted yet")

            let change = PasswordChange(currentPassword: "correct horse", newPassword: "a login secret", keys: AccountKeysTests.keys())
            #expect(try await client.send(.put, "/v1/accounts/current/password", token: token, json: change).status == .noContent)
            #expect(try await client.send(.get, "/v1/accounts/current", token: otherDevice).status == .unauthorized, "other sessions end")
            let plain = try await client.send(.post, "/v1/records/modify", token: token,
                                              json: ModifyRequest(requestId: UUID(), changes: [noteSave(title: "still readable")]))
            #expect(plain.status == .badRequest, "plaintext saves are refused from now on")

            // One record sealed, one not: nothing is deleted.
            let current = try await client.changes(token).records
            let changeTags = Dictionary(uniqueKeysWithValues: current.map { ($0.recordId, $0.changeTag) })
            _ = try await client.modify(token, [RecordChange(recordType: "note", recordId: diary, operation: .save, baseChangeTag: changeTags[diary],
                                                             fields: ResealingTests.envelope(key: 1, "diary"))])
            let early = try await client.send(.delete, "/v1/accounts/current/plaintext", token: token)
            #expect(early.status == .conflict && early.errorCode == .unsealedRecords)
            #expect(try early.decode(APIErrorBody.self).message.contains("1 of this account's records"))
            #expect(try await status(client, token).unsealedRecords == 2, "the status counts the unkeyed tag: the conversion is not finished")
            #expect(try await client.send(.get, "/v1/records/\(diary)/versions", token: token).decode(RecordVersionsResponse.self).versions.count == 2)
            #expect(try await client.send(.head, "/v1/assets/\(sha256Hex(photo))", token: token).status == .ok, "nothing was deleted")

            _ = try await client.modify(token, [RecordChange(recordType: "note", recordId: list, operation: .save, baseChangeTag: changeTags[list],
                                                             fields: ResealingTests.envelope(key: 1, "list"))])
            let sealedFile = FileResealingTests.sealedFile(key: 1, "the photo, sealed")
            let sealedAddress = FileResealingTests.address()
            #expect(try await upload(client, token, sealedAddress, sealedFile) == .noContent)
            let before = try await status(client, token).usedBytes
            let dropped = try await client.send(.delete, "/v1/accounts/current/plaintext", token: token)
            #expect(dropped.status == .ok)
            #expect(try dropped.decode(PlaintextDropped.self) == PlaintextDropped(versions: 3, files: 2, tombstones: 2))
            let left = try await client.changes(token).records
            #expect(!left.contains { $0.recordId == plainTag } && left.contains { $0.recordId == keyedTag && $0.deleted },
                    "the unkeyed tag's tombstone is gone, the keyed one's stays")
            #expect(!left.contains { $0.recordId == leftTag }, "so is the unkeyed tag left live")
            #expect(try await client.send(.get, "/v1/records/\(diary)/versions", token: token).decode(RecordVersionsResponse.self).versions.isEmpty)
            #expect(try await client.send(.head, "/v1/assets/\(sha256Hex(photo))", token: token).status == .notFound)
            #expect(try await client.send(.head, "/v1/assets/\(sha256Hex(shared))", token: token).status == .notFound)
            #expect(try await client.send(.head, "/v1/assets/\(sealedAddress)", token: token).status == .ok, "a sealed file stays")
            let after = try await status(client, token).usedBytes
            #expect(after < before - Int64(photo.count + shared.count), "the usage follows")
            let bobs = try await client.send(.get, "/v1/assets/\(sha256Hex(shared))", token: other)
            #expect(Data(buffer: bobs.body) == shared, "another account's hold on the same file keeps its bytes")
            #expect(try await client.send(.delete, "/v1/accounts/current/plaintext", token: token).decode(PlaintextDropped.self)
                    == PlaintextDropped(versions: 0, files: 0, tombstones: 0), "a second call has nothing left to do")
            #expect(try await client.changes(token).records.filter { !$0.deleted }.allSatisfy { $0.fields.isSealed })
        }
    }
}
