import AsyncHTTPClient
import Foundation
import NIOCore
import NoteTakerKit
import NoteTakerSyncProtocol

/// Published pages on the server (docs/sharing.md §5.3).
extension HTTPSyncTransport {
    /// Puts a sealed page at `id`, in place of the account's page of that id.
    public func publishPage(id: String, blob: Data) async throws(SyncError) {
        var request = makeRequest(SyncAPI.publishPage, id: id)
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .bytes(ByteBuffer(bytes: blob))
        _ = try await send(request, accepting: [204], limit: Self.errorBodyBytes)
    }

    /// Deletes the account's page `id`; `false` when the server holds none (unpublished already).
    @discardableResult
    public func unpublishPage(id: String) async throws(SyncError) -> Bool {
        try await send(makeRequest(SyncAPI.unpublishPage, id: id), accepting: [204, 404], limit: Self.errorBodyBytes).1 == 204
    }

    /// The account's published pages, as the server lists them.
    public func publishedPages() async throws(SyncError) -> [PublishedPageSummary] {
        try await json([PublishedPageSummary].self, SyncAPI.publishedPages)
    }
}
