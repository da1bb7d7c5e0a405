import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/notes/{id}/links` and `/backlinks`: the notes a note links to, and those that link
/// to it (with the line around each link); `/api/v1/notes/titled` finds a note by its title, as
/// a `[[Title]]` link names it.
struct LinkRoutes {
    let stores: WebStores

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/notes/:id/links") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            return try JSON.response(try storeCall { () throws(NoteTakerError) in try store.links(from: id) })
        }
        router.get("/api/v1/notes/:id/backlinks") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            return try JSON.response(try storeCall { () throws(NoteTakerError) in try store.backlinks(to: id) })
        }
        router.get("/api/v1/titles") { request, _ in
            let store = try stores.store(for: request)
            // The titles that start with what was typed after `[[`, for completing a link.
            let prefix = request.uri.form("prefix") ?? ""
            let limit = try request.integer("limit", default: 10, in: 1...50)
            return try JSON.response(try storeCall { () throws(NoteTakerError) in try store.notesTitled(prefix: prefix, limit: limit) })
        }
    }
}
