import Foundation
import NoteTakerSyncProtocol

/// Published pages (docs/sharing.md §5.3): the server keeps each sealed, for its account, and
/// gives it to anyone who has its id; it never sees a page's key.
extension SyncService {
    /// Keeps the sealed page `blob` at `id` for the account (in place of its page of that id),
    /// after checking what the server can check of it.
    public func publishPage(id: String, blob: Data, for account: StoredAccount) async throws(SyncServerError) {
        try Self.validate(pageID: id)
        if let problem = PublishedPageID.problem(withBlob: blob) {
            throw blob.count > SyncLimits.maxPublishedBytes ? SyncServerError(.tooLarge, problem + " Nothing was stored.") : .badRequest(problem + " Nothing was stored.")
        }
        let quota = quota(of: account)
        try await storing { try await storage.publishPage(id: id, blob: blob, account: account.id, quota: quota) }
    }

    /// The account's published pages, oldest first.
    public func publishedPages(of account: StoredAccount) async throws(SyncServerError) -> [PublishedPageSummary] {
        try await storing { try await storage.publishedPages(account: account.id) }
    }

    /// Deletes one of the account's published pages: its link answers `404` from then on.
    public func unpublishPage(id: String, for account: StoredAccount) async throws(SyncServerError) {
        try Self.validate(pageID: id)
        guard try await storing({ try await storage.unpublishPage(id: id, account: account.id) }) else {
            throw SyncServerError(.notFound, "This account has no published page \(id): it was unpublished already, or never published.")
        }
    }

    /// A published page's sealed blob, to anyone.
    public func publishedPage(id: String) async throws(SyncServerError) -> Data {
        try Self.validate(pageID: id)
        guard let blob = try await storing({ try await storage.publishedPage(id: id) }) else {
            throw SyncServerError(.notFound, "No page is published at this address: it was unpublished, or the link is mistyped.")
        }
        return blob
    }

    /// Whether a page is published at `id` (a malformed id has none).
    public func publishedPageExists(id: String) async throws(SyncServerError) -> Bool {
        guard PublishedPageID.isValid(id) else { return false }
        return try await storing { try await storage.publishedPageExists(id: id) }
    }

    private static func validate(pageID id: String) throws(SyncServerError) {
        guard PublishedPageID.isValid(id) else {
            throw .badRequest("A published page's id is 22 base64url characters (16 bytes); '\(id.prefix(40))' is not one.")
        }
    }
}
