import Foundation
import Hummingbird
import HummingbirdTesting
@testable import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@Suite("Sessions: listed and ended by their owner")
struct SessionListTests {
    private func logIn(_ client: any TestClientProtocol, _ username: String, device: String?) async throws -> String {
        let response = try await client.send(.post, "/v1/sessions", json: Credentials(username: username, password: "correct horse", deviceName: device))
        #expect(response.status == .created)
        return try response.decode(SessionResponse.self).token
    }

    private func sessions(_ client: any TestClientProtocol, _ token: String) async throws -> [SessionInfo] {
        let response = try await client.send(.get, "/v1/sessions", token: token)
        #expect(response.status == .ok)
        return try response.decode(SessionList.self).sessions
    }

    @Test("each device's session is listed with its name, this one marked; ending one refuses its token at once")
    func listAndEnd() async throws {
        try await TestServer().test { client in
            let laptop = try await client.register("ada")
            let phone = try await logIn(client, "ada", device: "  Ada's phone  ")
            let listed = try await sessions(client, laptop)
            #expect(listed.count == 2)
            #expect(listed.map(\.deviceName).contains("Ada's phone"), "names are kept trimmed")
            #expect(listed.filter(\.current).count == 1 && listed.first(where: \.current)?.deviceName == nil)
            #expect(listed.allSatisfy { $0.id.count == 16 && $0.id.allSatisfy(\.isHexDigit) })
            #expect(listed.allSatisfy { !phone.contains($0.id) && !laptop.contains($0.id) }, "an id is not part of a token")

            let phoneId = try #require(listed.first { $0.deviceName == "Ada's phone" }?.id)
            #expect(try await client.send(.delete, "/v1/sessions/\(phoneId)", token: laptop).status == .noContent)
            let refused = try await client.send(.get, "/v1/changes", token: phone)
            #expect(refused.status == .unauthorized)
            #expect(try await sessions(client, laptop).map(\.current) == [true])
            // Ending it again, or a session that never was: 404, nothing else changes.
            for id in [phoneId, "0123456789abcdef", "current-not-hex", String(phoneId.prefix(8))] {
                let again = try await client.send(.delete, "/v1/sessions/\(id)", token: laptop)
                #expect(again.status == .notFound, "\(id)")
            }
            #expect(try await client.send(.get, "/v1/changes", token: laptop).status == .ok)
            // The route for logging out this session is still the one that answers /current.
            #expect(try await client.send(.delete, "/v1/sessions/current", token: laptop).status == .noContent)
            #expect(try await client.send(.get, "/v1/changes", token: laptop).status == .unauthorized)
        }
    }

    @Test("another account's sessions cannot be listed or ended")
    func otherAccounts() async throws {
        try await TestServer().test { client in
            let ada = try await client.register("ada")
            let eve = try await client.register("eve")
            let adaId = try #require(try await sessions(client, ada).first?.id)
            #expect(try await sessions(client, eve).map(\.id) != [adaId])
            let attempt = try await client.send(.delete, "/v1/sessions/\(adaId)", token: eve)
            #expect(attempt.status == .notFound)
            #expect(try await client.send(.get, "/v1/changes", token: ada).status == .ok)
        }
    }

    @Test("a device name too long or with control characters is refused, and no session starts")
    func badDeviceNames() async throws {
        try await TestServer().test { client in
            let ada = try await client.register("ada")
            for name in [String(repeating: "n", count: Credentials.maximumDeviceNameLength + 1), "tab\there", "bell\u{7}", "two\nlines"] {
                let response = try await client.send(.post, "/v1/sessions", json: Credentials(username: "ada", password: "correct horse", deviceName: name))
                #expect(response.status == .badRequest, "\(name)")
            }
            #expect(try await sessions(client, ada).count == 1)
        }
    }

    @Test("a session renames itself, with a name as typed or one sealed; a bad name changes nothing")
    func nameTheSession() async throws {
        try await TestServer().test { client in
            let ada = try await client.register("ada")
            let other = try await logIn(client, "ada", device: "Other")
            let name = { (text: String?) in try await client.send(.put, "/v1/sessions/current", token: ada, json: SessionName(deviceName: text)) }
            #expect(try await name("  Study desktop ").status == .noContent)
            #expect(try await sessions(client, ada).first(where: \.current)?.deviceName == "Study desktop")
            let sealed = "nt1." + String(repeating: "Ab3_-", count: 100)
            #expect(try await name(sealed).status == .noContent, "kept as it is, unread")
            #expect(try await sessions(client, ada).first(where: \.current)?.deviceName == sealed)
            for bad in [String(repeating: "n", count: Credentials.maximumDeviceNameLength + 1), "tab\there",
                        "nt1." + String(repeating: "A", count: SessionName.maximumSealedLength), "nt1." + String(repeating: "not base64url ", count: 10)] {
                #expect(try await name(bad).status == .badRequest, "\(bad)")
            }
            #expect(try await sessions(client, ada).first(where: \.current)?.deviceName == sealed, "a refused name changes nothing")
            #expect(try await name(nil).status == .noContent)
            let listed = try await sessions(client, other)
            #expect(listed.first(where: \.current)?.deviceName == "Other", "only the asking session is named")
            #expect(listed.first { !$0.current }?.deviceName == nil)
            let anonymous = try await client.send(.put, "/v1/sessions/current", json: SessionName(deviceName: "x"))
            #expect(anonymous.status == .unauthorized)
        }
    }
}
