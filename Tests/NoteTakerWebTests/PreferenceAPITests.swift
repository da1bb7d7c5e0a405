import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerKit
@testable import NoteTakerWeb
import Testing

/// `/api/v1/preferences`: a single line break shows as one unless turned off, in the note's
/// HTML and in the editor's preview alike; bad input changes nothing.
@Suite struct PreferenceAPITests {
    @Test func lineBreaksShowUnlessTurnedOff() async throws {
        let app = try WebTestApp()
        let note = try app.store.createNote(NoteDraft(title: "Poem", body: "roses are red\nviolets are blue"))
        try await app.test { client in
            #expect(try await client.send(.get, "/api/v1/preferences").object["lineBreaks"] as? Bool == true)
            let shown = try await client.send(.get, "/api/v1/notes/\(note.id)").object["html"] as? String
            #expect(shown?.contains("red<br") == true, "\(shown ?? "")")
            let previewed = try await client.send(.post, "/api/v1/render", json: ["markdown": "a\nb"]).object["html"] as? String
            #expect(previewed?.contains("a<br") == true)

            let changed = try await client.send(.put, "/api/v1/preferences", json: ["lineBreaks": false])
            #expect(changed.status == .ok)
            #expect(changed.object["lineBreaks"] as? Bool == false)
            let html = try #require(try await client.send(.get, "/api/v1/notes/\(note.id)").object["html"] as? String)
            #expect(!html.contains("<br"), "\(html)")
            #expect(html.contains("red\nviolets"))
            let plain = try await client.send(.post, "/api/v1/render", json: ["markdown": "a\nb"]).object["html"] as? String
            #expect(plain?.contains("<br") == false)

            // Nothing given changes nothing.
            #expect(try await client.send(.put, "/api/v1/preferences", json: [String: String]()).object["lineBreaks"] as? Bool == false)
        }
        #expect(try app.store.preferences() == Preferences(lineBreaks: false))
    }

    @Test func badInputIsAClearErrorAndChangesNothing() async throws {
        let app = try WebTestApp()
        try app.store.setPreferences(Preferences(lineBreaks: false))
        try await app.test { client in
            for body in [#"{"lineBreaks": "yes"}"#, #"{"lineBreaks": 1}"#, "[true]", "not json"] {
                let response = try await client.send(.put, "/api/v1/preferences", raw: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.object["message"] as? String != nil, "\(body)")
            }
        }
        #expect(try app.store.preferences() == Preferences(lineBreaks: false))
    }
}
