import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// Publishing notes (docs/sharing.md §5): a page sealed here with a key that only its link
/// carries, kept by the account's sync server, which serves it to anyone with the link.
extension NoteStore {
    /// Publishes `content`, the rendered page of note `noteId` as of `noteModifiedAt`, on the
    /// account's server. A note published before from this device keeps its link: the page
    /// is sealed again with its key and put in its place. The page and its key are kept here
    /// (``PublishedNote``).
    public func publishNote(_ noteId: UUID, content: PublishedPageContent, noteModifiedAt: Date) async throws(SyncError) -> PublishedNote {
        let transport = try syncTransport()
        let before = try published(noteId)
        if let before, before.server != transport.server { throw .publishedElsewhere(server: before.server.absoluteString) }
        var page = before ?? PublishedNote(
            noteId: noteId, pageId: PublishedPageSeal.newID(), key: PublishedPageSeal.newKey(), server: transport.server,
            publishedAt: sources.now, noteModifiedAt: noteModifiedAt)
        (page.publishedAt, page.noteModifiedAt) = (sources.now, noteModifiedAt)
        let blob: Data
        do { blob = try PublishedPageSeal.seal(try content.plaintext(), id: page.pageId, key: page.key) } catch {
            throw .store(.database("the page could not be sealed (\(error))"))
        }
        guard blob.count <= SyncLimits.maxPublishedBytes else {
            throw .pageTooLarge(bytes: Int64(blob.count), limit: Int64(SyncLimits.maxPublishedBytes))
        }
        try await transport.publishPage(id: page.pageId, blob: blob)
        do { try keepPublished(page) } catch { throw .store(error) }
        return page
    }

    /// Unpublishes note `noteId`: its page is deleted on the server (its link answers that it
    /// is no longer published) and its link forgotten here. ``SyncError/notPublished`` when
    /// this device did not publish it.
    public func unpublishNote(_ noteId: UUID) async throws(SyncError) {
        guard let page = try published(noteId) else { throw .notPublished }
        let transport = try syncTransport()
        guard page.server == transport.server else { throw .publishedElsewhere(server: page.server.absoluteString) }
        try await transport.unpublishPage(id: page.pageId)
        do { try forgetPublished(noteId) } catch { throw .store(error) }
    }

    /// Deletes the account's page `pageId` on the server, whichever device published it (and
    /// forgets its link, if this device published it); `false` when the server held none.
    @discardableResult
    public func unpublishPage(_ pageId: String) async throws(SyncError) -> Bool {
        guard PublishedPageID.isValid(pageId) else {
            throw .server(code: APIErrorCode.badRequest.rawValue, message: "'\(pageId)' is not a published page's id (22 base64url characters).")
        }
        let deleted = try await syncTransport().unpublishPage(id: pageId)
        do {
            if let page = try publishedNotes().first(where: { $0.pageId == pageId }) { try forgetPublished(page.noteId) }
        } catch {
            throw .store(error)
        }
        return deleted
    }

    /// The account's published pages as its server lists them, from every device.
    public func publishedPagesOnServer() async throws(SyncError) -> [PublishedPageSummary] {
        try await syncTransport().publishedPages()
    }

    private func published(_ noteId: UUID) throws(SyncError) -> PublishedNote? {
        do { return try publishedNote(noteId) } catch { throw .store(error) }
    }
}
