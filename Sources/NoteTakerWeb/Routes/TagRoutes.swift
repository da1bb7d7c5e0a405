import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/tags`: the tags with their counts; renaming (into another tag's name merges the
/// two) and deleting one (its notes stay, without it).
struct TagRoutes {
    let stores: WebStores

    /// The body of `PATCH /tags/{name}`.
    struct TagPatch: Decodable {
        var name: String
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/tags") { request, _ in
            let store = try stores.store(for: request)
            let tags = try storeCall { () throws(NoteTakerError) in try store.tags() }
            return try JSON.response(tags.map { TagJSON(name: $0.tag.name, noteCount: $0.noteCount) })
        }
        router.patch("/api/v1/tags/:name") { request, context in
            let store = try stores.store(for: request)
            let name = Self.name(context)
            let patch = try await JSON.decode(TagPatch.self, from: request)
            let renamed = try storeCall { () throws(NoteTakerError) in try store.renameTag(name, to: patch.name) }
            let count = try storeCall { () throws(NoteTakerError) in try store.tags() }.first { $0.tag.id == renamed.id }?.noteCount ?? 0
            return try JSON.response(TagJSON(name: renamed.name, noteCount: count))
        }
        router.delete("/api/v1/tags/:name") { request, context in
            let store = try stores.store(for: request)
            let name = Self.name(context)
            try storeCall { () throws(NoteTakerError) in try store.deleteTag(name) }
            return Response(status: .noContent)
        }
    }

    /// The `:name` path parameter, percent-decoded (a tag may hold spaces and any letter).
    static func name(_ context: BasicRequestContext) -> String {
        let raw = context.parameters.get("name") ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
