import Foundation

/// Who may read and write a shared zone (docs/sharing.md §3.2): written and signed by the
/// zone's owner only, read by the server for the roles and checked by every member's devices.
public struct ShareMembers: Sendable, Hashable, Codable {
    /// What a member may do (docs/sharing.md §3.1).
    public enum Role: String, Sendable, Hashable, Codable {
        /// The account that shared: reads, writes, invites, changes roles, removes.
        case owner
        /// Reads and writes (purges from the zone's trash too).
        case editor
        /// Reads only.
        case viewer
    }

    /// What was shared: a folder with everything under it, or one note.
    public struct Root: Sendable, Hashable, Codable {
        /// `folder` or `note`.
        public var kind: String
        /// The folder's or note's id, lowercase.
        public var id: String

        /// The root of a share.
        public init(kind: String, id: UUID) {
            self.kind = kind
            self.id = id.uuidString.lowercased()
        }
    }

    /// A member: its account, role and public identity keys.
    public struct Member: Sendable, Hashable, Codable {
        /// The account's name, lowercased.
        public var account: String
        /// What it may do.
        public var role: Role
        /// Its agreement (X25519) public key, base64url.
        public var agreement: String
        /// Its signing (Ed25519) public key, base64url.
        public var signing: String

        /// A member with these keys; the name is kept lowercased.
        public init(account: String, role: Role, identity: AccountIdentity) {
            self.account = account.lowercased()
            self.role = role
            agreement = identity.agreement
            signing = identity.signing
        }

        /// Its public identity keys.
        public var identity: AccountIdentity { AccountIdentity(agreement: agreement, signing: signing) }
    }

    /// The zone's id, lowercase.
    public var zone: String
    /// Rises by one at every change of members, roles or key version.
    public var epoch: Int
    /// What was shared.
    public var root: Root
    /// Every member, the owner included, each once.
    public var members: [Member]
    /// The newest version of the zone's data key.
    public var keyVersion: Int

    /// A members record.
    public init(zone: UUID, epoch: Int, root: Root, members: [Member], keyVersion: Int) {
        self.zone = zone.uuidString.lowercased()
        self.epoch = epoch
        self.root = root
        self.members = members
        self.keyVersion = keyVersion
    }

    /// The one owner, when the record names exactly one.
    public var owner: Member? {
        let owners = members.filter { $0.role == .owner }
        return owners.count == 1 ? owners[0] : nil
    }

    /// The member `account` names (in any case), if any.
    public func member(_ account: String) -> Member? {
        let name = account.lowercased()
        return members.first { $0.account == name }
    }

    /// The largest epoch or key version: the largest integer JSON readers all keep exactly.
    public static let maxCounter = (1 << 53) - 1

    /// Why the record is not well formed (docs/sharing.md §3.2), or `nil` when it is.
    public func problem() -> String? {
        guard Self.isLowercaseUUID(zone), Self.isLowercaseUUID(root.id) else { return "the zone and root ids must be lowercase UUIDs" }
        guard ["folder", "note"].contains(root.kind) else { return "the root must be a folder or a note" }
        guard (1...Self.maxCounter).contains(epoch), (1...Self.maxCounter).contains(keyVersion) else {
            return "the epoch and key version must be from 1 to \(Self.maxCounter)"
        }
        guard owner != nil else { return "a share has exactly one owner" }
        let names = members.map(\.account)
        guard names.allSatisfy({ !$0.isEmpty && $0 == $0.lowercased() }), Set(names).count == names.count else {
            return "each member's account must be named once, lowercased"
        }
        guard members.allSatisfy(\.identity.isWellFormed) else { return "each member's keys must be 32 bytes, base64url" }
        return nil
    }

    /// Whether `text` is a UUID written in lowercase, as zone and record ids are.
    public static func isLowercaseUUID(_ text: String) -> Bool {
        UUID(uuidString: text)?.uuidString.lowercased() == text
    }
}

/// A members record as it travels (docs/sharing.md §3.2): its text as the owner wrote it, and
/// the owner's signature of that text, so that every reader checks the bytes that were signed.
public struct SignedShareMembers: Sendable, Hashable, Codable {
    /// The members record's JSON text.
    public var members: String
    /// The owner's Ed25519 signature (64 bytes, base64url) of `"notetaker v1 share|"` and the text.
    public var signature: String

    /// A signed members record.
    public init(members: String, signature: String) {
        self.members = members
        self.signature = signature
    }

    private enum CodingKeys: String, CodingKey {
        case members
        case signature = "$sig"
    }

    /// The bytes the owner signs for `text`.
    public static func signedBytes(_ text: String) -> Data {
        Data("notetaker v1 share|".utf8) + Data(text.utf8)
    }

    /// The record its text holds, or `nil` when the text is not one.
    public func decoded() -> ShareMembers? {
        try? JSONDecoder().decode(ShareMembers.self, from: Data(members.utf8))
    }
}
