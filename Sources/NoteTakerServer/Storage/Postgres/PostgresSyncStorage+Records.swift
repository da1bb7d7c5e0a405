import Foundation
import NoteTakerSyncProtocol
import PostgresNIO

extension PostgresSyncStorage {
    /// The account's newest change sequence number.
    public func check() async throws {
        _ = try await Self.first(database.query("SELECT 1"), Int.self)
    }

    public func latestSequence(account: Int64) async throws -> Int64 {
        try await Self.first(database.query("SELECT sequence FROM account WHERE id = \(account)"), Int64.self) ?? 0
    }

    /// The mark of the batch that wrote change `sequence`, or of the first one after it.
    public func historyMark(account: Int64, at sequence: Int64) async throws -> String? {
        try await Self.first(database.query(
            "SELECT mark FROM history WHERE account_id = \(account) AND seq >= \(sequence) ORDER BY seq LIMIT 1"), String.self)
    }

    /// Records changed after `after`, oldest change first, but those `skipping` made; at
    /// most `limit` of them and about `maxBytes` of fields (at least one record).
    ///
    /// One query: the fields of the rows past the byte budget are not even read, and one
    /// row past the page tells whether more are coming.
    ///
    /// The query reads the account's records in `seq` order from `record_changes` and stops
    /// after the page; it runs with sorting turned off so that PostgreSQL always plans it so.
    /// Before the table's statistics catch up with a large push (autovacuum looks once a
    /// minute), the planner expected a thousand rows and chose to fetch and sort every record
    /// after the token instead: 120 ms a page in the middle of a first sync of 100,000 notes,
    /// against 1.6 ms.
    public func changes(account: Int64, after: Int64, skipping own: AuthoredChanges?, limit: Int, maxBytes: Int) async throws -> ChangesPage {
        let author = own?.device.key
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query("SET LOCAL enable_sort = off", logger: logger)
            return try await Self.page(connection.query("""
            SELECT record_type, record_id, seq, deleted, CASE WHEN n = 1 OR running <= \(Int64(maxBytes)) THEN fields END, sent_again_from
            FROM (SELECT record_type, record_id, seq, deleted, fields, sent_again_from,
                         ROW_NUMBER() OVER (ORDER BY seq) AS n, SUM(size) OVER (ORDER BY seq) AS running
                  FROM record
                  WHERE account_id = \(account) AND seq > \(after)
                    AND NOT (author IS NOT DISTINCT FROM \(author) AND seq <= \(own?.through ?? 0))
                  ORDER BY seq LIMIT \(Int64(limit) + 1)) page
            ORDER BY seq
            """, logger: logger), limit: limit)
        }
    }

    /// Reads a page of changes from the rows of ``changes(account:after:skipping:limit:maxBytes:)``:
    /// a row without fields, or one past `limit`, means more are coming.
    private static func page(_ rows: PostgresRowSequence, limit: Int) async throws -> ChangesPage {
        var page = ChangesPage(records: [], moreComing: false)
        for try await (type, id, sequence, deleted, fields, sentAgainFrom) in rows.decode((String, String, Int64, Bool, String?, Int64?).self) {
            guard page.records.count < limit, let fields else {
                page.moreComing = true
                continue
            }
            page.records.append(try Self.record(type: type, id: id, sequence: sequence, deleted: deleted, fields: fields, sentAgainFrom: sentAgainFrom))
        }
        return page
    }

    /// Applies a batch in one transaction, or answers a repeated one again. The account's
    /// row is locked first, so batches of one account apply one after the other on every node.
    ///
    /// Every statement of the transaction reads by an index, and runs with sequential scans
    /// turned off so that PostgreSQL always plans it so. Before the table's statistics catch
    /// up with a large push, the planner took `record` for a small table and looked up the
    /// batch's records by reading all of it: 2.4 ms a batch on average in a first push of
    /// 100,000 notes, growing with the table, against a few hundredths of a millisecond.
    public func modify(account: Int64, request: ModifyRequest, fieldsJSON: [String?], quota: Int64) async throws -> ModifyResponse {
        let requestKey = request.requestId.key
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.query("SET LOCAL enable_seqscan = off", logger: logger)
            var (sequence, purgedThrough): (Int64, Int64) = (0, 0)
            for try await row in try await connection.query(
                "SELECT sequence, purged_through FROM account WHERE id = \(account) FOR UPDATE", logger: logger).decode((Int64, Int64).self) {
                (sequence, purgedThrough) = row
            }
            let now = Date().timeIntervalSince1970
            var stored: (response: Data, createdAt: Double)?
            for try await row in try await connection.query("""
                SELECT response, created_at FROM request WHERE account_id = \(account) AND request_id = \(requestKey)
                """, logger: logger).decode((Data, Double).self) {
                stored = row
            }
            // An answer past its retention is not given again (see the SQLite storage).
            if let stored, stored.createdAt >= now - BatchPlan.answerRetention {
                return try await replay(connection, account: account, stored.response, purgedThrough: purgedThrough)
            }
            let replacedBytes = Int64(stored?.response.count ?? 0)
            // Applied once, its answer forgotten since (expired, or kept only as a mark).
            var appliedBefore = stored != nil
            if !appliedBefore {
                appliedBefore = try await Self.first(connection.query(
                    "SELECT 1 FROM request_marker WHERE account_id = \(account) AND request_id = \(requestKey)", logger: logger), Int32.self) != nil
            }
            let current = try await current(connection, account: account, request.keys)
            let plan = try BatchPlan(
                request, fieldsJSON: fieldsJSON, sequence: sequence, purgedThrough: purgedThrough, appliedBefore: appliedBefore, serverId: serverId,
                current: current, purged: try await purged(connection, account: account, request.keysMaybePurged(notIn: current)))
            var versionBytes: Int64 = 0
            for step in plan.steps {
                switch step {
                case .write: break
                case .keepVersion(let recordId, let sequence, let fields):
                    versionBytes += try await keepVersion(connection, account: account, recordId: recordId, sequence: sequence, fields: fields)
                case .dropVersions(let recordId):
                    versionBytes += try await dropVersions(connection, account: account, recordId: recordId)
                }
            }
            try await write(connection, account: account, author: request.deviceId?.key, plan.steps)
            let used = try await Self.first(connection.query("""
                SELECT \(unescaped: Self.usedBytesExpression) FROM account WHERE id = \(account)
                """, logger: logger), Int64.self) ?? 0
            try plan.checkQuota(used: used, versionBytes: versionBytes, quota: quota)
            let kept = plan.keptAnswer()
            try await connection.query("""
                INSERT INTO request (account_id, request_id, response, created_at) VALUES (\(account), \(requestKey), \(kept), \(now))
                ON CONFLICT (account_id, request_id) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
                """, logger: logger)
            // Kept for 30 days, and the newest 1,000 only, then a mark (see the SQLite storage).
            let freedRows = try await connection.query("""
                WITH gone AS (
                    DELETE FROM request WHERE account_id = \(account) AND (created_at < \(now - BatchPlan.answerRetention) OR created_at < (
                        SELECT created_at FROM request WHERE account_id = \(account) ORDER BY created_at DESC LIMIT 1 OFFSET \(Int64(BatchPlan.storedAnswers - 1))))
                    RETURNING request_id, created_at, length(response) AS size),
                marked AS (
                    INSERT INTO request_marker (account_id, request_id, created_at) SELECT \(account), request_id, created_at FROM gone
                    ON CONFLICT DO NOTHING)
                SELECT size FROM gone
                """, logger: logger)
            var freed: Int64 = 0
            for try await length in freedRows.decode(Int32.self) { freed += Int64(length) }
            try await connection.query("""
                UPDATE account SET sequence = \(plan.sequence), record_bytes = record_bytes + \(plan.addedBytes),
                    answer_bytes = answer_bytes + \(Int64(kept.count) - freed - replacedBytes) WHERE id = \(account)
                """, logger: logger)
            if plan.sequence > sequence {
                try await connection.query(
                    "INSERT INTO history (account_id, seq, mark) VALUES (\(account), \(plan.sequence), \(HistoryMark.make()))", logger: logger)
            }
            return plan.response
        }
    }

    /// The records a batch touches, as the account holds them now.
    ///
    /// Each is looked up by its whole key, one index probe per change. Asked for
    /// `record_id = ANY(ids)` instead, PostgreSQL planned a scan of all the account's
    /// records by `record_changes` while the table had no statistics yet (`auto_explain`
    /// in a first push of 100,000 notes: 7 ms a batch at 10,000 records and growing,
    /// against 1 ms for the probes).
    private func current(
        _ connection: PostgresConnection, account: Int64, _ keys: Set<BatchPlan.RecordKey>
    ) async throws -> [BatchPlan.RecordKey: BatchPlan.StoredRecord] {
        let keys = Array(keys)
        let rows = try await connection.query("""
            SELECT r.record_type, r.record_id, r.seq, r.deleted, r.fields, r.size, COALESCE(r.edit_seq, r.seq),
                CASE WHEN r.edit_seq IS NULL THEN r.author ELSE r.edit_author END, r.sent_again_from
            FROM UNNEST(\(keys.map(\.recordId))::text[], \(keys.map(\.recordType))::text[]) AS k(id, type)
            CROSS JOIN LATERAL (SELECT * FROM record WHERE account_id = \(account) AND record_id = k.id AND record_type = k.type LIMIT 1) r
            """, logger: database.logger)
        var current: [BatchPlan.RecordKey: BatchPlan.StoredRecord] = [:]
        for try await (type, id, sequence, deleted, fields, size, edited, editor, sentAgainFrom) in rows.decode(
            (String, String, Int64, Bool, String, Int64, Int64, String?, Int64?).self) {
            current[BatchPlan.RecordKey(recordId: id, recordType: type)] = BatchPlan.StoredRecord(
                record: try Self.record(type: type, id: id, sequence: sequence, deleted: deleted, fields: fields, sentAgainFrom: sentAgainFrom), size: size,
                editSequence: edited, editAuthor: editor)
        }
        return current
    }

    /// The tombstone of each of `keys` that a purge removed, as it was (its change, and its
    /// fields when it had any).
    private func purged(
        _ connection: PostgresConnection, account: Int64, _ keys: [BatchPlan.RecordKey]
    ) async throws -> [BatchPlan.RecordKey: SyncRecord] {
        var purged: [BatchPlan.RecordKey: SyncRecord] = [:]
        guard !keys.isEmpty else { return purged }
        let rows = try await connection.query("""
            SELECT p.record_type, p.record_id, p.deletion, COALESCE(p.fields, '{}')
            FROM UNNEST(\(keys.map(\.recordId))::text[], \(keys.map(\.recordType))::text[]) AS k(id, type)
            JOIN purged_record p ON p.account_id = \(account) AND p.record_id = k.id AND p.record_type = k.type
            """, logger: database.logger)
        for try await (type, id, deletion, fields) in rows.decode((String, String, Int64, String).self) {
            purged[BatchPlan.RecordKey(recordId: id, recordType: type)] = try Self.record(type: type, id: id, sequence: deletion, deleted: true, fields: fields)
        }
        return purged
    }

    /// Stores the plan's writes in one statement (a record written twice in the batch keeps its last version).
    private func write(_ connection: PostgresConnection, account: Int64, author: String?, _ steps: [BatchPlan.Step]) async throws {
        var last: [BatchPlan.RecordKey: BatchPlan.Write] = [:]
        for case .write(let write) in steps { last[write.key] = write }
        guard !last.isEmpty else { return }
        let writes = Array(last.values)
        try await connection.query("""
            INSERT INTO record (account_id, record_id, record_type, seq, deleted, fields, size, author, edit_seq, edit_author, deleted_at, sent_again_from)
            SELECT \(account), k.id, k.type, k.seq, k.deleted, k.fields, k.size, \(author), NULLIF(k.edit_seq, k.seq),
                CASE WHEN k.edit_seq <> k.seq THEN NULLIF(k.edit_author, '') END, CASE WHEN k.deleted THEN \(Date().timeIntervalSince1970)::float8 END,
                NULLIF(k.sent_again_from, 0)
            FROM UNNEST(\(writes.map(\.key.recordId))::text[], \(writes.map(\.key.recordType))::text[],
                \(writes.map(\.sequence))::bigint[], \(writes.map(\.deleted))::boolean[], \(writes.map(\.fields))::text[], \(writes.map(\.size))::bigint[],
                \(writes.map(\.editSequence))::bigint[], \(writes.map { $0.editAuthor ?? "" })::text[], \(writes.map { $0.sentAgainFrom ?? 0 })::bigint[])
                AS k(id, type, seq, deleted, fields, size, edit_seq, edit_author, sent_again_from)
            ON CONFLICT (account_id, record_id, record_type) DO UPDATE SET
                seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, fields = EXCLUDED.fields, size = EXCLUDED.size, author = EXCLUDED.author,
                edit_seq = EXCLUDED.edit_seq, edit_author = EXCLUDED.edit_author, deleted_at = EXCLUDED.deleted_at,
                sent_again_from = EXCLUDED.sent_again_from
            """, logger: database.logger)
    }

    /// Keeps a note's replaced text as the version of change `sequence` and thins the
    /// note's versions; returns the bytes the versions grew by.
    private func keepVersion(
        _ connection: PostgresConnection, account: Int64, recordId: String, sequence: Int64, fields: String, replacedAt: Double? = nil
    ) async throws -> Int64 {
        let logger = database.logger
        let now = Date()
        let size = Int64(fields.utf8.count)
        try await connection.query("""
            INSERT INTO record_version (account_id, record_id, seq, replaced_at, fields, size)
            VALUES (\(account), \(recordId), \(sequence), \(replacedAt ?? now.timeIntervalSince1970), \(fields), \(size))
            ON CONFLICT (account_id, record_id, seq) DO UPDATE SET replaced_at = EXCLUDED.replaced_at, fields = EXCLUDED.fields, size = EXCLUDED.size
            """, logger: logger)
        var versions: [(sequence: Int64, replacedAt: Double)] = []
        let rows = try await connection.query(
            "SELECT seq, replaced_at FROM record_version WHERE account_id = \(account) AND record_id = \(recordId)", logger: logger)
        for try await version in rows.decode((Int64, Double).self) { versions.append(version) }
        let dropped = Array(VersionKeeping.dropped(versions, now: now))
        var freed: Int64 = 0
        if !dropped.isEmpty {
            let sizes = try await connection.query("""
                DELETE FROM record_version WHERE account_id = \(account) AND record_id = \(recordId) AND seq = ANY(\(dropped)) RETURNING size
                """, logger: logger)
            for try await size in sizes.decode(Int64.self) { freed += size }
        }
        try await connection.query("UPDATE account SET version_bytes = version_bytes + \(size - freed) WHERE id = \(account)", logger: logger)
        return size - freed
    }

    public func addVersions(account: Int64, recordId: UUID, _ versions: [(replacedAt: Double, fields: String)], quota: Int64) async throws -> Int? {
        let (logger, key) = (database.logger, recordId.key)
        return try await database.transaction { connection in
            // The note's row, locked: its versions change under this transaction only.
            let exists = try await Self.first(connection.query("""
                SELECT 1 FROM record WHERE account_id = \(account) AND record_id = \(key) AND record_type = 'note' AND NOT deleted FOR UPDATE
                """, logger: logger), Int32.self)
            guard exists != nil else { return nil }
            var (times, lowest): (Set<Double>, Int64) = ([], 0)
            let rows = try await connection.query(
                "SELECT seq, replaced_at FROM record_version WHERE account_id = \(account) AND record_id = \(key)", logger: logger)
            for try await (sequence, replacedAt) in rows.decode((Int64, Double).self) {
                times.insert(replacedAt)
                lowest = min(lowest, sequence)
            }
            var (grown, kept): (Int64, Int) = (0, 0)
            for version in versions where times.insert(version.replacedAt).inserted {
                lowest -= 1
                grown += try await keepVersion(connection, account: account, recordId: key, sequence: lowest, fields: version.fields,
                                               replacedAt: version.replacedAt)
                kept += 1
            }
            let used = try await Self.first(connection.query("""
                SELECT \(unescaped: Self.usedBytesExpression) FROM account WHERE id = \(account)
                """, logger: logger), Int64.self) ?? 0
            if grown > 0, used > quota { throw SyncServerError.quotaExceeded(used: used - grown, quota: quota) }
            return kept
        }
    }

    /// Drops every version kept of a deleted note; returns the (negative) bytes the versions grew by.
    private func dropVersions(_ connection: PostgresConnection, account: Int64, recordId: String) async throws -> Int64 {
        let logger = database.logger
        let sizes = try await connection.query(
            "DELETE FROM record_version WHERE account_id = \(account) AND record_id = \(recordId) RETURNING size", logger: logger)
        var freed: Int64 = 0
        for try await size in sizes.decode(Int64.self) { freed += size }
        try await connection.query("UPDATE account SET version_bytes = version_bytes - \(freed) WHERE id = \(account)", logger: logger)
        return -freed
    }

    /// The note versions the account's record `recordId` had, newest first; `nil` when the
    /// account holds no such note.
    public func versions(account: Int64, recordId: UUID) async throws -> [RecordVersion]? {
        let key = recordId.key
        let exists = try await Self.first(database.query("""
            SELECT 1 FROM record WHERE account_id = \(account) AND record_id = \(key) AND record_type = 'note'
            """), Int32.self)
        guard exists != nil else { return nil }
        let rows = try await database.query("""
            SELECT seq, replaced_at, fields FROM record_version WHERE account_id = \(account) AND record_id = \(key) ORDER BY seq DESC
            """)
        var versions: [RecordVersion] = []
        for try await (sequence, replacedAt, fields) in rows.decode((Int64, Double, String).self) {
            versions.append(RecordVersion(
                changeTag: String(sequence), replacedAt: replacedAt,
                fields: try RecordFields(wireJSON: fields.utf8)))
        }
        return versions
    }

    /// A stretch of the account's kept versions after `after`, in their order.
    public func keptVersions(account: Int64, after: Resealing.Cursor?, limit: Int) async throws -> [Resealing.Stored] {
        let rows = try await database.query("""
            SELECT record_id, seq, fields FROM record_version
            WHERE account_id = \(account) AND (record_id, seq) > (\(after?.recordId ?? ""), \(after?.sequence ?? Int64.min))
            ORDER BY record_id, seq LIMIT \(Int64(limit))
            """)
        var versions: [Resealing.Stored] = []
        for try await (recordId, sequence, fields) in rows.decode((String, Int64, String).self) {
            versions.append(Resealing.Stored(cursor: .init(recordId: recordId, sequence: sequence), fields: fields))
        }
        return versions
    }

    /// Replaces a kept version's fields when ``Resealing/accepts(replacing:with:)`` allows it.
    public func replaceVersion(account: Int64, at version: Resealing.Cursor, fields: RecordFields) async throws -> Resealing.Replacement {
        let logger = database.logger
        return try await database.transaction { connection in
            let old = try await Self.first(connection.query("""
                SELECT fields FROM record_version WHERE account_id = \(account) AND record_id = \(version.recordId) AND seq = \(version.sequence)
                FOR UPDATE
                """, logger: logger), String.self)
            guard let old else { return .notFound }
            guard Resealing.accepts(replacing: try RecordFields(wireJSON: old.utf8), with: fields) else { return .refused }
            let json = fields.wireJSON
            let grown = Int64(json.utf8.count) - Int64(old.utf8.count)
            try await connection.query("""
                UPDATE record_version SET fields = \(json), size = \(Int64(json.utf8.count))
                WHERE account_id = \(account) AND record_id = \(version.recordId) AND seq = \(version.sequence)
                """, logger: logger)
            try await connection.query("UPDATE account SET version_bytes = version_bytes + \(grown) WHERE id = \(account)", logger: logger)
            return .replaced
        }
    }

    /// A kept answer given again (``KeptAnswer/replay(_:held:purgedThrough:)``).
    private func replay(_ connection: PostgresConnection, account: Int64, _ stored: Data, purgedThrough: Int64) async throws -> ModifyResponse {
        let kept = try ModifyResponse(wireJSON: Array(stored))
        let held = try await current(connection, account: account, KeptAnswer.keys(kept)).mapValues(\.record)
        return KeptAnswer.replay(kept, held: held, purgedThrough: purgedThrough)
    }

    /// A record from its columns.
    static func record(type: String, id: String, sequence: Int64, deleted: Bool, fields: String, sentAgainFrom: Int64? = nil) throws -> SyncRecord {
        guard let recordId = UUID(key: id) else {
            throw SyncServerError(.internalError, "The server's storage holds a record with a malformed id.")
        }
        return SyncRecord(
            recordType: type, recordId: recordId, changeTag: String(sequence), deleted: deleted,
            fields: try RecordFields(wireJSON: fields.utf8), sentAgainFrom: sentAgainFrom.map(String.init))
    }
}
