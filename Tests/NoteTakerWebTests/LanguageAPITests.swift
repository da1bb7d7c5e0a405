import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// The web API words the errors a person may meet in the language the request asks for
/// (`Accept-Language`, which the page sets); its codes stay the same in every language.
@Suite struct LanguageAPITests {
    @Test func anErrorIsWordedInTheRequestsLanguage() async throws {
        let app = try WebTestApp()
        _ = try app.store.createFolder(name: "Work")
        try await app.test { client in
            let english = try await client.send(.post, "/api/v1/folders", json: ["name": "Work"])
            #expect(english.status == .conflict && english.errorCode == "conflict")
            #expect(english.object["message"] as? String == "A folder named 'Work' already exists at the top level.")
            let french = try await client.send(.post, "/api/v1/folders", json: ["name": "Work"], headers: [.acceptLanguage: "fr-CH, fr;q=0.9, en;q=0.8"])
            #expect(french.status == .conflict && french.errorCode == "conflict")
            #expect(french.object["message"] as? String == "Un dossier nommé « Work » existe déjà au premier niveau.")
            let chinese = try await client.send(.get, "/api/v1/notes/\(UUID())", headers: [.acceptLanguage: "zh-CN"])
            #expect(chinese.status == .notFound)
            #expect((chinese.object["message"] as? String)?.hasPrefix("没有与") == true, "\(chinese.object)")
            let unknown = try await client.send(.post, "/api/v1/folders", json: ["name": "Work"], headers: [.acceptLanguage: "ja"])
            #expect(unknown.object["message"] as? String == english.object["message"] as? String, "a language not spoken here is English")
        }
    }

    @Test func theSyncStatusSaysItsLastFailureInTheRequestsLanguage() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let refused = try await client.send(.post, "/api/v1/sync/account", json: [
                "server": "http://127.0.0.1:9", "username": "grace", "password": "a long password",
            ], headers: [.acceptLanguage: "de"])
            #expect(refused.status == .badGateway)
            #expect((refused.object["message"] as? String)?.hasPrefix("Der Synchronisierungsserver ist nicht erreichbar") == true, "\(refused.object)")
            #expect(try app.store.syncSettings().hasAccount == false, "a refused log-in changed nothing")
        }
    }

    @Test func theLastFailedSyncIsKeptAsAWordingAndSaidInTheRequestsLanguage() async throws {
        let app = try WebTestApp()
        try app.store.noteFailedCycle(SyncError.unreachable("connection refused"))
        try await app.test { client in
            let german = try await client.send(.get, "/api/v1/sync", headers: [.acceptLanguage: "de"])
            let failed = try #require((german.object["summary"] as? [String: Any])?["failedCycle"] as? [String: Any])
            #expect(failed["message"] as? String
                == "Der Synchronisierungsserver ist nicht erreichbar (connection refused). Deine Änderungen bleiben hier gespeichert und werden hochgeladen, sobald er wieder da ist.")
            let english = try await client.send(.get, "/api/v1/sync")
            let message = ((english.object["summary"] as? [String: Any])?["failedCycle"] as? [String: Any])?["message"] as? String
            #expect(message?.hasPrefix("The sync server cannot be reached (connection refused).") == true)
        }
        #expect(try app.store.syncSummary().failedCycle?.message(in: .french).hasPrefix("Le serveur de synchronisation est injoignable") == true)
    }

    @Test func anImportGivesItsReasonsInTheRequestsLanguage() async throws {
        let app = try WebTestApp()
        let latin1 = ByteBuffer(bytes: Array("Caf".utf8) + [0xE9, 0x20, 0xFF, 0xFE])
        try await app.test { client in
            let german = try await client.execute(
                uri: "/api/v1/import?name=alt.md", method: .post, headers: [.acceptLanguage: "de-AT"], body: latin1)
            #expect(german.status == .ok)
            let skipped = try #require(german.object["skipped"] as? [[String: Any]])
            #expect(skipped.first?["item"] as? String == "alt.md")
            #expect((skipped.first?["reason"] as? String)?.hasPrefix("die Datei ist kein UTF-8-Text") == true, "\(skipped)")
            let english = try await client.execute(uri: "/api/v1/import?name=alt.md", method: .post, headers: [:], body: latin1)
            let reason = (english.object["skipped"] as? [[String: Any]])?.first?["reason"] as? String
            #expect(reason?.hasPrefix("the file is not UTF-8 text") == true, "\(english.object)")
        }
    }

    @Test func theAPIsOwnComplaintsAboutARequestStayInEnglish() async throws {
        let app = try WebTestApp()
        try await app.test { client in
            let malformed = try await client.send(.post, "/api/v1/folders", raw: "{", headers: [.acceptLanguage: "de"])
            #expect(malformed.status == .badRequest)
            #expect((malformed.object["message"] as? String)?.hasPrefix("The request body is not valid JSON") == true)
        }
    }
}
