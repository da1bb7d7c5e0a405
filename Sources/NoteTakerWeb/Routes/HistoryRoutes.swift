import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/notes/{id}/versions`: a note's earlier versions, one with its diff against the
/// note now, and restoring one.
struct HistoryRoutes {
    let stores: WebStores

    /// The versions, and why the server's could not be merged in (`null`: they were, or the
    /// store does not sync).
    struct VersionListJSON: Encodable {
        var versions: [NoteVersion]
        @Nullable var serverProblem: String?
    }

    /// One version in full, with the lines that differ from the note now, and the note's
    /// title now (restoring the version restores its title too).
    struct VersionDetailJSON: Encodable {
        var version: Int64
        var modifiedAt: Date
        var replacedBy: NoteVersion.Replacement
        var title: String
        var currentTitle: String
        var body: String
        var diff: [DiffLineJSON]
    }

    /// A line of a diff: `same`, `removed` (only the version has it) or `added` (only the note now).
    struct DiffLineJSON: Encodable {
        var kind: String
        var text: String

        init(_ line: TextDiff.Line) {
            switch line {
            case .same(let text): (kind, self.text) = ("same", text)
            case .removed(let text): (kind, self.text) = ("removed", text)
            case .added(let text): (kind, self.text) = ("added", text)
            }
        }
    }

    func register(on router: Router<BasicRequestContext>) {
        let versions = router.group("/api/v1/notes/:id/versions")
        versions.get { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let history: (versions: [NoteVersion], serverProblem: SyncError?)
            do throws(NoteTakerError) {
                if let share = request.uri.form("share") {
                    history = try await stores.account.completeSharedHistory(zone: share.lowercased(), noteId: id)
                } else {
                    history = try await store.completeHistory(noteId: id)
                }
            } catch {
                throw WebAPIError(error)
            }
            return try JSON.response(VersionListJSON(versions: history.versions, serverProblem: history.serverProblem?.message(in: request.language)))
        }
        versions.get(":version") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let number = try Self.versionNumber(context)
            let (current, version) = try storeCall { () throws(NoteTakerError) in (try store.note(id: id), try store.version(number, of: id)) }
            let body = version.body ?? ""
            return try JSON.response(VersionDetailJSON(
                version: version.id, modifiedAt: version.modifiedAt, replacedBy: version.replacedBy, title: version.title,
                currentTitle: current.title, body: body, diff: TextDiff.lines(from: body, to: current.body).map(DiffLineJSON.init)))
        }
        versions.post(":version/restore") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let number = try Self.versionNumber(context)
            let note = try storeCall { () throws(NoteTakerError) in try store.restoreVersion(number, of: id) }
            return try JSON.response(try NoteJSON(note, store: store))
        }
    }

    /// The `:version` path parameter; a 404 when it is not a version number.
    static func versionNumber(_ context: BasicRequestContext) throws(WebAPIError) -> Int64 {
        let text = context.parameters.get("version") ?? ""
        guard let number = Int64(text) else { throw WebAPIError(.notFound, "not_found", "No version is numbered '\(text)'.") }
        return number
    }
}
