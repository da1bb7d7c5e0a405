import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol

/// `/api/v1/shares` and `/api/v1/identities`: sharing a folder or a note with other accounts
/// on the server (docs/sharing.md §3.4), as `notetaker share` does: the shares and
/// invitations, sharing, accepting, leaving, members and roles, and the safety number of this
/// account with another.
///
/// A share's notes are read and changed through the note routes with `?share=` (``WebStores``);
/// `POST /api/v1/notes/{id}/move` moves a note into a share, out of one, or between two.
struct ShareRoutes {
    let store: NoteStore
    let sync: WebSync

    /// The body of `POST /notes/{id}/move` (the note is where `?share=` says): the share it
    /// goes to (`null`: this account's own notes), and the folder there (`null`: the shared
    /// folder's top, or no folder).
    struct NoteMove: Decodable {
        var toShare: String?
        var folderId: UUID?
    }

    /// The answer of `POST /notes/{id}/move`: the note where it now is, and how the sync that
    /// sent the move went.
    struct NoteMovedJSON: Encodable {
        var note: NoteJSON
        @Nullable var share: String?
        @Nullable var syncProblem: String?
    }

    /// The body of `POST /shares`: a folder or a note, and whom to share it with.
    struct NewShare: Decodable {
        var folderId: UUID?
        var noteId: UUID?
        var with: [Invitee]
    }

    /// A member to add: an account on the server and its role (`editor` or `viewer`).
    struct Invitee: Decodable {
        var account: String
        var role: String
    }

    /// The body of `PUT /shares/{zone}/members/{account}`.
    struct MemberRole: Decodable {
        var role: String
    }

    /// The answer of `GET /shares`: the shares, whether the server could be asked (when not,
    /// the shares this device kept, without invitations it has not seen), and whether this
    /// account can share at all (it syncs end-to-end encrypted, with identity keys).
    struct ShareListJSON: Encodable {
        var shares: [ShareEntry]
        var offline: Bool
        var canShare: Bool
    }

    /// What a change to a share did: the share as it now stands (`null` once it ended here),
    /// and how many notes with unsent changes were kept as private notes when it ended.
    struct ShareChangeJSON: Encodable {
        var zone: String
        @Nullable var share: ShareEntry?
        var keptPrivately: Int
        @Nullable var syncProblem: String?
    }

    /// The safety number of this account with another, and whether its keys are those kept.
    struct IdentityJSON: Encodable {
        var account: String
        var safetyNumber: String
        /// `first` (met now), `same`, `changed` (not the ones kept: compare again) or `confirmed`.
        var keys: String
    }

    func register(on router: Router<BasicRequestContext>) {
        let shares = router.group("/api/v1/shares")
        shares.get { _, _ in
            let listed: ShareListJSON
            do throws(SyncError) {
                if try store.syncKeyring()?.identityKeys == nil {
                    listed = ShareListJSON(shares: [], offline: false, canShare: false)
                } else {
                    listed = ShareListJSON(shares: try await store.listShares(), offline: false, canShare: true)
                }
            } catch .unreachable {
                listed = ShareListJSON(shares: try sharing { () throws(SyncError) in try store.keptShares() }, offline: true, canShare: true)
            } catch {
                throw WebAPIError(error)
            }
            return try JSON.response(listed)
        }
        shares.post { request, _ in
            let new = try await JSON.decode(NewShare.self, from: request)
            guard (new.folderId == nil) != (new.noteId == nil) else {
                throw WebAPIError.invalid("Give a folderId or a noteId to share, not both. Nothing was shared.")
            }
            guard !new.with.isEmpty else { throw WebAPIError.invalid("Name at least one account to share with. Nothing was shared.") }
            let invitees = try new.with.map { invitee throws(WebAPIError) in (account: invitee.account, role: try Self.role(invitee.role)) }
            let shared = try await sharing { () async throws(SyncError) in
                if let folderId = new.folderId { return try await store.shareFolder(folderId, with: invitees) }
                return try await store.shareNote(new.noteId ?? UUID(), with: invitees)
            }
            return try JSON.response(try await change(shared, language: request.language), status: .created)
        }
        shares.post(":zone/accept") { request, context in
            let zone = try Self.zone(context)
            let accepted = try await sharing { () async throws(SyncError) in try await store.acceptShare(zone) }
            return try JSON.response(try await change(accepted, language: request.language))
        }
        shares.delete(":zone") { request, context in
            let zone = try Self.zone(context)
            let left = try await sharing { () async throws(SyncError) in try await store.leaveShare(zone) }
            return try JSON.response(try await change(left, language: request.language))
        }
        shares.put(":zone/members/:account") { request, context in
            let zone = try Self.zone(context)
            let role = try Self.role(try await JSON.decode(MemberRole.self, from: request).role)
            try await sharing { () async throws(SyncError) in
                try await store.setShareMember(zone, account: context.parameters.get("account") ?? "", role: role)
            }
            return try JSON.response(try await entry(zone))
        }
        shares.delete(":zone/members/:account") { _, context in
            let zone = try Self.zone(context)
            try await sharing { () async throws(SyncError) in
                try await store.setShareMember(zone, account: context.parameters.get("account") ?? "", role: nil)
            }
            return try JSON.response(try await entry(zone))
        }
        router.post("/api/v1/notes/:id/move") { request, context in
            try JSON.response(try await move(request, context))
        }
        router.get("/api/v1/identities/:account") { _, context in
            try JSON.response(try await identity(context, confirming: false))
        }
        router.post("/api/v1/identities/:account/confirm") { _, context in
            try JSON.response(try await identity(context, confirming: true))
        }
    }

    /// The answer for a share changed: the share as the device now keeps it; the page's
    /// sidebar learns of it through the sync indicator's event.
    private func change(_ done: SharedZoneSync, language: Language) async throws(WebAPIError) -> ShareChangeJSON {
        await sync.sharesChanged()
        let share = done.ended ? nil : try sharing { () throws(SyncError) in try store.keptShares() }.first { $0.zone == done.zone.zone }
        var problem: String?
        if case .failure(let error) = done.result { problem = error.message(in: language) }
        return ShareChangeJSON(zone: done.zone.zone, share: share, keptPrivately: done.keptPrivately, syncProblem: problem)
    }

    /// Moves a note as ``NoteMove`` asks, then syncs (the shares first), so that it reaches
    /// the share's members, or leaves them, at once.
    private func move(_ request: Request, _ context: BasicRequestContext) async throws(WebAPIError) -> NoteMovedJSON {
        let id = try context.identifier()
        let moving = try await JSON.decode(NoteMove.self, from: request)
        let from = try Self.shareParameter(request.uri.form("share"), name: "share")
        let to = try Self.shareParameter(moving.toShare, name: "toShare")
        let note = try await sharing { () async throws(SyncError) in try await store.moveNote(id, from: from, to: to, folder: moving.folderId) }
        let target = try to.map { zone throws(WebAPIError) in try sync.stores.store(ofShare: zone, changing: false) } ?? store
        var problem: String?
        do { try await sync.syncNow() } catch { problem = error.message(in: request.language) }
        return NoteMovedJSON(note: try NoteJSON(note, store: target), share: to, syncProblem: problem)
    }

    /// A share's id given as `name`, lowercased; 400 when it is not one.
    private static func shareParameter(_ text: String?, name: String) throws(WebAPIError) -> String? {
        guard let text else { return nil }
        guard UUID(uuidString: text) != nil else { throw .invalid("'\(name)' must be a share's id like 3f2a…, given '\(text)'. Nothing was moved.") }
        return text.lowercased()
    }

    private func entry(_ zone: String) async throws(WebAPIError) -> ShareEntry {
        await sync.sharesChanged()
        guard let share = try sharing({ () throws(SyncError) in try store.keptShares() }).first(where: { $0.zone == zone }) else {
            throw WebAPIError(SyncError.noSuchShare(zone))
        }
        return share
    }

    private func identity(_ context: BasicRequestContext, confirming: Bool) async throws(WebAPIError) -> IdentityJSON {
        let account = context.parameters.get("account") ?? ""
        let check = try await sharing { () async throws(SyncError) in try await store.checkIdentity(of: account, confirming: confirming) }
        let keys = switch check.sighting {
        case .first: "first"
        case .same: "same"
        case .changed: "changed"
        case .confirmed: "confirmed"
        }
        return IdentityJSON(account: check.account, safetyNumber: check.safetyNumber, keys: keys)
    }

    /// The `:zone` path parameter, lowercased; a 404 when it is not a zone id.
    private static func zone(_ context: BasicRequestContext) throws(WebAPIError) -> String {
        let text = (context.parameters.get("zone") ?? "").lowercased()
        guard UUID(uuidString: text) != nil else { throw WebAPIError(SyncError.noSuchShare(text)) }
        return text
    }

    /// A role a member may be given: `editor` or `viewer`.
    private static func role(_ text: String) throws(WebAPIError) -> ShareMembers.Role {
        guard let role = ShareMembers.Role(rawValue: text), role != .owner else {
            throw .invalid("A member's role is editor or viewer, given '\(text)'. Nothing was changed.")
        }
        return role
    }
}

/// Runs sharing work, answering its error as the API's.
private func sharing<T>(_ work: () async throws(SyncError) -> T) async throws(WebAPIError) -> T {
    do {
        return try await work()
    } catch {
        throw WebAPIError(error)
    }
}

private func sharing<T>(_ work: () throws(SyncError) -> T) throws(WebAPIError) -> T {
    do {
        return try work()
    } catch {
        throw WebAPIError(error)
    }
}
