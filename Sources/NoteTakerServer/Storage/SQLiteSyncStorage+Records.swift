import Foundation
import GRDB
import NoteTakerSyncProtocol

extension SQLiteSyncStorage {
    /// How long answers to batches are kept for repeated requests: 30 days.
    static let requestRetention: TimeInterval = 30 * 24 * 3600

    /// The account's newest change sequence number.
    public func latestSequence(account: Int64) async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT sequence FROM account WHERE id = ?", arguments: [account]) ?? 0
        }
    }

    /// Records changed after `after`, oldest change first, but those `skipping` made; at
    /// most `limit` of them and about `maxBytes` of fields (at least one record).
    public func changes(account: Int64, after: Int64, skipping own: AuthoredChanges?, limit: Int, maxBytes: Int) async throws -> ChangesPage {
        try await writer.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT recordType, recordId, seq, deleted, fields, size FROM record
                WHERE accountId = ? AND seq > ? AND NOT (author IS ? AND seq <= ?)
                ORDER BY seq
                """, arguments: [account, after, own?.device.uuidString.lowercased(), own?.through ?? 0])
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
    public func modify(account: Int64, request: ModifyRequest, quota: Int64) async throws -> ModifyResponse {
        let requestKey = request.requestId.uuidString.lowercased()
        return try await writer.write { db in
            if let stored = try Data.fetchOne(db, sql: "SELECT response FROM request WHERE accountId = ? AND requestId = ?", arguments: [account, requestKey]) {
                return try Self.replay(db, account: account, stored)
            }
            var sequence = try Int64.fetchOne(db, sql: "SELECT sequence FROM account WHERE id = ?", arguments: [account]) ?? 0
            var addedBytes: Int64 = 0
            var versionBytes: Int64 = 0
            var results: [RecordResult] = []
            for change in request.changes {
                let key = change.recordId.uuidString.lowercased()
                let currentRow = try Row.fetchOne(db, sql: """
                    SELECT recordType, recordId, seq, deleted, fields, size FROM record
                    WHERE accountId = ? AND recordId = ? AND recordType = ?
                    """, arguments: [account, key, change.recordType])
                let current = try currentRow.map(Self.record)
                switch RecordVersioning.decide(change, current: current) {
                case .conflict(let serverRecord):
                    results.append(RecordResult(
                        recordId: change.recordId, recordType: change.recordType,
                        outcome: .serverRecordChanged, serverRecord: serverRecord))
                case .alreadyApplied(let tag):
                    results.append(RecordResult(recordId: change.recordId, recordType: change.recordType, outcome: .saved, changeTag: tag))
                case .apply:
                    if change.recordType == SyncRecordType.note.rawValue, let currentRow {
                        versionBytes += try Self.keepVersion(db, account: account, currentRow, replacedBy: change)
                    }
                    sequence += 1
                    let fields = change.operation == .save ? try RecordVersioning.encodedFields(change) : Data("{}".utf8)
                    let size = Int64(fields.count)
                    addedBytes += size - (currentRow?["size"] ?? 0)
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO record (accountId, recordId, recordType, seq, deleted, fields, size, author)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [
                            account, key, change.recordType, sequence, change.operation == .delete,
                            String(decoding: fields, as: UTF8.self), size, request.deviceId?.uuidString.lowercased(),
                        ])
                    results.append(RecordResult(
                        recordId: change.recordId, recordType: change.recordType, outcome: .saved, changeTag: String(sequence)))
                }
            }
            if addedBytes + versionBytes > 0 {
                // The versions kept are counted in `used` already; the records' growth is added.
                let used = try Int64.fetchOne(db, sql: Self.usedBytesSQL, arguments: [account]) ?? 0
                if used + addedBytes > quota { throw SyncServerError.quotaExceeded(used: used - versionBytes, quota: quota) }
            }
            try db.execute(
                sql: "UPDATE account SET sequence = ?, recordBytes = recordBytes + ? WHERE id = ?",
                arguments: [sequence, addedBytes, account])
            let response = ModifyResponse(results: results)
            // The answer is kept without the server's copies of conflicting records (a
            // replay reads them afresh), so each stays small: a couple of hundred bytes a change.
            let compact = ModifyResponse(results: results.map { result in
                var result = result
                result.serverRecord = nil
                return result
            })
            let now = Date().timeIntervalSince1970
            let kept = try JSONEncoder().encode(compact)
            try db.execute(
                sql: "INSERT INTO request (accountId, requestId, response, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [account, requestKey, kept, now])
            // Kept for 30 days, and the newest 1,000 only: a batch repeated after that is
            // decided against change tags again, which merging absorbs. Their bytes count in
            // the account's usage.
            let expired = """
                accountId = ?1 AND (createdAt < ?2 OR createdAt < (
                    SELECT createdAt FROM request WHERE accountId = ?1 ORDER BY createdAt DESC LIMIT 1 OFFSET ?3))
                """
            let arguments: StatementArguments = [account, now - Self.requestRetention, Self.storedAnswers - 1]
            let freed = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(length(response)), 0) FROM request WHERE " + expired, arguments: arguments) ?? 0
            try db.execute(sql: "DELETE FROM request WHERE " + expired, arguments: arguments)
            try db.execute(sql: "UPDATE account SET answerBytes = answerBytes + ? - ? WHERE id = ?",
                           arguments: [Int64(kept.count), freed, account])
            return response
        }
    }

    /// The note versions the account's record `recordId` had, newest first; `nil` when the
    /// account holds no such note.
    public func versions(account: Int64, recordId: UUID) async throws -> [RecordVersion]? {
        let key = recordId.uuidString.lowercased()
        return try await writer.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM record WHERE accountId = ? AND recordId = ? AND recordType = 'note'",
                                    arguments: [account, key]) == true else { return nil }
            return try Row.fetchAll(db, sql: """
                SELECT seq, replacedAt, fields FROM record_version WHERE accountId = ? AND recordId = ? ORDER BY seq DESC
                """, arguments: [account, key]).map { row in
                RecordVersion(changeTag: String(row["seq"] as Int64), replacedAt: row["replacedAt"],
                              fields: try JSONDecoder().decode(RecordFields.self, from: Data((row["fields"] as String).utf8)))
            }
        }
    }

    /// Keeps the title, body and date of the note version a change replaces (a text change;
    /// a deletion, the purge of a note, drops every version instead), thins that note's
    /// versions as devices do, and counts their bytes in the account's usage. Returns the
    /// bytes the versions grew by.
    static func keepVersion(_ db: Database, account: Int64, _ current: Row, replacedBy change: RecordChange) throws -> Int64 {
        let key = change.recordId.uuidString.lowercased()
        if change.operation == .delete {
            let freed = try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(size), 0) FROM record_version WHERE accountId = ? AND recordId = ?",
                                           arguments: [account, key]) ?? 0
            try db.execute(sql: "DELETE FROM record_version WHERE accountId = ? AND recordId = ?", arguments: [account, key])
            try db.execute(sql: "UPDATE account SET versionBytes = versionBytes - ? WHERE id = ?", arguments: [freed, account])
            return -freed
        }
        guard !(current["deleted"] as Bool),
              let old = try? JSONDecoder().decode(RecordFields.self, from: Data((current["fields"] as String).utf8)),
              old["title"] != change.fields?["title"] || old["body"] != change.fields?["body"] else { return 0 }
        let kept: RecordFields = ["title": old["title"] ?? .string(""), "body": old["body"] ?? .string(""),
                                  "modifiedAt": old["modifiedAt"] ?? .null, "editedOn": old["editedOn"] ?? .null]
        let text = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
        let now = Date()
        try db.execute(sql: """
            INSERT OR REPLACE INTO record_version (accountId, recordId, seq, replacedAt, fields, size) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [account, key, current["seq"] as Int64, now.timeIntervalSince1970, text, text.utf8.count])
        let rows = try Row.fetchAll(db, sql: "SELECT seq, replacedAt, size FROM record_version WHERE accountId = ? AND recordId = ? ORDER BY seq DESC",
                                    arguments: [account, key])
        let keptRows = VersionThinning.kept(
            rows, replacedAt: { Date(timeIntervalSince1970: $0["replacedAt"]) }, now: now,
            everyVersionDays: ServerVersionRetention.everyVersionDays, dailyDays: ServerVersionRetention.dailyDays,
            weeklyDays: ServerVersionRetention.weeklyDays)
        let keptSeqs = Set(keptRows.map { $0["seq"] as Int64 })
        var bytes: Int64 = 0
        for row in rows {
            if keptSeqs.contains(row["seq"]) {
                bytes += row["size"] as Int64
            } else {
                try db.execute(sql: "DELETE FROM record_version WHERE accountId = ? AND recordId = ? AND seq = ?",
                               arguments: [account, key, row["seq"] as Int64])
            }
        }
        let before = rows.reduce(Int64(0)) { $0 + ($1["size"] as Int64) } - Int64(text.utf8.count)
        try db.execute(sql: "UPDATE account SET versionBytes = versionBytes + ? WHERE id = ?", arguments: [bytes - before, account])
        return bytes - before
    }

    /// The most answers kept per account for repeated batches.
    static let storedAnswers = 1_000

    /// A kept answer, with the server's current copy of each record that conflicted.
    static func replay(_ db: Database, account: Int64, _ stored: Data) throws -> ModifyResponse {
        var response = try JSONDecoder().decode(ModifyResponse.self, from: stored)
        for index in response.results.indices where response.results[index].outcome == .serverRecordChanged {
            let result = response.results[index]
            response.results[index].serverRecord = try Row.fetchOne(db, sql: """
                SELECT recordType, recordId, seq, deleted, fields FROM record WHERE accountId = ? AND recordId = ? AND recordType = ?
                """, arguments: [account, result.recordId.uuidString.lowercased(), result.recordType]).map(Self.record)
        }
        return response
    }

    /// Decodes a `record` row (recordType, recordId, seq, deleted, fields).
    static func record(_ row: Row) throws -> SyncRecord {
        let fields = try JSONDecoder().decode(RecordFields.self, from: Data((row["fields"] as String).utf8))
        guard let id = UUID(uuidString: row["recordId"]) else {
            throw SyncServerError(.internalError, "The server's storage holds a record with a malformed id.")
        }
        return SyncRecord(
            recordType: row["recordType"], recordId: id,
            changeTag: String(row["seq"] as Int64), deleted: row["deleted"], fields: fields)
    }
}
