import Foundation
import Hummingbird
import NoteTakerKit

/// `/api/v1/notes`: the list, one note, creating, editing, trashing and restoring.
struct NoteRoutes {
    let stores: WebStores

    /// The body of `POST /notes`.
    struct NewNote: Decodable {
        var title: String?
        var body: String?
        var folderId: UUID?
        var tags: [String]?
        var isPinned: Bool?
    }

    /// The body of `PATCH /notes/{id}`: only the fields present change; `"folderId": null`
    /// unfiles. With `base` (the revision, title, body and tags the edit started from) the
    /// edit is merged with whatever changed the note since; without it, it replaces them.
    struct NotePatch: Decodable {
        var changes: NoteChanges

        /// The `base` object.
        struct Base: Decodable {
            var revision: Int64
            var title: String
            var body: String
            var tags: [String]
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let base = try container.decodeIfPresent(Base.self, forKey: .base)
            changes = NoteChanges(
                title: try container.decodeIfPresent(String.self, forKey: .title),
                body: try container.decodeIfPresent(String.self, forKey: .body),
                isPinned: try container.decodeIfPresent(Bool.self, forKey: .isPinned),
                folderId: container.contains(.folderId) ? .some(try container.decodeIfPresent(UUID.self, forKey: .folderId)) : nil,
                tags: try container.decodeIfPresent([String].self, forKey: .tags),
                base: base.map { NoteBase(revision: $0.revision, title: $0.title, body: $0.body, tags: $0.tags) })
        }

        private enum CodingKeys: String, CodingKey { case title, body, isPinned, folderId, tags, base }
    }

    func register(on router: Router<BasicRequestContext>) {
        let notes = router.group("/api/v1/notes")
        notes.get { request, _ in try JSON.response(try page(request)) }
        notes.post { request, _ in
            let store = try stores.store(for: request)
            let new = try await JSON.decode(NewNote.self, from: request)
            let draft = NoteDraft(
                title: new.title ?? "", body: new.body ?? "", isPinned: new.isPinned ?? false,
                folderId: new.folderId, tags: new.tags ?? [])
            let note = try storeCall { () throws(NoteTakerError) in try store.createNote(draft) }
            return try JSON.response(try NoteJSON(note, store: store), status: .created)
        }
        notes.get(":id") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            return try JSON.response(try NoteJSON(try storeCall { () throws(NoteTakerError) in try store.note(id: id) }, store: store))
        }
        notes.patch(":id") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let patch = try await JSON.decode(NotePatch.self, from: request)
            let note = try storeCall { () throws(NoteTakerError) in try store.changeNote(id: id, patch.changes) }
            return try JSON.response(try NoteJSON(note, store: store))
        }
        notes.delete(":id") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let permanent = try request.flag("permanent")
            if try request.flag("ifEmpty") {
                // A new note left empty goes for good; one with anything in it stays, untouched.
                let discarded = try storeCall { () throws(NoteTakerError) in try store.discardIfEmpty(id: id) }
                guard discarded else { throw WebAPIError(.conflict, "not_empty", "The note is not empty, so it was kept.") }
                return Response(status: .noContent)
            }
            try storeCall { () throws(NoteTakerError) in
                if permanent {
                    guard try store.note(id: id).isTrashed else { throw .noteNotInTrash(id.key) }
                    _ = try store.purgeNotes(ids: [id])
                } else {
                    _ = try store.note(id: id)
                    _ = try store.trashNotes(ids: [id])
                }
            }
            return Response(status: .noContent)
        }
        notes.post(":id/duplicate") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            let copy = try storeCall { () throws(NoteTakerError) in try store.duplicateNote(id: id) }
            return try JSON.response(try NoteJSON(copy, store: store), status: .created)
        }
        notes.post(":id/restore") { request, context in
            let store = try stores.store(for: request)
            let id = try context.identifier()
            return try JSON.response(try NoteJSON(try storeCall { () throws(NoteTakerError) in try store.restoreNote(id: id) }, store: store))
        }
        router.delete("/api/v1/trash") { request, _ in
            let store = try stores.store(for: request)
            let count = try storeCall { () throws(NoteTakerError) in try store.emptyTrash() }
            return try JSON.response(["purged": count])
        }
    }

    /// A page of the list for the query's filters: pinned first, then newest.
    func page(_ request: Request) throws(WebAPIError) -> NotePageJSON {
        let store = try stores.store(for: request)
        let limit = try request.integer("limit", default: 50, in: 1...500)
        let offset = try request.integer("offset", default: 0, in: 0...Int(Int32.max))
        // Every parameter is checked, even those the trash does not use.
        let query = NoteQuery(
            folderId: try request.identifier("folder"), includeSubfolders: try request.flag("subfolders"),
            tag: request.uri.form("tag").flatMap { $0.isEmpty ? nil : $0 },
            pinnedOnly: try request.flag("pinned"), recentOnly: try request.flag("recent"), order: try Self.order(request),
            limit: limit + 1, offset: offset)
        let inTrash = try request.flag("trash")
        let notes = try storeCall { () throws(NoteTakerError) in
            inTrash ? try store.trashedNotes(limit: limit + 1, offset: offset) : try store.notes(query)
        }
        let more = notes.count > limit
        return NotePageJSON(notes: notes.prefix(limit).map(NoteSummaryJSON.init), nextOffset: more ? offset + limit : nil)
    }

    /// The `sort` parameter: `modified` (the default), `created` or `title`.
    static func order(_ request: Request) throws(WebAPIError) -> NoteQuery.Order {
        guard let text = request.uri.form("sort"), !text.isEmpty else { return .modified }
        guard let order = NoteQuery.Order(rawValue: text) else {
            throw .invalid("'sort' must be modified, created or title, given '\(text)'.")
        }
        return order
    }
}
