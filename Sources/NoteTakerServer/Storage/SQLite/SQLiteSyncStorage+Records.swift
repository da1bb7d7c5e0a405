import Foundation
import GRDB
import NoteTakerSyncProtocol

extension SQLiteSyncStorage {
    /// The account's newest change sequence number.
    public func check() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func latestSequence(account: Int64) async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT sequence FROM account WHERE id = ?", arguments: [account]) ?? 0
        }
    }

    /// The mark of the batch that wrote change `sequence`, or of the first one after it.
    public func historyMark(account: Int64, at sequence: Int64) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT mark FROM history WHERE accountId = ? AND seq >= ? ORDER BY seq LIMIT 1",
                                arguments: [account, sequence])
        }
    }

    /// Records changed after `after`, oldest change first, but those `skipping` made; at
    /// most `limit` of them and about `maxBytes` of fields (at least one record).
    public func changes(account: Int64, after: Int64, skipping own: AuthoredChanges?, limit: Int, maxBytes: Int) async throws -> ChangesPage {
        try await writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT recordType, recordId, seq, deleted, fields, size, sentAgainFrom FROM record
                WHERE accountId = ? AND seq > ? AND NOT (author IS ? AND seq <= ?)
                ORDER BY seq
                """, arguments: [account, after, own?.device.key, own?.through ?? 0])
            var page = ChangesPage(records: [], moreComing: false)
            var bytes = 0
            while let row = try rows.next() {
                let size: Int = row["size"]
                if page.records.count == limit || (!page.records.isEmpty && bytes + size > maxBytes) {
                    page.moreComing = true
                    break
                }
                bytes += size
                page.records.append(try Self.record(row))
            }
            return page
        }
    }

    /// Applies a batch in one transaction, or answers a repeated one again.
    public func modify(account: Int64, request: ModifyRequest, fieldsJSON: [String?], quota: Int64) async throws -> ModifyResponse {
        let requestKey = request.requestId.key
        return try await writer.write { db in
            let now = Date().timeIntervalSince1970
            let stored = try Row.fetchOne(db, sql: "SELECT response, createdAt FROM request WHERE accountId = ? AND requestId = ?",
                                          arguments: [account, requestKey])
            let position = try Row.fetchOne(db, sql: "SELECT sequence, purgedThrough FROM account WHERE id = ?", arguments: [account])
            let (sequence, purgedThrough): (Int64, Int64) = (position?["sequence"] ?? 0, position?["purgedThrough"] ?? 0)
            // An answer past its retention is not given again, though not yet deleted: the
            // batch is decided anew, and its new answer takes the old one's place.
            if let stored, (stored["createdAt"] as Double) >= now - BatchPlan.answerRetention {
                return try Self.replay(db, account: account, stored["response"], purgedThrough: purgedThrough)
            }
            let replacedBytes = Int64((stored?["response"] as Data?)?.count ?? 0)
            // Applied once, its answer forgotten since (expired, or kept only as a mark).
            let appliedBefore = try stored != nil || Bool.fetchOne(db.cachedStatement(sql: """
                SELECT 1 FROM request_marker WHERE accountId = ? AND requestId = ?
                """), arguments: [account, requestKey]) == true
            let current = try Self.current(db, account: account, request.keys)
            let plan = try BatchPlan(
                request, fieldsJSON: fieldsJSON, sequence: sequence, purgedThrough: purgedThrough, appliedBefore: appliedBefore, serverId: serverId,
                current: current, purged: try Self.purged(db, account: account, request.keysMaybePurged(notIn: current)))
            var versionBytes: Int64 = 0
            for step in plan.steps {
                switch step {
                case .write(let write):
                    try db.cachedStatement(sql: """
                        INSERT OR REPLACE INTO record
                            (accountId, recordId, recordType, seq, deleted, fields, size, author, editSeq, editAuthor, deletedAt, sentAgainFrom)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULLIF(?9, ?4), CASE WHEN ?9 <> ?4 THEN ?10 END, ?11, ?12)
                        """).execute(arguments: [
                            account, write.key.recordId, write.key.recordType, write.sequence, write.deleted,
                            write.fields, write.size, request.deviceId?.key, write.editSequence, write.editAuthor,
                            write.deleted ? now : nil, write.sentAgainFrom,
                        ])
                case .keepVersion(let recordId, let sequence, let fields):
                    versionBytes += try Self.keepVersion(db, account: account, recordId: recordId, sequence: sequence, fields: fields)
                case .dropVersions(let recordId):
                    versionBytes += try Self.dropVersions(db, account: account, recordId: recordId)
                }
            }
            let used = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
            try plan.checkQuota(used: used, versionBytes: versionBytes, quota: quota)
            try db.execute(
                sql: "UPDATE account SET sequence = ?, recordBytes = recordBytes + ? WHERE id = ?",
                arguments: [plan.sequence, plan.addedBytes, account])
            if plan.sequence > sequence {
                try db.execute(sql: "INSERT INTO history (accountId, seq, mark) VALUES (?, ?, ?)",
                               arguments: [account, plan.sequence, HistoryMark.make()])
            }
            let kept = plan.keptAnswer()
            try db.execute(
                sql: "INSERT OR REPLACE INTO request (accountId, requestId, response, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [account, requestKey, kept, now])
            // Kept for 30 days, and the newest 1,000 only: a batch repeated after that is
            // decided against change tags again, which merging absorbs, knowing it was applied
            // once (its mark stays a year). Their bytes count in the account's usage.
            let expired = """
                accountId = ?1 AND (createdAt < ?2 OR createdAt < (
                    SELECT createdAt FROM request WHERE accountId = ?1 ORDER BY createdAt DESC LIMIT 1 OFFSET ?3))
                """
            let arguments: StatementArguments = [account, now - BatchPlan.answerRetention, BatchPlan.storedAnswers - 1]
            var freed: Int64 = 0
            let gone = try Row.fetchAll(db.cachedStatement(sql: "DELETE FROM request WHERE " + expired + " RETURNING requestId, createdAt, length(response)"),
                                        arguments: arguments)
            for row in gone {
                freed += row[2] as Int64
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO request_marker (accountId, requestId, createdAt) VALUES (?, ?, ?)")
                    .execute(arguments: [account, row[0], row[1]])
            }
            try db.execute(sql: "UPDATE account SET answerBytes = answerBytes + ? - ? WHERE id = ?",
                           arguments: [Int64(kept.count), freed + replacedBytes, account])
            return plan.response
        }
    }

    /// The note versions the account's record `recordId` had, newest first; `nil` when the
    /// account holds no such note.
    public func versions(account: Int64, recordId: UUID) async throws -> [RecordVersion]? {
        let key = recordId.key
        return try await writer.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM record WHERE accountId = ? AND recordId = ? AND recordType = 'note'",
                                    arguments: [account, key]) == true else { return nil }
            return try Row.fetchAll(db, sql: """
                SELECT seq, replacedAt, fields FROM record_version WHERE accountId = ? AND recordId = ? ORDER BY seq DESC
                """, arguments: [account, key]).map { row in
                RecordVersion(changeTag: String(row["seq"] as Int64), replacedAt: row["replacedAt"],
                              fields: try RecordFields(wireJSON: (row["fields"] as String).utf8))
            }
        }
    }

    /// A stretch of the account's kept versions after `after`, in their order.
    public func keptVersions(account: Int64, after: Resealing.Cursor?, limit: Int) async throws -> [Resealing.Stored] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT recordId, seq, fields FROM record_version WHERE accountId = ? AND (recordId, seq) > (?, ?)
                ORDER BY recordId, seq LIMIT ?
                """, arguments: [account, after?.recordId ?? "", after?.sequence ?? Int64.min, limit]).map { row in
                Resealing.Stored(cursor: .init(recordId: row["recordId"], sequence: row["seq"]), fields: row["fields"])
            }
        }
    }

    /// Replaces a kept version's fields when ``Resealing/accepts(replacing:with:)`` allows it.
    public func replaceVersion(account: Int64, at version: Resealing.Cursor, fields: RecordFields) async throws -> Resealing.Replacement {
        try await writer.write { db in
            let arguments: StatementArguments = [account, version.recordId, version.sequence]
            guard let old = try String.fetchOne(db, sql: "SELECT fields FROM record_version WHERE accountId = ? AND recordId = ? AND seq = ?",
                                                arguments: arguments) else { return .notFound }
            guard Resealing.accepts(replacing: try RecordFields(wireJSON: old.utf8), with: fields) else { return .refused }
            let json = fields.wireJSON
            try db.execute(sql: "UPDATE record_version SET fields = ?, size = ? WHERE accountId = ? AND recordId = ? AND seq = ?",
                           arguments: [json, json.utf8.count] + arguments)
            try db.execute(sql: "UPDATE account SET versionBytes = versionBytes + ? WHERE id = ?",
                           arguments: [json.utf8.count - old.utf8.count, account])
            return .replaced
        }
    }

    public func addVersions(account: Int64, recordId: UUID, _ versions: [(replacedAt: Double, fields: String)], quota: Int64) async throws -> Int? {
        let key = recordId.key
        return try await writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM record WHERE accountId = ? AND recordId = ? AND recordType = 'note' AND NOT deleted",
                                    arguments: [account, key]) == true else { return nil }
            let held = try Row.fetchAll(db, sql: "SELECT seq, replacedAt FROM record_version WHERE accountId = ? AND recordId = ?",
                                        arguments: [account, key])
            var times = Set(held.map { $0["replacedAt"] as Double })
            var sequence = min(held.map { $0["seq"] as Int64 }.min() ?? 0, 0)
            var (grown, kept): (Int64, Int) = (0, 0)
            for version in versions where times.insert(version.replacedAt).inserted {
                sequence -= 1
                grown += try Self.keepVersion(db, account: account, recordId: key, sequence: sequence, fields: version.fields,
                                              replacedAt: version.replacedAt)
                kept += 1
            }
            let used = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
            if grown > 0, used > quota { throw SyncServerError.quotaExceeded(used: used - grown, quota: quota) }
            return kept
        }
    }

    /// Keeps a note's replaced text as the version of change `sequence` (replaced now, or at
    /// `replacedAt` for a version that moved here), thins the note's versions as devices do,
    /// and counts their bytes in the account's usage. Returns the bytes the versions grew by.
    static func keepVersion(_ db: Database, account: Int64, recordId: String, sequence: Int64, fields: String, replacedAt: Double? = nil) throws -> Int64 {
        let now = Date()
        try db.execute(sql: """
            INSERT OR REPLACE INTO record_version (accountId, recordId, seq, replacedAt, fields, size) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [account, recordId, sequence, replacedAt ?? now.timeIntervalSince1970, fields, fields.utf8.count])
        let versions = try Row.fetchAll(db, sql: "SELECT seq, replacedAt FROM record_version WHERE accountId = ? AND recordId = ?",
                                        arguments: [account, recordId]).map { (sequence: $0["seq"] as Int64, replacedAt: $0["replacedAt"] as Double) }
        var freed: Int64 = 0
        for dropped in VersionKeeping.dropped(versions, now: now) {
            freed += try Int64.fetchOne(db, sql: "DELETE FROM record_version WHERE accountId = ? AND recordId = ? AND seq = ? RETURNING size",
                                        arguments: [account, recordId, dropped]) ?? 0
        }
        let grown = Int64(fields.utf8.count) - freed
        try db.execute(sql: "UPDATE account SET versionBytes = versionBytes + ? WHERE id = ?", arguments: [grown, account])
        return grown
    }

    /// Drops every version kept of a deleted note; returns the (negative) bytes the versions grew by.
    static func dropVersions(_ db: Database, account: Int64, recordId: String) throws -> Int64 {
        let freed = try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(size), 0) FROM record_version WHERE accountId = ? AND recordId = ?",
                                       arguments: [account, recordId]) ?? 0
        try db.execute(sql: "DELETE FROM record_version WHERE accountId = ? AND recordId = ?", arguments: [account, recordId])
        try db.execute(sql: "UPDATE account SET versionBytes = versionBytes - ? WHERE id = ?", arguments: [freed, account])
        return -freed
    }

    /// A kept answer given again (``KeptAnswer/replay(_:held:purgedThrough:)``).
    static func replay(_ db: Database, account: Int64, _ stored: Data, purgedThrough: Int64) throws -> ModifyResponse {
        let kept = try ModifyResponse(wireJSON: Array(stored))
        return KeptAnswer.replay(kept, held: try current(db, account: account, KeptAnswer.keys(kept)).mapValues(\.record), purgedThrough: purgedThrough)
    }

    /// The records of the account with these keys, as the server holds them now.
    static func current(_ db: Database, account: Int64, _ keys: Set<BatchPlan.RecordKey>) throws -> [BatchPlan.RecordKey: BatchPlan.StoredRecord] {
        var current: [BatchPlan.RecordKey: BatchPlan.StoredRecord] = [:]
        for key in keys {
            current[key] = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT recordType, recordId, seq, deleted, fields, size, IFNULL(editSeq, seq) AS editSeq,
                    CASE WHEN editSeq IS NULL THEN author ELSE editAuthor END AS editAuthor, sentAgainFrom
                FROM record WHERE accountId = ? AND recordId = ? AND recordType = ?
                """), arguments: [account, key.recordId, key.recordType]).map {
                BatchPlan.StoredRecord(record: try Self.record($0), size: $0["size"], editSequence: $0["editSeq"], editAuthor: $0["editAuthor"])
            }
        }
        return current
    }

    /// The tombstone of each of `keys` that a purge removed, as it was (its change, and its
    /// fields when it had any).
    static func purged(_ db: Database, account: Int64, _ keys: [BatchPlan.RecordKey]) throws -> [BatchPlan.RecordKey: SyncRecord] {
        var purged: [BatchPlan.RecordKey: SyncRecord] = [:]
        for key in keys {
            purged[key] = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT recordType, recordId, deletion AS seq, 1 AS deleted, IFNULL(fields, '{}') AS fields
                FROM purged_record WHERE accountId = ? AND recordId = ? AND recordType = ?
                """), arguments: [account, key.recordId, key.recordType]).map(Self.record)
        }
        return purged
    }

    /// Decodes a `record` row (recordType, recordId, seq, deleted, fields, and sentAgainFrom when selected).
    static func record(_ row: Row) throws -> SyncRecord {
        let fields = try RecordFields(wireJSON: (row["fields"] as String).utf8)
        guard let id = UUID(key: row["recordId"]) else {
            throw SyncServerError(.internalError, "The server's storage holds a record with a malformed id.")
        }
        return SyncRecord(
            recordType: row["recordType"], recordId: id,
            changeTag: String(row["seq"] as Int64), deleted: row["deleted"], fields: fields,
            sentAgainFrom: (row["sentAgainFrom"] as Int64?).map(String.init))
    }
}
