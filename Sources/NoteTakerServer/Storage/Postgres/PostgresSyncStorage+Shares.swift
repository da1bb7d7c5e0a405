import Foundation
import NoteTakerSyncProtocol
import PostgresNIO

/// Shared zones (docs/sharing.md §3), as the SQLite storage keeps them.
extension PostgresSyncStorage {
    public func putShareMembers(_ share: StoredShareMembers) async throws -> ShareWrite {
        let logger = database.logger
        return try await database.transaction { connection in
            var held: (owner: Int64, epoch: Int64)?
            for try await row in try await connection.query(
                "SELECT owner_id, epoch FROM share_zone WHERE id = \(share.zone) FOR UPDATE", logger: logger).decode((Int64, Int64).self) {
                held = row
            }
            let (epoch, members, signature) = (Int64(share.epoch), share.signed.members, share.signed.signature)
            if let held {
                guard held.owner == share.owner else { return .notOwner }
                guard epoch == held.epoch + 1 else { return .staleEpoch(current: Int(held.epoch)) }
                try await connection.query(
                    "UPDATE share_zone SET epoch = \(epoch), members = \(members), signature = \(signature) WHERE id = \(share.zone)", logger: logger)
            } else {
                guard epoch == 1 else { return .staleEpoch(current: 0) }
                // A zone of this id made meanwhile makes an insert fail on a key: nothing changes.
                let now = Date().timeIntervalSince1970
                try await connection.query("""
                    WITH holder AS (
                        INSERT INTO account (username, password_hash, created_at, zone_owner)
                        VALUES (\(ZoneAccess.holderName(zone: share.zone)), '', \(now), \(share.owner)) RETURNING id)
                    INSERT INTO share_zone (id, owner_id, epoch, members, signature, created_at, holder_id)
                    SELECT \(share.zone), \(share.owner), \(epoch), \(members), \(signature), \(now), holder.id FROM holder
                    """, logger: logger)
            }
            try await connection.query("""
                INSERT INTO share_members_version (zone_id, epoch, members, signature) VALUES (\(share.zone), \(epoch), \(members), \(signature))
                """, logger: logger)
            let named = share.members.map(\.account)
            try await connection.query(
                "DELETE FROM share_member WHERE zone_id = \(share.zone) AND NOT (account_id = ANY(\(named)::bigint[]))", logger: logger)
            for member in share.members {
                try await connection.query("""
                    INSERT INTO share_member (zone_id, account_id, role, accepted)
                    VALUES (\(share.zone), \(member.account), \(member.role.rawValue), \(member.account == share.owner))
                    ON CONFLICT (zone_id, account_id) DO UPDATE SET role = EXCLUDED.role
                    """, logger: logger)
            }
            return .kept
        }
    }

    public func shareMembers(zone: String, epoch: Int?, account: Int64) async throws -> SignedShareMembers? {
        let rows = try await database.query("""
            SELECT version.members, version.signature FROM share_zone
            JOIN share_members_version version ON version.zone_id = share_zone.id AND version.epoch = COALESCE(\(epoch.map(Int64.init)), share_zone.epoch)
            WHERE share_zone.id = \(zone) AND EXISTS (SELECT 1 FROM share_member WHERE zone_id = share_zone.id AND account_id = \(account))
            """)
        for try await (members, signature) in rows.decode((String, String).self) {
            return SignedShareMembers(members: members, signature: signature)
        }
        return nil
    }

    public func zoneAccess(zone: String, account: Int64) async throws -> ZoneAccess? {
        let rows = try await database.query("""
            SELECT share_member.role, share_member.accepted, share_zone.holder_id, share_zone.owner_id, owner.quota_bytes
            FROM share_member JOIN share_zone ON share_zone.id = share_member.zone_id JOIN account owner ON owner.id = share_zone.owner_id
            WHERE share_member.zone_id = \(zone) AND share_member.account_id = \(account)
            """)
        for try await (role, accepted, holder, owner, quota) in rows.decode((String, Bool, Int64, Int64, Int64?).self) {
            return ShareMembers.Role(rawValue: role).map { ZoneAccess(role: $0, accepted: accepted, holder: holder, owner: owner, ownerQuotaBytes: quota) }
        }
        return nil
    }

    public func shares(account: Int64) async throws -> [ShareSummary] {
        let rows = try await database.query("""
            SELECT share_zone.id, owner.username, share_member.role, share_member.accepted, share_zone.epoch
            FROM share_member JOIN share_zone ON share_zone.id = share_member.zone_id JOIN account owner ON owner.id = share_zone.owner_id
            WHERE share_member.account_id = \(account) ORDER BY share_zone.id
            """)
        var shares: [ShareSummary] = []
        for try await (zone, owner, role, accepted, epoch) in rows.decode((String, String, String, Bool, Int64).self) {
            if let role = ShareMembers.Role(rawValue: role) {
                shares.append(ShareSummary(zone: zone, owner: owner, role: role, accepted: accepted, epoch: Int(epoch)))
            }
        }
        return shares
    }

    public func putZoneKeyBoxes(zone: String, boxes: [(account: Int64, version: Int, box: String)]) async throws {
        guard !boxes.isEmpty else { return }
        try await database.query("""
            INSERT INTO share_key_box (zone_id, version, account_id, box)
            SELECT \(zone), box.version, box.account_id, box.box
            FROM UNNEST(\(boxes.map { Int64($0.version) })::bigint[], \(boxes.map(\.account))::bigint[], \(boxes.map(\.box))::text[])
                AS box (version, account_id, box)
            WHERE EXISTS (SELECT 1 FROM share_member WHERE zone_id = \(zone) AND account_id = box.account_id)
            ON CONFLICT (zone_id, account_id, version) DO UPDATE SET box = EXCLUDED.box
            """)
    }

    public func zoneKeyBoxes(zone: String, account: Int64) async throws -> [String] {
        var boxes: [String] = []
        let rows = try await database.query(
            "SELECT box FROM share_key_box WHERE zone_id = \(zone) AND account_id = \(account) ORDER BY version")
        for try await box in rows.decode(String.self) { boxes.append(box) }
        return boxes
    }

    public func acceptShare(zone: String, account: Int64) async throws -> Bool {
        try await Self.first(database.query(
            "UPDATE share_member SET accepted = true WHERE zone_id = \(zone) AND account_id = \(account) RETURNING 1"), Int32.self) != nil
    }

    public func leaveShare(zone: String, account: Int64) async throws -> Bool {
        try await Self.first(database.query(
            "DELETE FROM share_member WHERE zone_id = \(zone) AND account_id = \(account) RETURNING 1"), Int32.self) != nil
    }

    public func zoneMembers(zone: String) async throws -> [Int64] {
        var accounts: [Int64] = []
        let rows = try await database.query("SELECT account_id FROM share_member WHERE zone_id = \(zone) AND accepted ORDER BY account_id")
        for try await account in rows.decode(Int64.self) { accounts.append(account) }
        return accounts
    }

    public func shareCounts() async throws -> (shares: Int, members: Int) {
        let rows = try await database.query("SELECT (SELECT count(*) FROM share_zone), (SELECT count(*) FROM share_member)")
        for try await (shares, members) in rows.decode((Int64, Int64).self) { return (Int(shares), Int(members)) }
        return (0, 0)
    }

    public func deleteShare(zone: String, owner: Int64) async throws -> [String]? {
        let logger = database.logger
        return try await database.transaction { connection in
            let held = try await connection.query(
                "SELECT holder_id FROM share_zone WHERE id = \(zone) AND owner_id = \(owner) FOR UPDATE", logger: logger)
            guard let holder = try await Self.first(held, Int64.self) else { return nil }
            let orphaned = try await Self.orphanedAssets(connection, of: "id = $1", holder, logger: logger)
            // The zone's row, members and boxes go with its holder (ON DELETE CASCADE).
            try await connection.query("DELETE FROM account WHERE id = \(holder)", logger: logger)
            return orphaned
        }
    }
}
