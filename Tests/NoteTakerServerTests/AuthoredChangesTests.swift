import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

/// A fetch that names its device and its authored token leaves out that device's own
/// changes up to the token, and nothing else.
@Suite("Authored changes")
struct AuthoredChangesTests {
    @Test("a device's own saves are left out up to its token; later ones, and others', come")
    func ownChangesLeftOut() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let (laptop, phone) = (UUID(), UUID())
            let first = try await send(client, token, [noteSave(title: "laptop 1"), noteSave(title: "laptop 2")], device: laptop)
            let authored = try #require(first.authoredToken)
            _ = try await send(client, token, [noteSave(title: "phone 1")], device: phone)
            let later = try await send(client, token, [noteSave(title: "laptop 3")], device: laptop)

            // The laptop with the token of its first batch: its first two notes are left out.
            let page = try await fetch(client, token, device: laptop, authored: authored)
            #expect(page.records.map { $0.fields["title"] } == [.string("phone 1"), .string("laptop 3")])
            // With its newest token only the phone's note comes; the token still covers all.
            let newest = try await fetch(client, token, device: laptop, authored: try #require(later.authoredToken))
            #expect(newest.records.map { $0.fields["title"] } == [.string("phone 1")])
            #expect(try await client.changes(token, since: newest.token).records.isEmpty)
            // Another device, or none named, gets everything.
            #expect(try await fetch(client, token, device: phone, authored: authored).records.count == 4)
            #expect(try await client.changes(token).records.count == 4)
            // A token from another server leaves nothing out.
            #expect(try await fetch(client, token, device: laptop, authored: "another-server:99").records.count == 4)
        }
    }

    @Test("a malformed device id is refused with a clear error")
    func malformedDevice() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let response = try await client.send(.get, "/v1/changes?device=laptop", token: token)
            #expect(response.status == .badRequest)
            #expect(try response.decode(APIErrorBody.self).message.contains("device must be a UUID"))
        }
    }

    private func send(_ client: some TestClientProtocol, _ token: String, _ changes: [RecordChange], device: UUID) async throws -> ModifyResponse {
        let response = try await client.send(.post, "/v1/records/modify", token: token, json: ModifyRequest(changes: changes, deviceId: device))
        #expect(response.status == .ok)
        return try response.decode(ModifyResponse.self)
    }

    private func fetch(_ client: some TestClientProtocol, _ token: String, device: UUID, authored: String) async throws -> ChangesResponse {
        let query = "device=\(device.uuidString)&authored=\(authored.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? authored)"
        let response = try await client.send(.get, "/v1/changes?\(query)", token: token)
        #expect(response.status == .ok)
        return try response.decode(ChangesResponse.self)
    }
}
