import Foundation
import Hummingbird
import HTTPTypes
import NoteTakerSyncProtocol

/// Published pages (docs/sharing.md §5.3): an account puts, lists and deletes its sealed pages;
/// anyone fetches one by id, and the page at `/p/{id}` that opens it in the reader's browser
/// with the key from the link's fragment.
struct PublishedRoutes {
    let service: SyncService

    func register(on router: Router<SyncRequestContext>) {
        router.get("/v1/published") { request, context in
            let (account, _) = try await service.account(of: request, context)
            return try JSONBody.response(try await service.publishedPages(of: account))
        }
        router.put("/v1/published/:id") { request, context in
            let (account, _) = try await service.account(of: request, context)
            let body = try await JSONBody.collect(request, limit: SyncLimits.maxPublishedBytes)
            try await service.publishPage(id: context.parameters.get("id") ?? "", blob: Data(buffer: body), for: account)
            return Response(status: .noContent)
        }
        router.delete("/v1/published/:id") { request, context in
            let (account, _) = try await service.account(of: request, context)
            try await service.unpublishPage(id: context.parameters.get("id") ?? "", for: account)
            return Response(status: .noContent)
        }
        router.get("/v1/published/:id") { _, context in
            let blob = try await service.publishedPage(id: context.parameters.get("id") ?? "")
            var headers = Self.pageHeaders
            headers[.contentType] = "application/octet-stream"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: blob)))
        }
        router.get("/p/:id") { _, context in
            // The same page for every id; its status says whether the server holds the page,
            // and its script says so to the reader.
            let held = try await service.publishedPageExists(id: context.parameters.get("id") ?? "")
            return try Self.file("published-page.html", type: "text/html; charset=utf-8", status: held ? .ok : .notFound)
        }
        router.get("/published-page.js") { _, _ in
            try Self.file("published-page.js", type: "text/javascript; charset=utf-8")
        }
    }

    /// What the reader's browser may do on a published page: run the page's own script, fetch
    /// from this server, show the note (inline styles, pictures inlined) in a frame without
    /// scripts; nothing else, from nowhere else.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "connect-src 'self'", "img-src data:", "style-src 'unsafe-inline'",
        "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'",
    ].joined(separator: "; ")

    /// The headers of the page, its script and its blob: never cached, never indexed, no referrer.
    static let pageHeaders: HTTPFields = [
        .cacheControl: "no-store", HTTPField.Name("X-Robots-Tag")!: "noindex, nofollow", HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .xContentTypeOptions: "nosniff", .contentSecurityPolicy: contentSecurityPolicy,
    ]

    /// One of the page's files, built into the server.
    private static func file(_ name: String, type: String, status: HTTPResponse.Status = .ok) throws -> Response {
        guard let data = EmbeddedFiles.files["Published/" + name] else {
            throw SyncServerError(.internalError, "The server was built without its published page.")
        }
        var headers = pageHeaders
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }
}
