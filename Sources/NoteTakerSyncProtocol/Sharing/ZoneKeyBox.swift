import Foundation

/// One version of a shared zone's keys sent by its owner to one member (docs/sharing.md
/// §3.3): the data key and the id key sealed with HPKE in auth mode to the member's agreement
/// key, from the owner's. The server keeps and passes it on; it cannot open it.
public struct ZoneKeyBox: Sendable, Hashable, Codable {
    /// The zone's id, lowercase.
    public var zone: String
    /// The data key's version.
    public var version: Int
    /// The member it is for, lowercased.
    public var member: String
    /// The account that sealed it: the zone's owner.
    public var from: String
    /// HPKE's encapsulated key (32 bytes, base64url).
    public var enc: String
    /// The sealed keys (80 bytes, base64url): 64 bytes of keys and a 16-byte tag.
    public var sealed: String

    /// A box.
    public init(zone: String, version: Int, member: String, from: String, enc: String, sealed: String) {
        self.zone = zone
        self.version = version
        self.member = member
        self.from = from
        self.enc = enc
        self.sealed = sealed
    }

    /// How many bytes the sealed keys take: two 32-byte keys and AES-GCM's tag.
    public static let sealedSize = 80

    /// The HPKE `info` that binds a box to its zone, version and member.
    public static func info(zone: String, version: Int, member: String) -> Data {
        Data("notetaker v1 zone key|\(zone.lowercased())|\(version)|\(member.lowercased())".utf8)
    }

    /// Why the server must refuse the box, or `nil` when its shape is right.
    public func problem() -> String? {
        guard ShareMembers.isLowercaseUUID(zone) else { return "the zone must be a lowercase UUID" }
        guard (1...ShareMembers.maxCounter).contains(version) else { return "the version must be from 1 to \(ShareMembers.maxCounter)" }
        guard [member, from].allSatisfy({ !$0.isEmpty && $0 == $0.lowercased() }) else { return "the member and sender must be named, lowercased" }
        guard enc.utf8.count == 43, Base64URL.decode(enc)?.count == 32 else { return "enc must be 32 bytes, base64url" }
        guard Base64URL.decode(sealed)?.count == Self.sealedSize else { return "sealed must be \(Self.sealedSize) bytes, base64url" }
        return nil
    }
}
