import Foundation
import GRDB
import NoteTakerSyncProtocol

/// Shared zones (docs/sharing.md §3): members records, the members' roles, and key boxes.
extension SQLiteSyncStorage {
    public func putShareMembers(_ share: StoredShareMembers) async throws -> ShareWrite {
        try await writer.write { db in
            let held = try Row.fetchOne(db, sql: "SELECT ownerId, epoch FROM share_zone WHERE id = ?", arguments: [share.zone])
            if let held {
                guard (held["ownerId"] as Int64) == share.owner else { return .notOwner }
                let current: Int = held["epoch"]
                guard share.epoch == current + 1 else { return .staleEpoch(current: current) }
                try db.execute(sql: "UPDATE share_zone SET epoch = ?, members = ?, signature = ? WHERE id = ?",
                               arguments: [share.epoch, share.signed.members, share.signed.signature, share.zone])
            } else {
                guard share.epoch == 1 else { return .staleEpoch(current: 0) }
                let now = Date().timeIntervalSince1970
                try db.execute(sql: "INSERT INTO account (username, passwordHash, createdAt, zoneOwner) VALUES (?, '', ?, ?)",
                               arguments: [ZoneAccess.holderName(zone: share.zone), now, share.owner])
                try db.execute(sql: "INSERT INTO share_zone (id, ownerId, epoch, members, signature, createdAt, holderId) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [share.zone, share.owner, share.epoch, share.signed.members, share.signed.signature, now, db.lastInsertedRowID])
            }
            try db.execute(sql: "INSERT INTO share_members_version (zoneId, epoch, members, signature) VALUES (?, ?, ?, ?)",
                           arguments: [share.zone, share.epoch, share.signed.members, share.signed.signature])
            let named = share.members.map(\.account)
            let kept = try Int64.fetchAll(db, sql: "SELECT accountId FROM share_member WHERE zoneId = ?", arguments: [share.zone])
            for gone in kept where !named.contains(gone) {
                try db.execute(sql: "DELETE FROM share_member WHERE zoneId = ? AND accountId = ?", arguments: [share.zone, gone])
            }
            for member in share.members {
                try db.execute(sql: """
                    INSERT INTO share_member (zoneId, accountId, role, accepted) VALUES (?, ?, ?, ?)
                    ON CONFLICT (zoneId, accountId) DO UPDATE SET role = excluded.role
                    """, arguments: [share.zone, member.account, member.role.rawValue, member.account == share.owner])
            }
            return .kept
        }
    }

    public func shareMembers(zone: String, epoch: Int?, account: Int64) async throws -> SignedShareMembers? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT version.members, version.signature FROM share_zone
                JOIN share_members_version version ON version.zoneId = share_zone.id AND version.epoch = IFNULL(?, share_zone.epoch)
                WHERE share_zone.id = ? AND EXISTS (SELECT 1 FROM share_member WHERE zoneId = share_zone.id AND accountId = ?)
                """, arguments: [epoch, zone, account]).map { SignedShareMembers(members: $0[0], signature: $0[1]) }
        }
    }

    public func zoneAccess(zone: String, account: Int64) async throws -> ZoneAccess? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT share_member.role, share_member.accepted, share_zone.holderId, share_zone.ownerId, owner.quotaBytes
                FROM share_member JOIN share_zone ON share_zone.id = share_member.zoneId JOIN account owner ON owner.id = share_zone.ownerId
                WHERE share_member.zoneId = ? AND share_member.accountId = ?
                """, arguments: [zone, account]).flatMap { row in
                ShareMembers.Role(rawValue: row[0]).map { ZoneAccess(role: $0, accepted: row[1], holder: row[2], owner: row[3], ownerQuotaBytes: row[4]) }
            }
        }
    }

    public func shares(account: Int64) async throws -> [ShareSummary] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT share_zone.id, owner.username, share_member.role, share_member.accepted, share_zone.epoch
                FROM share_member JOIN share_zone ON share_zone.id = share_member.zoneId JOIN account owner ON owner.id = share_zone.ownerId
                WHERE share_member.accountId = ? ORDER BY share_zone.id
                """, arguments: [account]).compactMap { row in
                ShareMembers.Role(rawValue: row[2]).map { ShareSummary(zone: row[0], owner: row[1], role: $0, accepted: row[3], epoch: row[4]) }
            }
        }
    }

    public func putZoneKeyBoxes(zone: String, boxes: [(account: Int64, version: Int, box: String)]) async throws {
        try await writer.write { db in
            for box in boxes {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO share_key_box (zoneId, version, accountId, box)
                    SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM share_member WHERE zoneId = ? AND accountId = ?)
                    """, arguments: [zone, box.version, box.account, box.box, zone, box.account])
            }
        }
    }

    public func zoneKeyBoxes(zone: String, account: Int64) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT box FROM share_key_box WHERE zoneId = ? AND accountId = ? ORDER BY version",
                                arguments: [zone, account])
        }
    }

    public func acceptShare(zone: String, account: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "UPDATE share_member SET accepted = 1 WHERE zoneId = ? AND accountId = ?", arguments: [zone, account])
            return db.changesCount > 0
        }
    }

    public func leaveShare(zone: String, account: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM share_member WHERE zoneId = ? AND accountId = ?", arguments: [zone, account])
            return db.changesCount > 0
        }
    }

    public func zoneMembers(zone: String) async throws -> [Int64] {
        try await writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT accountId FROM share_member WHERE zoneId = ? AND accepted ORDER BY accountId", arguments: [zone])
        }
    }

    public func shareCounts() async throws -> (shares: Int, members: Int) {
        try await writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM share_zone") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM share_member") ?? 0)
        }
    }

    public func deleteShare(zone: String, owner: Int64) async throws -> [String]? {
        try await writer.write { db in
            guard let holder = try Int64.fetchOne(db, sql: "SELECT holderId FROM share_zone WHERE id = ? AND ownerId = ?", arguments: [zone, owner]) else {
                return nil
            }
            let orphaned = try Self.orphanedAssets(db, deleting: "id = ?1", holder)
            // The zone's row, members and boxes go with its holder (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [holder])
            return orphaned
        }
    }
}
