import Foundation
import NoteTakerSyncProtocol

extension SyncService {
    /// The page size when the client does not ask for one.
    static let defaultPageSize = 500

    /// Records changed since the query's token (`nil` for everything), a page at a time,
    /// leaving out the changes the asking device made and holds (see ``ChangesQuery``).
    public func changes(for account: StoredAccount, _ query: ChangesQuery, limit: Int?) async throws(SyncServerError) -> ChangesResponse {
        let limit = limit ?? Self.defaultPageSize
        guard (1...SyncLimits.maxPageSize).contains(limit) else {
            throw .badRequest("limit must be between 1 and \(SyncLimits.maxPageSize).")
        }
        let latest = try await storing { try await storage.latestSequence(account: account.id) }
        let after = try sequence(of: query.since, latest: latest)
        let own = query.deviceId.flatMap { device in
            authoredSequence(query.authoredToken).map { AuthoredChanges(device: device, through: $0) }
        }
        let page = try await storing {
            try await storage.changes(account: account.id, after: after, skipping: own, limit: limit, maxBytes: SyncLimits.maxPageBytes)
        }
        let records = page.records
        let moreComing = page.moreComing
        metrics.sent(records: records.count)
        // A full page covers up to its last record; the last page covers everything up to
        // the newest change, the device's own left-out ones included.
        let lastSequence = records.last.flatMap { Int64($0.changeTag) } ?? after
        return ChangesResponse(
            records: records, token: changeToken(moreComing ? lastSequence : max(lastSequence, latest)), moreComing: moreComing)
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

    /// Applies a batch: validated first (nothing is applied if any change is malformed),
    /// then atomically; devices listening are told. `fieldsJSON`, when it has an entry for
    /// each change, holds their fields as the request wrote them (see
    /// ``RecordChange/init(reading:fieldsJSON:)``), kept as they are.
    public func modify(_ request: ModifyRequest, fieldsJSON: [String?] = [], for account: StoredAccount) async throws(SyncServerError) -> ModifyResponse {
        guard request.changes.count <= SyncLimits.maxBatchSize else {
            throw SyncServerError(.tooLarge, "A batch holds at most \(SyncLimits.maxBatchSize) changes; this one has \(request.changes.count). Nothing was saved.")
        }
        for change in request.changes {
            try RecordVersioning.validate(change)
        }
        var response = try await storing { try await storage.modify(account: account.id, request: request, fieldsJSON: fieldsJSON, quota: quotaBytes) }
        let saved = response.results.compactMap { $0.outcome == .saved ? $0.changeTag.flatMap { Int64($0) } : nil }
        response.authoredToken = saved.max().map(changeToken)
        metrics.batch(saved: saved.count, conflicts: response.results.count - saved.count)
        if response.results.contains(where: { $0.outcome == .saved }) {
            let latest = try await storing { try await storage.latestSequence(account: account.id) }
            await announce(.changed(account: account.id, token: changeToken(latest)))
        }
        return response
    }

    /// A stream that yields a change token whenever the account's records change.
    /// It ends when the session of `token` ends; over the caps it is refused (see
    /// ``ChangeNotifier``).
    public func events(for account: StoredAccount, token: String) async throws(SyncServerError) -> AsyncStream<String> {
        try await notifier.subscribe(account: account.id, session: SessionToken.hash(token))
    }

    /// The token that covers every change the account holds now.
    public func latestToken(for account: StoredAccount) async throws(SyncServerError) -> String {
        changeToken(try await storing { try await storage.latestSequence(account: account.id) })
    }

    /// A token for "everything up to sequence `sequence`" on this server.
    func changeToken(_ sequence: Int64) -> String {
        "\(storage.serverId):\(sequence)"
    }

    /// The sequence an authored token stands for; one from another server, or malformed,
    /// stands for nothing (the device then gets its own changes back, which is safe).
    func authoredSequence(_ token: String?) -> Int64? {
        guard let token else { return nil }
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(storage.serverId), let sequence = Int64(parts[1]) else { return nil }
        return sequence
    }

    /// The sequence a token stands for; a token from another server, a malformed one or one
    /// from the future answers "resync required".
    func sequence(of token: String?, latest: Int64) throws(SyncServerError) -> Int64 {
        guard let token, !token.isEmpty else { return 0 }
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(storage.serverId),
              let sequence = Int64(parts[1]), sequence >= 0, sequence <= latest
        else {
            throw SyncServerError(.resyncRequired, "This change token is not usable on this server; fetch all changes again (no token).")
        }
        return sequence
    }
}
