import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync

/// `/api/v1/notes/{id}/publication`: a note published as a page anyone with its link can read
/// (docs/sharing.md §5): whether it is and at which link (`204` when this device did not
/// publish it), publishing it (again, at the same link), and taking it down.
struct PublishRoutes {
    let store: NoteStore

    /// A note's page as the app shows it.
    struct PublicationJSON: Encodable {
        /// The link, with the page's key after `#`.
        var link: String
        var publishedAt: Date
        /// The note changed since it was published: the page shows an older version.
        var outdated: Bool
    }

    func register(on router: Router<BasicRequestContext>) {
        let publication = router.group("/api/v1/notes/:id/publication")
        publication.get { request, context in
            let id = try context.identifier()
            let (note, page) = try storeCall { () throws(NoteTakerError) in (try store.note(id: id), try store.publishedNote(id)) }
            // Not published from this device: no page to show (an answer, not an error).
            guard let page else { return Response(status: .noContent) }
            return try JSON.response(Self.json(page, note: note), language: request.language)
        }
        publication.post { request, context in
            let id = try context.identifier()
            let page = try await publishing { () throws(SyncError) in try await NotePage.publish(id, in: store) }
            let note = try storeCall { () throws(NoteTakerError) in try store.note(id: id) }
            return try JSON.response(Self.json(page, note: note), language: request.language)
        }
        publication.delete { _, context in
            let id = try context.identifier()
            try await publishing { () throws(SyncError) in try await store.unpublishNote(id) }
            return Response(status: .noContent)
        }
    }

    private static func json(_ page: PublishedNote, note: Note) -> PublicationJSON {
        PublicationJSON(link: page.link, publishedAt: page.publishedAt, outdated: note.modifiedAt > page.noteModifiedAt)
    }

    private func publishing<T>(_ body: () async throws(SyncError) -> T) async throws(WebAPIError) -> T {
        do throws(SyncError) {
            return try await body()
        } catch {
            throw WebAPIError(error)
        }
    }
}
