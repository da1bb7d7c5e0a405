import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// The OpenAPI document is kept true: it lists exactly the routes the server serves, and
/// each schema names exactly the properties the wire types encode.
@Suite("OpenAPI document")
struct OpenAPITests {
    private func document() async throws -> [String: Any] {
        let response = try await TestServer().test { try await $0.send(.get, "/v1/openapi.json") }
        #expect(response.status == .ok)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("the documented routes are the served routes")
    func routes() async throws {
        let paths = try #require(try await document()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        let served = Set(SyncAPI.endpoints.map { "\($0.method) \($0.path)" })
        #expect(documented == served)
        // And every served route answers something other than "no such route".
        try await TestServer().test { client in
            for endpoint in SyncAPI.endpoints {
                let uri = endpoint.path.replacingOccurrences(of: "{hash}", with: String(repeating: "0", count: 64))
                let response = try await client.send(HTTPRequest.Method(endpoint.method)!, uri)
                #expect(response.status == .ok || response.status == .unauthorized || response.status == .badRequest, "\(endpoint)")
            }
        }
    }

    @Test("each schema's properties are the wire type's keys")
    func schemas() async throws {
        let components = try #require(try await document()["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: [String: Any]])
        let record = SyncRecord(recordType: "note", recordId: UUID(), changeTag: "1", deleted: false, fields: ["a": .null], sentAgainFrom: "1")
        let samples: [String: any Encodable] = [
            "SyncRecord": record,
            "ChangesResponse": ChangesResponse(records: [record], token: "t", moreComing: false),
            "RecordChange": RecordChange(recordType: "note", recordId: UUID(), operation: .save, baseChangeTag: "1", fields: [:], derived: true, baseLive: true, sentAgainFrom: "1"),
            "ModifyRequest": ModifyRequest(changes: [], deviceId: UUID(), changeToken: "s:1:0123456789abcdef", authoredToken: "s:1:0123456789abcdef"),
            "RecordResult": RecordResult(recordId: UUID(), recordType: "note", outcome: .error, changeTag: "1", serverRecord: record, message: "m"),
            "ModifyResponse": ModifyResponse(results: [], authoredToken: "t"),
            "Credentials": Credentials(username: "u", password: "p", deviceName: "d", keys: AccountKeysTests.keys(), recoverySecret: AccountRecoveryTests.secret),
            "LoginCredentials": Credentials(username: "u", password: "p", deviceName: "d"),
            "SessionInfo": SessionInfo(id: "0123456789abcdef", deviceName: "d", createdAt: 0, lastUsedAt: 0, current: true),
            "SessionList": SessionList(sessions: []),
            "SessionResponse": SessionResponse(username: "u", token: "t"),
            "PasswordChange": PasswordChange(currentPassword: "a", newPassword: "b", keys: AccountKeysTests.keys()),
            "AccountKeys": { var keys = AccountKeysTests.keys(); keys.identity = AccountIdentityTests.identity(seed: 1); return keys }(),
            "IdentityKeys": AccountIdentityTests.identity(seed: 1),
            "AccountIdentity": AccountIdentityTests.identity(seed: 1).identity,
            "IdentityAddition": IdentityAddition(identity: AccountIdentityTests.identity(seed: 1), password: "p"),
            "RecoverySetup": AccountRecoveryTests.setup(),
            "RecoveryKeysRequest": RecoveryRequest(username: "u", recoverySecret: "s"),
            "RecoveryReset": RecoveryRequest(username: "u", recoverySecret: "s", newPassword: "p", keys: AccountKeysTests.keys()),
            "KDFParameters": KDFParameters.scrypt(salt: Data(count: 16)),
            "LoginParameters": KDFParameters.scrypt(salt: Data(count: 16)),
            "AccountStatus": AccountStatus(username: "u", recordCount: 0, usedBytes: 0, quotaBytes: 0, unsealedRecords: 0),
            "PlaintextDropped": PlaintextDropped(versions: 0, files: 0, tombstones: 0),
            "RecordVersion": RecordVersion(changeTag: "1", replacedAt: 0, fields: [:]),
            "RecordVersionsResponse": RecordVersionsResponse(versions: []),
            "KeptVersion": KeptVersion(recordId: UUID(), changeTag: "1", fields: [:]),
            "KeptVersionsPage": KeptVersionsPage(versions: [], next: "n"),
            "ResealedVersion": ResealedVersion(changeTag: "1", fields: [:]),
            "HealthResponse": HealthResponse(
                status: "unavailable", apiVersion: "v1", serverId: "s", maxBatchSize: 500, version: "1.2.3", database: "unreachable", message: "m"),
            "APIErrorBody": APIErrorBody(error: .badRequest, message: "m"),
            "PublishedPageSummary": PublishedPageSummary(id: "AAAAAAAAAAAAAAAAAAAAAA", size: 32, createdAt: 0),
            "SignedShareMembers": SignedShareMembers(members: "{}", signature: "s"),
            "ZoneKeyBox": ZoneKeyBox(zone: "z", version: 1, member: "m", from: "f", enc: "e", sealed: "s"),
            "ShareSummary": ShareSummary(zone: "z", owner: "o", role: .editor, accepted: false, epoch: 1),
        ]
        for (name, sample) in samples {
            let schema = try #require(schemas[name], "\(name) is not documented")
            let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(sample)) as? [String: Any])
            let documented = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            #expect(Set(encoded.keys) == documented, "\(name)")
        }
        let codes = ((schemas["APIErrorBody"]?["properties"] as? [String: Any])?["error"] as? [String: Any])?["enum"] as? [String]
        #expect(Set(codes ?? []) == Set(APIErrorCode.allCases.map(\.rawValue)))
    }
}

@Suite("Methods a route does not take")
struct MethodNotAllowedTests {
    @Test("a method a route does not take answers 405 with Allow; OPTIONS lists them; an unknown path stays 404")
    func undeclaredMethods() async throws {
        try await TestServer().test { client in
            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/v1/health", "GET, HEAD, OPTIONS"),
                (.post, "/v1/changes", "GET, HEAD, OPTIONS"),
                (.get, "/v1/records/modify", "OPTIONS, POST"),
                (.patch, "/v1/sessions/current", "DELETE, OPTIONS, PUT"),
                (.delete, "/v1/records/\(UUID())/versions", "GET, HEAD, OPTIONS, POST, PUT"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.errorCode == .methodNotAllowed)
            }
            let options = try await client.send(.options, "/v1/accounts/current")
            #expect(options.status == .noContent && options.headers[.allow] == "GET, HEAD, OPTIONS")
            #expect(try await client.send(.delete, "/v1/nothing-here").status == .notFound)
            #expect(try await client.send(.get, "/v1/health").status == .ok)
        }
    }
}
