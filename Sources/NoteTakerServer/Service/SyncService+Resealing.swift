import Foundation
import NoteTakerSyncProtocol

/// Sealing an end-to-end encrypted account's kept note versions and files again with a newer
/// data key, after a rotation (docs/encryption.md §2.3): the device reads, opens and seals;
/// the server lists and replaces, checking no more than the key's version. (A file goes back
/// through ``storeAsset(hash:chunks:resealed:for:)``.)
extension SyncService {
    /// The kept versions of one stretch of the account's versions (``KeptVersionsPage/maximumStretch``
    /// from `after`, fewer when their fields pass ``SyncLimits/maxPageBytes``) that are not
    /// sealed with data key `sealedBelow` or a newer one.
    ///
    /// - Throws: ``APIErrorCode/badRequest`` for a key version out of range or a cursor no
    ///   page wrote; ``APIErrorCode/notFound`` for an account without encryption.
    public func keptVersions(for account: StoredAccount, sealedBelow: Int, after: String?) async throws(SyncServerError) -> KeptVersionsPage {
        guard (1...AccountKeys.maximumDataKeys).contains(sealedBelow) else {
            throw .badRequest("sealedBelow must be a data key's version, from 1 to \(AccountKeys.maximumDataKeys).")
        }
        var cursor: Resealing.Cursor?
        if let after {
            guard let parsed = Resealing.Cursor(after) else { throw .badRequest("after must be a page's next, as the server wrote it.") }
            cursor = parsed
        }
        try requireKeys(account)
        let stretch = try await storing {
            try await storage.keptVersions(account: account.id, after: cursor, limit: KeptVersionsPage.maximumStretch)
        }
        // A page holds about SyncLimits.maxPageBytes of fields at most (one version at least),
        // as a page of changes does: the versions after go in the next.
        var versions: [KeptVersion] = []
        var bytes = 0
        var read: Resealing.Cursor?
        for stored in stretch {
            if let fields = try? RecordFields(wireJSON: stored.fields.utf8), Resealing.needsSealing(fields, below: sealedBelow),
               let id = UUID(key: stored.cursor.recordId) {
                bytes += stored.fields.utf8.count
                if bytes > SyncLimits.maxPageBytes, !versions.isEmpty { break }
                versions.append(KeptVersion(recordId: id, changeTag: String(stored.cursor.sequence), fields: fields))
            }
            read = stored.cursor
        }
        let whole = stretch.count < KeptVersionsPage.maximumStretch && read == stretch.last?.cursor
        return KeptVersionsPage(versions: versions, next: whole ? nil : read?.text)
    }

    /// Replaces a kept version of one of the account's notes with the same version sealed with
    /// a newer data key.
    ///
    /// - Throws: ``APIErrorCode/badRequest`` for a malformed change tag or fields that are not
    ///   an envelope; ``APIErrorCode/tooLarge`` past a record's size; ``APIErrorCode/notFound``
    ///   for an account without encryption or a version it does not keep;
    ///   ``APIErrorCode/sealedAlready`` when the version's key is not older than the new one.
    public func resealVersion(of recordId: UUID, _ resealed: ResealedVersion, for account: StoredAccount) async throws(SyncServerError) {
        guard resealed.changeTag.count <= 19, let sequence = Int64(resealed.changeTag), resealed.changeTag.count <= (sequence < 0 ? 19 : 18) else {
            throw .badRequest("changeTag must be a version's change tag (a whole number of at most 18 digits, below zero for a version that moved here). Nothing was changed.")
        }
        guard Resealing.keyVersion(resealed.fields) >= 1 else {
            throw .badRequest("fields must be an envelope naming its data key ($enc, $key, …). Nothing was changed.")
        }
        guard resealed.fields.wireJSON.utf8.count <= SyncLimits.maxRecordBytes else {
            throw SyncServerError(.tooLarge, "A version's fields hold at most \(SyncLimits.maxRecordBytes) bytes. Nothing was changed.")
        }
        try requireKeys(account)
        let version = Resealing.Cursor(recordId: recordId.key, sequence: sequence)
        switch try await storing({ try await storage.replaceVersion(account: account.id, at: version, fields: resealed.fields) }) {
        case .replaced:
            return
        case .notFound:
            throw SyncServerError(.notFound, "This account keeps no version \(sequence) of note \(recordId.key): its note was deleted, or the version thinned out.")
        case .refused:
            throw SyncServerError(.sealedAlready, "Version \(sequence) of note \(recordId.key) is sealed with this data key or a newer one already. Nothing was changed.")
        }
    }

    /// The addresses of the account's files, from one stretch of them
    /// (``KeptFilesPage/maximumStretch`` after `after`), whose header names a data key below
    /// `sealedBelow`.
    ///
    /// - Throws: ``APIErrorCode/badRequest`` for a key version out of range or an `after`
    ///   that is no address; ``APIErrorCode/notFound`` for an account without encryption.
    public func keptFiles(for account: StoredAccount, sealedBelow: Int, after: String?) async throws(SyncServerError) -> KeptFilesPage {
        guard (1...AccountKeys.maximumDataKeys).contains(sealedBelow) else {
            throw .badRequest("sealedBelow must be a data key's version, from 1 to \(AccountKeys.maximumDataKeys).")
        }
        if let after { try Self.validate(hash: after) }
        try requireKeys(account)
        let stretch = try await storing { try await storage.assets(account: account.id, after: after, limit: KeptFilesPage.maximumStretch) }
        var addresses: [String] = []
        for address in stretch {
            guard let head = try await storing({ try await assets.prefix(of: address, count: UploadCheck.headLength) }) else { continue }
            if Resealing.keyVersion(fileHead: head) < sealedBelow { addresses.append(address) }
        }
        return KeptFilesPage(addresses: addresses, next: stretch.count == KeptFilesPage.maximumStretch ? stretch.last : nil)
    }

    /// Stops a request about sealed versions or files for an account without encryption.
    func requireKeys(_ account: StoredAccount) throws(SyncServerError) {
        guard account.encrypted else {
            throw SyncServerError(.notFound, "This account is not end-to-end encrypted: it keeps no sealed versions.")
        }
    }
}
