import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/preferences`: how notes are shown (``Preferences``), kept in the store so the
/// preview, print and PDF export agree.
struct PreferenceRoutes {
    let store: NoteStore

    /// The body of `PUT /preferences`: each preference given changes, each left out stays.
    struct Change: Decodable {
        var lineBreaks: Bool?
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/preferences") { _, _ in
            try JSON.response(try storeCall { () throws(NoteTakerError) in try store.preferences() })
        }
        router.put("/api/v1/preferences") { request, _ in
            let change = try await JSON.decode(Change.self, from: request)
            let preferences = try storeCall { () throws(NoteTakerError) in
                var preferences = try store.preferences()
                if let lineBreaks = change.lineBreaks { preferences.lineBreaks = lineBreaks }
                try store.setPreferences(preferences)
                return preferences
            }
            return try JSON.response(preferences)
        }
    }
}
