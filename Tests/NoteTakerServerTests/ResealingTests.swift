import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NoteTakerSyncProtocol
import Testing
@testable import NoteTakerServer

/// Sealing kept versions again after a rotation (docs/encryption.md §2.3): the server lists
/// those sealed below a key, and replaces one only with an envelope under a newer key.
@Suite struct ResealingTests {
    /// An envelope's fields, as a device writes them (the server reads only `$enc` and `$key`).
    static func envelope(key: Int, _ salt: String) -> RecordFields {
        ["$enc": .number(1), "$zone": .string("private"), "$key": .number(Double(key)), "$salt": .string(salt), "$sealed": .string("sealed-\(salt)")]
    }

    /// Registers an end-to-end encrypted account; its token.
    static func encryptedAccount(_ name: String, _ client: some TestClientProtocol) async throws -> String {
        let response = try await client.send(.post, "/v1/accounts", json: Credentials(username: name, password: "a login secret", keys: AccountKeysTests.keys()))
        #expect(response.status == .created)
        return try response.decode(SessionResponse.self).token
    }

    /// Saves a note twice, sealed with `keys` (the first kept as a version); the kept version's change tag.
    static func noteWithVersion(_ id: UUID, keys: (Int, Int), token: String, _ client: some TestClientProtocol) async throws -> String {
        let first = try await client.modify(token, [RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: nil, fields: envelope(key: keys.0, "first-\(id)"))])
        let tag = try #require(first.results[0].changeTag)
        _ = try await client.modify(token, [RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: tag, fields: envelope(key: keys.1, "edit-\(id)"))])
        return tag
    }

    private func page(_ client: some TestClientProtocol, _ token: String, below: Int, after: String? = nil) async throws -> KeptVersionsPage {
        let query = after.map { "&after=\($0)" } ?? ""
        let response = try await client.send(.get, "/v1/accounts/current/versions?sealedBelow=\(below)\(query)", token: token)
        #expect(response.status == .ok)
        return try response.decode(KeptVersionsPage.self)
    }

    private func usedBytes(_ client: some TestClientProtocol, _ token: String) async throws -> Int64 {
        try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self).usedBytes
    }

    @Test("the versions sealed below a key are listed, and each is replaced once, by an envelope under a newer key only")
    func listAndReplace() async throws {
        try await TestServer().test { client in
            let token = try await Self.encryptedAccount("grace", client)
            let (a, b, c) = (UUID(), UUID(), UUID())
            let tagA = try await Self.noteWithVersion(a, keys: (1, 1), token: token, client)
            let tagB = try await Self.noteWithVersion(b, keys: (1, 2), token: token, client)
            _ = try await Self.noteWithVersion(c, keys: (2, 2), token: token, client)

            let listed = try await page(client, token, below: 2)
            #expect(Set(listed.versions.map(\.recordId)) == [a, b], "the version sealed with key 2 already is left out")
            #expect(listed.next == nil)
            #expect(listed.versions.first { $0.recordId == a }?.fields == Self.envelope(key: 1, "first-\(a)"))
            #expect(try await page(client, token, below: 1).versions.isEmpty)

            let used = try await usedBytes(client, token)
            let resealed = Self.envelope(key: 2, "resealed, a longer salt")
            let replaced = try await client.send(.put, "/v1/records/\(a)/versions", token: token, json: ResealedVersion(changeTag: tagA, fields: resealed))
            #expect(replaced.status == .noContent)
            let kept = try await client.send(.get, "/v1/records/\(a)/versions", token: token).decode(RecordVersionsResponse.self).versions
            #expect(kept.map(\.fields) == [resealed] && kept.map(\.changeTag) == [tagA], "the same version, under the same change tag")
            let grown = Int64(resealed.wireJSON.utf8.count - Self.envelope(key: 1, "first-\(a)").wireJSON.utf8.count)
            #expect(try await usedBytes(client, token) == used + grown, "the account's usage follows the new size")
            #expect(try await page(client, token, below: 2).versions.map(\.recordId) == [b])

            // Sent twice, or with a key no newer: refused, nothing changed.
            for fields in [resealed, Self.envelope(key: 1, "older")] {
                let again = try await client.send(.put, "/v1/records/\(a)/versions", token: token, json: ResealedVersion(changeTag: tagA, fields: fields))
                #expect(again.status == .conflict && again.errorCode == .sealedAlready)
            }
            let refusals: [(ResealedVersion, HTTPResponse.Status)] = [
                (ResealedVersion(changeTag: tagB, fields: ["title": .string("plaintext")]), .badRequest),
                (ResealedVersion(changeTag: tagB, fields: ["$enc": .number(1), "$key": .string("2")]), .badRequest),
                (ResealedVersion(changeTag: "a tag", fields: Self.envelope(key: 2, "x")), .badRequest),
                (ResealedVersion(changeTag: "999999", fields: Self.envelope(key: 2, "x")), .notFound),
            ]
            for (body, status) in refusals {
                #expect(try await client.send(.put, "/v1/records/\(b)/versions", token: token, json: body).status == status)
            }
            #expect(try await page(client, token, below: 2).versions.map(\.fields) == [Self.envelope(key: 1, "first-\(b)")], "nothing changed")
            #expect(try await usedBytes(client, token) == used + grown)
        }
    }

    @Test("a page of versions holds about 8 MB of fields at most, so that a device can read it; the next page goes on after it")
    func pagesStayReadable() async throws {
        try await TestServer().test { client in
            let token = try await Self.encryptedAccount("grace", client)
            let large = String(repeating: "A", count: 900_000)
            for index in 0..<10 {
                let id = UUID()
                var fields = Self.envelope(key: 1, "n\(index)")
                fields["$sealed"] = .string(large)
                let first = try await client.modify(token, [RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: nil, fields: fields)])
                _ = try await client.modify(token, [RecordChange(
                    recordType: "note", recordId: id, operation: .save, baseChangeTag: first.results[0].changeTag, fields: Self.envelope(key: 1, "e"))])
            }
            let first = try await page(client, token, below: 2)
            #expect(first.versions.count == 8 && first.next != nil, "\(first.versions.count)")
            let second = try await page(client, token, below: 2, after: first.next)
            #expect(second.versions.count == 2 && second.next == nil)
            #expect(Set(first.versions.map(\.recordId)).isDisjoint(with: second.versions.map(\.recordId)))
        }
    }

    @Test("an encrypted account takes only sealed saves: a batch with an unencrypted one is refused whole, and nothing is kept")
    func sealedSavesOnly() async throws {
        try await TestServer().test { client in
            let token = try await Self.encryptedAccount("grace", client)
            let (sealed, plain) = (UUID(), UUID())
            let batch = [
                RecordChange(recordType: "note", recordId: sealed, operation: .save, baseChangeTag: nil, fields: Self.envelope(key: 1, "s")),
                RecordChange(recordType: "note", recordId: plain, operation: .save, baseChangeTag: nil, fields: ["title": .string("Diagnosis")]),
            ]
            let refused = try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(requestId: UUID(), changes: batch))
            #expect(refused.status == .badRequest && refused.errorCode == .badRequest)
            #expect(try await client.changes(token).records.isEmpty, "nothing of the batch was kept")
            let saved = try await client.modify(token, [batch[0]])
            #expect(saved.results.map(\.outcome) == [.saved])
            let deletion = RecordChange(recordType: "note", recordId: sealed, operation: .delete, baseChangeTag: saved.results[0].changeTag, fields: nil)
            #expect(try await client.modify(token, [deletion]).results.map(\.outcome) == [.saved], "a deletion carries no plaintext")

            let open = try await client.register("ada")
            #expect(try await client.modify(open, [batch[1]]).results.map(\.outcome) == [.saved], "an account without encryption takes plaintext")
        }
    }

    @Test("another account's versions can be neither listed nor replaced; an account without encryption has none to reseal")
    func isolation() async throws {
        try await TestServer().test { client in
            let grace = try await Self.encryptedAccount("grace", client)
            let id = UUID()
            let tag = try await Self.noteWithVersion(id, keys: (1, 1), token: grace, client)
            let mallory = try await Self.encryptedAccount("mallory", client)
            #expect(try await page(client, mallory, below: 2).versions.isEmpty)
            let taken = try await client.send(.put, "/v1/records/\(id)/versions", token: mallory, json: ResealedVersion(changeTag: tag, fields: Self.envelope(key: 2, "m")))
            #expect(taken.status == .notFound)
            #expect(try await page(client, grace, below: 2).versions.map(\.fields) == [Self.envelope(key: 1, "first-\(id)")])

            let plain = try await client.register("ada")
            #expect(try await client.send(.get, "/v1/accounts/current/versions?sealedBelow=2", token: plain).status == .notFound)
            #expect(try await client.send(.put, "/v1/records/\(id)/versions", token: plain,
                                          json: ResealedVersion(changeTag: tag, fields: Self.envelope(key: 2, "p"))).status == .notFound)
            #expect(try await client.send(.get, "/v1/accounts/current/versions?sealedBelow=2").status == .unauthorized)
        }
    }

    @Test("the versions come a stretch at a time, each once, to the last; a cursor no page wrote is refused")
    func stretches() async throws {
        try await TestServer().test { client in
            let token = try await Self.encryptedAccount("grace", client)
            let count = KeptVersionsPage.maximumStretch + 3
            let ids = (0..<count).map { _ in UUID() }
            let first = try await client.modify(token, ids.map { RecordChange(recordType: "note", recordId: $0, operation: .save, baseChangeTag: nil, fields: Self.envelope(key: 1, "a")) })
            _ = try await client.modify(token, zip(ids, first.results).map { id, result in
                RecordChange(recordType: "note", recordId: id, operation: .save, baseChangeTag: result.changeTag, fields: Self.envelope(key: 1, "b"))
            })
            var seen: [UUID] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try await page(client, token, below: 2, after: after)
                seen += page.versions.map(\.recordId)
                after = page.next
                pages += 1
            } while after != nil && pages < 10
            #expect(pages == 2)
            #expect(seen.count == count && Set(seen) == Set(ids))
            for query in ["sealedBelow=0", "sealedBelow=two", "", "sealedBelow=2&after=nonsense", "sealedBelow=2&after=\(ids[0].key).1x",
                          "sealedBelow=2&after=\(ids[0].uuidString).1"] {
                #expect(try await client.send(.get, "/v1/accounts/current/versions?\(query)", token: token).status == .badRequest, "\(query)")
            }
        }
    }
}

/// Sealing files again after a rotation: the server lists those whose header names an older
/// key, and replaces one in place only with the same-sized file under a newer key.
@Suite struct FileResealingTests {
    /// A sealed file's bytes as the server sees them: the header (`NTF1`, the key version,
    /// a salt) and `body`.
    static func sealedFile(key: UInt32, _ body: String, salt: UInt8 = 1) -> Data {
        Data("NTF1".utf8) + withUnsafeBytes(of: key.bigEndian) { Data($0) } + Data(repeating: salt, count: 32) + Data(body.utf8)
    }

    static func address() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    private func upload(_ client: some TestClientProtocol, _ token: String, _ address: String, _ bytes: Data, resealed: String? = nil) async throws -> TestResponse {
        let query = resealed.map { "?resealed=\($0)" } ?? ""
        return try await client.execute(uri: "/v1/assets/\(address)\(query)", method: .put,
                                        headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(data: bytes))
    }

    private func listed(_ client: some TestClientProtocol, _ token: String, below: Int) async throws -> [String] {
        let response = try await client.send(.get, "/v1/accounts/current/files?sealedBelow=\(below)", token: token)
        #expect(response.status == .ok)
        return try response.decode(KeptFilesPage.self).addresses
    }

    @Test("the files sealed below a key are listed; each is replaced in place by the same-sized file under a newer key, once")
    func listAndReplace() async throws {
        try await TestServer().test { client in
            let token = try await ResealingTests.encryptedAccount("grace", client)
            let (old, current) = (Self.address(), Self.address())
            #expect(try await upload(client, token, old, Self.sealedFile(key: 1, "a photo")).status == .noContent)
            #expect(try await upload(client, token, current, Self.sealedFile(key: 2, "a scan")).status == .noContent)
            #expect(try await listed(client, token, below: 2) == [old])
            #expect(try await listed(client, token, below: 1).isEmpty)
            let used = try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self).usedBytes

            let resealed = Self.sealedFile(key: 2, "b photo", salt: 9)
            #expect(try await upload(client, token, old, resealed, resealed: "true").status == .noContent)
            let downloaded = try await client.send(.get, "/v1/assets/\(old)", token: token)
            #expect(Data(buffer: downloaded.body) == resealed, "the new bytes, at the same address")
            #expect(try await listed(client, token, below: 2).isEmpty)
            #expect(try await client.send(.get, "/v1/accounts/current", token: token).decode(AccountStatus.self).usedBytes == used)

            let refusals: [(Data, String, HTTPResponse.Status)] = [
                (Self.sealedFile(key: 2, "c photo"), "true", .conflict),
                (Self.sealedFile(key: 1, "c photo"), "true", .conflict),
                (Self.sealedFile(key: 3, "short"), "true", .conflict),
                (Self.sealedFile(key: 3, "a longer photo"), "true", .badRequest),
                (Self.sealedFile(key: 3, "c photo"), "perhaps", .badRequest),
            ]
            for (bytes, flag, status) in refusals {
                let answer = try await upload(client, token, old, bytes, resealed: flag)
                #expect(answer.status == status, "\(flag) \(bytes.count)")
                if status == .conflict { #expect(answer.errorCode == .sealedAlready) }
            }
            #expect(Data(buffer: try await client.send(.get, "/v1/assets/\(old)", token: token).body) == resealed, "nothing changed")
            #expect(try await upload(client, token, Self.address(), Self.sealedFile(key: 3, "x"), resealed: "true").status == .notFound)
            for query in ["sealedBelow=0", "", "sealedBelow=2&after=nonsense"] {
                #expect(try await client.send(.get, "/v1/accounts/current/files?\(query)", token: token).status == .badRequest, "\(query)")
            }
        }
    }

    @Test("a file another account holds too is replaced by neither; an account without encryption replaces nothing")
    func isolation() async throws {
        try await TestServer().test { client in
            let grace = try await ResealingTests.encryptedAccount("grace", client)
            let address = Self.address()
            let original = Self.sealedFile(key: 1, "grace's photo")
            #expect(try await upload(client, grace, address, original).status == .noContent)
            let mallory = try await ResealingTests.encryptedAccount("mallory", client)
            #expect(try await listed(client, mallory, below: 2).isEmpty)
            #expect(try await upload(client, mallory, address, Self.sealedFile(key: 2, "mallory's bytes")).status == .noContent, "taken as already held")
            #expect(try await upload(client, mallory, address, Self.sealedFile(key: 2, "mallory's photo"), resealed: "true").status == .notFound)
            #expect(try await upload(client, grace, address, Self.sealedFile(key: 2, "grace's Photo"), resealed: "true").status == .notFound)
            #expect(Data(buffer: try await client.send(.get, "/v1/assets/\(address)", token: grace).body) == original)

            let plain = try await client.register("ada")
            #expect(try await client.send(.get, "/v1/accounts/current/files?sealedBelow=2", token: plain).status == .notFound)
        }
    }
}
