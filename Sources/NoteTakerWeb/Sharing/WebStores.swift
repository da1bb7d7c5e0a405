import Foundation
import Hummingbird
import NoteTakerKit

/// The stores the web app serves: the account's own, and the store of each share it accepted
/// (docs/sharing.md §3.6), chosen by a request's `share` query parameter (the share's zone id).
///
/// The one rule of which store a request reads and changes is here: no `share`, the account's
/// store; a `share` this account accepted, its store — which a request that changes anything
/// (any method but GET and HEAD) may use only with the role to edit it.
struct WebStores: Sendable {
    /// The account's own store.
    let account: NoteStore

    init(account: NoteStore) {
        self.account = account
    }

    /// The store `request` works in: the account's, or its `share`'s.
    ///
    /// - Throws: 400 for a `share` that is no share's id; 404 `no_such_share` for a share
    ///   this account has not accepted (left, removed, stopped, or never shared with it); 403
    ///   `not_allowed` for a change to a share this account may only view.
    func store(for request: Request) throws(WebAPIError) -> NoteStore {
        guard let zone = request.uri.form("share") else { return account }
        guard UUID(uuidString: zone) != nil else { throw .invalid("'share' must be a share's id like 3f2a…, given '\(zone)'.") }
        let changes = request.method != .get && request.method != .head
        return try store(ofShare: zone, changing: changes)
    }

    /// The store of the accepted share `zone`; see ``store(for:)``.
    func store(ofShare zone: String, changing: Bool) throws(WebAPIError) -> NoteStore {
        let kept: SharedZone?
        do {
            kept = try account.sharedZone(zone.lowercased())
        } catch {
            throw WebAPIError(error)
        }
        guard let kept, kept.accepted else { throw WebAPIError(SyncError.noSuchShare(zone)) }
        if changing, !kept.writable { throw WebAPIError(SyncError.viewOnlyShare) }
        do {
            return try account.sharedZoneStore(kept.zone)
        } catch {
            throw WebAPIError(error)
        }
    }

    /// The stores of every share this account accepted, for a file the page addresses by its
    /// id alone (a picture in a shared note's preview).
    func sharedStores() -> [NoteStore] {
        let zones = (try? account.sharedZones()) ?? []
        return zones.filter(\.accepted).compactMap { try? store(ofShare: $0.zone, changing: false) }
    }
}
