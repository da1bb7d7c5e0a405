import Foundation
import NoteTakerSyncProtocol

extension SyncService {
    /// The page size when the client does not ask for one.
    static let defaultPageSize = 500

    /// Records changed since the query's token (`nil` for everything), a page at a time,
    /// leaving out the changes the asking device made and holds (see ``ChangesQuery``).
    ///
    /// The session of `token` is noted as having applied the changes up to the query's
    /// token; a token from before tombstones since purged is refused, unless the query is a
    /// listing that began with no token (see ``TombstoneRetention``).
    public func changes(
        for account: StoredAccount, _ query: ChangesQuery, limit: Int?, session token: String? = nil
    ) async throws(SyncServerError) -> ChangesResponse {
        let limit = limit ?? Self.defaultPageSize
        guard (1...SyncLimits.maxPageSize).contains(limit) else {
            throw .badRequest("limit must be between 1 and \(SyncLimits.maxPageSize).")
        }
        let latest = try await storing { try await storage.latestSequence(account: account.id) }
        let after = try await sequence(of: query.since, latest: latest, account: account.id)
        try await checkHeld(query.authoredToken, latest: latest, account: account.id)
        let own = query.deviceId.flatMap { device in
            authoredSequence(query.authoredToken).map { AuthoredChanges(device: device, through: $0) }
        }
        if after > 0, let token {
            try await storing { try await storage.sessionFetched(tokenHash: SessionToken.hash(token), through: after) }
        }
        let page = try await storing {
            try await storage.changes(account: account.id, after: after, skipping: own, limit: limit, maxBytes: SyncLimits.maxPageBytes)
        }
        // Checked after reading, so that a purge during the read is noticed too. A token from
        // when the account was empty (at 0) counts: the device relies on every deletion since.
        if query.since != nil, !query.listing { try await checkNotPurged(after: after, account: account.id) }
        // A fetch from nothing by a device holding records from before: their deletions
        // are newer than what it holds, and it must not miss those purged.
        if after == 0, let holding = query.holding.flatMap({ Int64($0) }) { try await checkNotPurged(after: holding, account: account.id) }
        let records = page.records
        let moreComing = page.moreComing
        metrics.sent(records: records.count)
        // A full page covers up to its last record; the last page covers everything up to
        // the newest change, the device's own left-out ones included.
        let lastSequence = records.last.flatMap { Int64($0.changeTag) } ?? after
        let token = try await changeToken(moreComing ? lastSequence : max(lastSequence, latest), account: account.id)
        return ChangesResponse(records: records, token: token, moreComing: moreComing)
    }

    /// The earlier versions of one of the account's notes, newest first.
    ///
    /// - Throws: ``APIErrorCode/notFound`` when the account holds no such note (another
    ///   account's note included).
    public func versions(of recordId: UUID, for account: StoredAccount) async throws(SyncServerError) -> RecordVersionsResponse {
        guard let versions = try await storing({ try await storage.versions(account: account.id, recordId: recordId) }) else {
            throw SyncServerError(.notFound, "This account has no note \(recordId.key).")
        }
        return RecordVersionsResponse(versions: versions)
    }

    /// The earlier versions of many of the account's notes at once (``VersionsQuery``), newest
    /// first, in the order asked, each once: a note the account does not hold is left out, and
    /// the notes after the answer holds about ``SyncLimits/maxPageBytes`` of versions (one note
    /// at least) are named in ``VersionsOfNotes/unread``.
    ///
    /// - Throws: ``APIErrorCode/badRequest`` for more than ``VersionsQuery/maximumCount`` notes.
    public func versions(of query: VersionsQuery, for account: StoredAccount) async throws(SyncServerError) -> VersionsOfNotes {
        guard query.recordIds.count <= VersionsQuery.maximumCount else {
            throw .badRequest("At most \(VersionsQuery.maximumCount) notes go in one request; this one has \(query.recordIds.count).")
        }
        var seen = Set<UUID>()
        let asked = query.recordIds.filter { seen.insert($0).inserted }
        var answer = VersionsOfNotes(notes: [], unread: [])
        var bytes = 0
        for (index, recordId) in asked.enumerated() {
            guard bytes <= SyncLimits.maxPageBytes || index == 0 else {
                answer.unread = Array(asked[index...])
                break
            }
            guard let versions = try await storing({ try await storage.versions(account: account.id, recordId: recordId) }) else { continue }
            bytes += versions.reduce(0) { $0 + $1.fields.wireJSON.utf8.count }
            answer.notes.append(VersionsOfNotes.Note(recordId: recordId, versions: versions))
        }
        return answer
    }

    /// Keeps versions of one of the account's notes that moved here from another zone
    /// (docs/sharing.md §3.5) with those the server keeps of it, so that a device reading the
    /// note's history here has its whole history. In a shared zone's holder each must be sealed
    /// for the zone and name `writer` (``modifyZone(_:_:fieldsJSON:by:)``'s checks); in an
    /// end-to-end encrypted account, sealed.
    ///
    /// - Throws: ``APIErrorCode/badRequest`` for too many versions, a time that is none or in
    ///   the future, or fields not sealed as they must be; ``APIErrorCode/tooLarge`` past a
    ///   record's size; ``APIErrorCode/notFound`` when the account holds no such note;
    ///   ``APIErrorCode/quotaExceeded`` past the quota. Nothing is kept then.
    public func addMovedVersions(
        of recordId: UUID, _ moved: MovedVersions, for account: StoredAccount, writer: String? = nil
    ) async throws(SyncServerError) -> MovedVersionsKept {
        guard moved.versions.count <= MovedVersions.maximumCount else {
            throw .badRequest("At most \(MovedVersions.maximumCount) versions go in one request; this one has \(moved.versions.count). Nothing was kept.")
        }
        let latest = Date().timeIntervalSince1970 + 86_400
        var stored: [(replacedAt: Double, fields: String)] = []
        for version in moved.versions {
            guard version.replacedAt.isFinite, version.replacedAt >= 0, version.replacedAt <= latest else {
                throw .badRequest("A version's replacedAt must be a time in seconds since 1970, not in the future. Nothing was kept.")
            }
            if let zone = account.zone {
                try Self.checkZoneEnvelope(version.fields, of: recordId, zone: zone, author: writer ?? "")
            } else if account.encrypted, !version.fields.isSealed {
                throw .badRequest("This account is end-to-end encrypted and keeps only sealed versions; one was sent unencrypted. Nothing was kept.")
            }
            let json = version.fields.wireJSON
            guard json.utf8.count <= SyncLimits.maxRecordBytes else {
                throw SyncServerError(.tooLarge, "A version's fields hold at most \(SyncLimits.maxRecordBytes) bytes. Nothing was kept.")
            }
            stored.append((version.replacedAt, json))
        }
        let kept = try await storing {
            try await storage.addVersions(account: account.id, recordId: recordId, stored, quota: quota(of: account))
        }
        guard let kept else { throw SyncServerError(.notFound, "This account has no note \(recordId.key). Nothing was kept.") }
        return MovedVersionsKept(kept: kept)
    }

    /// Applies a batch: validated first (nothing is applied if any change is malformed),
    /// then atomically; devices listening are told. `fieldsJSON`, when it has an entry for
    /// each change, holds their fields as the request wrote them (see
    /// ``RecordChange/init(reading:fieldsJSON:)``), kept as they are.
    public func modify(_ request: ModifyRequest, fieldsJSON: [String?] = [], for account: StoredAccount) async throws(SyncServerError) -> ModifyResponse {
        guard request.changes.count <= SyncLimits.maxBatchSize else {
            throw SyncServerError(.tooLarge, "A batch holds at most \(SyncLimits.maxBatchSize) changes; this one has \(request.changes.count). Nothing was saved.")
        }
        for change in request.changes {
            try RecordVersioning.validate(change, sealedOnly: account.encrypted)
        }
        let marked = [request.changeToken, request.authoredToken].contains { token in
            token.flatMap { HistoryMark.parse($0, serverId: storage.serverId)?.mark } != nil
        }
        if marked {
            let latest = try await storing { try await storage.latestSequence(account: account.id) }
            for token in [request.changeToken, request.authoredToken] {
                try await checkHeld(token, latest: latest, account: account.id)
            }
        }
        var response = try await storing { try await storage.modify(account: account.id, request: request, fieldsJSON: fieldsJSON, quota: quota(of: account)) }
        let saved = response.results.compactMap { $0.outcome == .saved ? $0.changeTag.flatMap { Int64($0) } : nil }
        // Marked as a change token is: a device that sends it back learns of a restore by it.
        if let newest = saved.max() { response.authoredToken = try await changeToken(newest, account: account.id) }
        metrics.batch(saved: saved.count, conflicts: response.results.count - saved.count)
        if response.results.contains(where: { $0.outcome == .saved }) {
            let latest = try await changeToken(try await storing { try await storage.latestSequence(account: account.id) }, account: account.id)
            if let zone = account.zone {
                await announce(.zoneChanged(zone: zone, token: latest, accounts: try await storing { try await storage.zoneMembers(zone: zone) }))
            } else {
                await announce(.changed(account: account.id, token: latest))
            }
        }
        return response
    }

    /// A stream that yields a change token whenever the account's records change, and a
    /// zone's whenever a shared zone it is a member of changes. It ends when the session of
    /// `token` ends; over the caps it is refused (see ``ChangeNotifier``).
    public func events(for account: StoredAccount, token: String) async throws(SyncServerError) -> AsyncStream<PushEvent> {
        try await notifier.subscribe(account: account.id, session: SessionToken.hash(token))
    }

    /// The token that covers every change the account holds now.
    public func latestToken(for account: StoredAccount) async throws(SyncServerError) -> String {
        try await changeToken(try await storing { try await storage.latestSequence(account: account.id) }, account: account.id)
    }

    /// A token for "everything up to sequence `sequence`" of the account on this server,
    /// with the mark of the history it belongs to (see ``HistoryMark``).
    func changeToken(_ sequence: Int64, account: Int64) async throws(SyncServerError) -> String {
        let mark = sequence == 0 ? nil : try await storing { try await storage.historyMark(account: account, at: sequence) }
        return HistoryMark.token(serverId: storage.serverId, sequence: sequence, mark: mark)
    }

    /// The sequence an authored token stands for; one from another server, or malformed,
    /// stands for nothing (the device then gets its own changes back, which is safe).
    func authoredSequence(_ token: String?) -> Int64? {
        token.flatMap { HistoryMark.parse($0, serverId: storage.serverId)?.sequence }
    }

    /// Refuses a token with a mark this server's history does not hold (see ``HistoryMark``):
    /// a batch's change token, or an authored token, which says a batch was answered by a
    /// history this server lost though the device may have fetched nothing since. A token
    /// without a mark passes: a batch's is not needed, and an authored one only ever leaves
    /// out the device's own changes.
    func checkHeld(_ token: String?, latest: Int64, account: Int64) async throws(SyncServerError) {
        guard let token, let parsed = HistoryMark.parse(token, serverId: storage.serverId), parsed.mark != nil else { return }
        _ = try await sequence(of: token, latest: latest, account: account)
    }

    /// The sequence a token stands for. A token from another server or a malformed one
    /// answers "resync required"; one from a history this server no longer holds (its data
    /// was restored from an older copy) answers "server restored" (see ``HistoryMark``).
    func sequence(of token: String?, latest: Int64, account: Int64) async throws(SyncServerError) -> Int64 {
        guard let token, !token.isEmpty else { return 0 }
        guard let parsed = HistoryMark.parse(token, serverId: storage.serverId) else {
            throw SyncServerError(.resyncRequired, "This change token is not usable on this server; fetch all changes again (no token).")
        }
        if let mark = parsed.mark {
            let held = parsed.sequence <= latest ? try await storing { try await storage.historyMark(account: account, at: parsed.sequence) } : nil
            guard held == mark else {
                throw SyncServerError(.serverRestored, """
                    This server's data is older than this device's last sync: it was restored from an earlier copy. \
                    Send again everything this device synced, then fetch all changes (no token).
                    """)
            }
        } else if parsed.sequence > latest {
            throw SyncServerError(.resyncRequired, "This change token is not usable on this server; fetch all changes again (no token).")
        }
        return parsed.sequence
    }
}
