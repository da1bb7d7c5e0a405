import Foundation
import NoteTakerSyncProtocol

/// A shared zone's records, versions and files (docs/sharing.md §3.1, §4): kept under the
/// zone's holder (an account row of its own) and served by the rules of a person's records,
/// to the members the server lets in. Any member who accepted reads; the owner and editors
/// write; anyone else is answered as if the zone did not exist.
extension SyncService {
    /// The holder of `zone`'s records, as `account` may reach it: ``APIErrorCode/notFound``
    /// when it is no member, ``APIErrorCode/forbidden`` when it has not accepted yet or, to
    /// write, is a viewer. Writing, the holder's quota is what is left of the owner's.
    public func zoneHolder(zone: String, for account: StoredAccount, writing: Bool) async throws(SyncServerError) -> StoredAccount {
        let access = try await checkMember(zone: zone, account)
        guard access.accepted else {
            throw SyncServerError(.forbidden, "This account was invited to this share and has not accepted yet: accept it first. Nothing was changed.")
        }
        if writing, ![.owner, .editor].contains(access.role) {
            throw SyncServerError(.forbidden, "This account may view this share, not change it: only its owner and editors write. Nothing was changed.")
        }
        var holder = StoredAccount(id: access.holder, username: ZoneAccess.holderName(zone: zone), passwordHash: "", encrypted: true, zone: zone)
        if writing {
            let (ownerUsed, zoneUsed) = try await storing {
                (try await storage.usage(account: access.owner).bytes, try await storage.usage(account: access.holder).bytes)
            }
            holder.quotaBytes = (access.ownerQuotaBytes ?? quotaBytes) - ownerUsed + zoneUsed
        }
        return holder
    }

    /// Applies a batch to a shared zone (``modify(_:fieldsJSON:for:)``), from an owner or
    /// editor. Each save must be a record of this zone that says it is `account`'s: sealed
    /// for it (`$zone`), written by it (`$by`), with a signature (`$sig`) the members check,
    /// and a batch path (`$path`, §4.1) of the right length when it has one.
    public func modifyZone(
        _ zone: String, _ request: ModifyRequest, fieldsJSON: [String?] = [], by account: StoredAccount
    ) async throws(SyncServerError) -> ModifyResponse {
        let holder = try await zoneHolder(zone: zone, for: account, writing: true)
        for change in request.changes {
            if let fields = change.fields { try Self.checkZoneEnvelope(fields, of: change.recordId, zone: zone, author: account.username) }
        }
        return try await inOwnersQuota(of: holder) { () throws(SyncServerError) in try await modify(request, fieldsJSON: fieldsJSON, for: holder) }
    }

    /// Keeps versions of a note that moved into `zone` (``addMovedVersions(of:_:for:writer:)``),
    /// from an owner or editor, each sealed for the zone and naming `account` as its writer.
    public func addZoneVersions(
        _ zone: String, of recordId: UUID, _ moved: MovedVersions, by account: StoredAccount
    ) async throws(SyncServerError) -> MovedVersionsKept {
        let holder = try await zoneHolder(zone: zone, for: account, writing: true)
        return try await inOwnersQuota(of: holder) { () throws(SyncServerError) in
            try await addMovedVersions(of: recordId, moved, for: holder, writer: account.username)
        }
    }

    /// Runs a write to `account`'s records or files; for a zone's holder, a refusal for want
    /// of room is worded for a member: the room is its owner's (whose figures are not told).
    func inOwnersQuota<T>(of account: StoredAccount, _ write: () async throws(SyncServerError) -> T) async throws(SyncServerError) -> T {
        do {
            return try await write()
        } catch where error.code == .quotaExceeded && account.zone != nil {
            throw SyncServerError(.quotaExceeded, """
                Storage full: a share counts in its owner's storage, and theirs is full. Nothing was saved: the owner makes room \
                (or is given more by the server's operator), then this device syncs again.
                """)
        }
    }

    /// The checks of §4 the server can make on a zone's record without its keys.
    static func checkZoneEnvelope(_ fields: RecordFields, of record: UUID, zone: String, author: String) throws(SyncServerError) {
        guard fields[RecordFields.sealedMarker] != nil, fields["$zone"] == .string(zone) else {
            throw .badRequest("Record \(record.key) is not sealed for this share ($zone must be \(zone)). Nothing in the batch was saved.")
        }
        guard fields["$by"] == .string(author.lowercased()) else {
            throw .badRequest("Record \(record.key) must name its writer, \(author.lowercased()), in $by. Nothing in the batch was saved.")
        }
        guard case .string(let signature) = fields["$sig"], Base64URL.decode(signature)?.count == 64 else {
            throw .badRequest("Record \(record.key) must carry its writer's signature ($sig: 64 bytes in base64url). Nothing in the batch was saved.")
        }
        // A record signed with its batch (§4.1): its place and audit path, 16 + 32·m bytes, m ≤ 16.
        if let path = fields["$path"] {
            guard case .string(let text) = path, let bytes = Base64URL.decode(text), bytes.count >= 16, (bytes.count - 16) % 32 == 0,
                  bytes.count <= 16 + 32 * 16 else {
                throw .badRequest("Record \(record.key) has a malformed batch path ($path: 16 + 32·m bytes in base64url, m at most 16). Nothing in the batch was saved.")
            }
        }
    }
}
