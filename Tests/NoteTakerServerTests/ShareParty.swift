import Crypto
import Foundation
import HummingbirdTesting
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerServer

/// An end-to-end encrypted account with real identity keys, as the shares' tests use it.
struct ShareParty {
    let name: String
    let token: String
    let signing = Curve25519.Signing.PrivateKey()
    let agreement = Curve25519.KeyAgreement.PrivateKey()

    /// Registers `name` with identity keys made here.
    init(_ name: String, _ client: some TestClientProtocol) async throws {
        self.name = name
        var keys = AccountKeysTests.keys()
        let wrapped = Base64URL.encode(Data(repeating: 9, count: AccountKeys.wrappedKeySize))
        keys.identity = IdentityKeys(agreement: Base64URL.encode(agreement.publicKey.rawRepresentation),
                                     signing: Base64URL.encode(signing.publicKey.rawRepresentation), agreementKey: wrapped, signingKey: wrapped)
        let registered = try await client.send(.post, "/v1/accounts", json: Credentials(username: name, password: "a login secret of 43 characters", keys: keys))
        #expect(registered.status == .created)
        token = try registered.decode(SessionResponse.self).token
        identity = try #require(keys.identity).identity
    }

    /// The account's public identity keys.
    var identity: AccountIdentity

    /// The account as a share's members record names it.
    func member(_ role: ShareMembers.Role) -> ShareMembers.Member { .init(account: name, role: role, identity: identity) }

    /// `record` written and signed as its owner does.
    func signed(_ record: ShareMembers) throws -> SignedShareMembers {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(record), as: UTF8.self)
        return SignedShareMembers(members: text, signature: Base64URL.encode(try signing.signature(for: SignedShareMembers.signedBytes(text))))
    }

    /// A box of the right shape for `member` (the server cannot open one, so it need not open).
    func box(zone: String, version: Int = 1, for member: String) -> ZoneKeyBox {
        ZoneKeyBox(zone: zone, version: version, member: member, from: name,
                   enc: Base64URL.encode(Data(repeating: 3, count: 32)), sealed: Base64URL.encode(Data(repeating: 4, count: ZoneKeyBox.sealedSize)))
    }

    /// A members record of `zone` naming `members`.
    static func members(_ zone: UUID, epoch: Int, _ members: [ShareMembers.Member], keyVersion: Int = 1) -> ShareMembers {
        ShareMembers(zone: zone, epoch: epoch, root: .init(kind: "folder", id: UUID()), members: members, keyVersion: keyVersion)
    }

    /// A note's save sealed for `zone` as `author` writes it (the server cannot check the
    /// seal or the signature, so neither need open).
    static func zoneSave(_ note: UUID, zone: String, by author: String, salt: String = "first", base: String? = nil) -> RecordChange {
        RecordChange(recordType: "note", recordId: note, operation: .save, baseChangeTag: base, fields: [
            "$enc": .number(1), "$zone": .string(zone), "$key": .number(1), "$salt": .string(salt), "$sealed": .string("sealed-\(salt)"),
            "$by": .string(author), "$sig": .string(Base64URL.encode(Data(repeating: 7, count: 64))),
        ])
    }
}
