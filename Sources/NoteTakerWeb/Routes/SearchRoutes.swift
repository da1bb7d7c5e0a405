import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/search`, `/api/v1/render` and `/api/v1/stats`: finding, previewing and counting.
struct SearchRoutes {
    let stores: WebStores

    /// The body of `POST /render`.
    struct RenderRequest: Decodable {
        var markdown: String
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/search") { request, _ in
            let store = try stores.store(for: request)
            let query = SearchQuery(
                request.uri.form("q") ?? "", tag: request.uri.form("tag").flatMap { $0.isEmpty ? nil : $0 },
                folderId: try request.identifier("folder"), pinnedOnly: try request.flag("pinned"),
                prefixLastTerm: true, limit: try request.integer("limit", default: 50, in: 1...500),
                matchesSubstring: try request.flag("contains"))
            let hits = try storeCall { () throws(NoteTakerError) in try store.search(query) }
            return try JSON.response(hits.map { SearchHitJSON(note: NoteSummaryJSON($0.note), snippetHTML: Self.snippetHTML($0)) })
        }
        router.post("/api/v1/render") { request, _ in
            let body = try await JSON.decode(RenderRequest.self, from: request)
            let preferences = try storeCall { () throws(NoteTakerError) in try stores.account.preferences() }
            return try JSON.response(["html": MarkdownRenderer.html(body.markdown, preferences: preferences)])
        }
        router.get("/api/v1/stats") { _, _ in
            try JSON.response(try storeCall { () throws(NoteTakerError) in try stores.account.statistics() })
        }
    }

    /// The snippet as HTML: the text escaped, the matched words in `<mark>`.
    static func snippetHTML(_ hit: SearchHit) -> String {
        HTMLSanitizer.escapeText(hit.snippet)
            .replacingOccurrences(of: SearchHit.highlightStart, with: "<mark>")
            .replacingOccurrences(of: SearchHit.highlightEnd, with: "</mark>")
    }
}
