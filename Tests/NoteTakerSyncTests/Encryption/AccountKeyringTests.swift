import Crypto
import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// An account's keys made, kept as the server keeps them, and opened again: with the password,
/// with the recovery code, after a password change; and the server's moves that must not open
/// (docs/encryption.md §2.2–2.4, §7).
@Suite struct AccountKeyringTests {
    /// Quick parameters (the vectors' cost), so that a test stretches in milliseconds.
    static func quick() -> KDFParameters {
        var parameters = KDFParameters.fresh()
        parameters.n = 1 << 10
        return parameters
    }

    static func password(_ text: String, _ parameters: KDFParameters) throws -> PasswordKeys {
        try PasswordKeys(password: text, parameters: parameters, minimumCost: 1 << 10)
    }

    private func raw(_ key: SymmetricKey?) -> Data? { key?.withUnsafeBytes { Data($0) } }

    @Test func keysMadeForAnAccountOpenWithItsPasswordOrItsRecoveryCode() throws {
        let parameters = Self.quick()
        let made = try AccountKeyring.create(account: "Ada", password: try Self.password("correct horse", parameters), parameters: parameters)
        var kept = made.material
        kept.kdf.n = 1 << 17
        #expect(kept.problem() == nil, "at this version's cost, the server keeps it: \(made.material)")
        #expect(made.material.kdf == parameters)
        let opened = try AccountKeyring(opening: made.material, account: "ADA", password: try Self.password("correct horse", parameters))
        #expect(raw(opened.idKey) == raw(made.keyring.idKey))
        #expect(raw(opened.dataKey(version: 1)) == raw(made.keyring.dataKey(version: 1)))
        #expect(opened.newestVersion == 1 && opened.dataKey(version: 2) == nil)
        let recovered = try AccountKeyring(opening: made.material, account: "ada", recovery: try RecoveryCode(code: made.recovery.code))
        #expect(raw(recovered.dataKey(version: 1)) == raw(made.keyring.dataKey(version: 1)))
    }

    @Test func aNewPasswordOpensTheSameKeysAndTheOldOneNoLonger() throws {
        let old = Self.quick()
        let made = try AccountKeyring.create(account: "ada", password: try Self.password("correct horse", old), parameters: old)
        let new = Self.quick()
        #expect(new.salt != old.salt, "a new password gets a new salt")
        let changed = try made.keyring.rewrapped(made.material, for: try Self.password("battery staple", new), parameters: new)
        #expect(changed.kdf == new && changed.wrappedByRecovery == made.material.wrappedByRecovery && changed.dataKeys == made.material.dataKeys)
        let opened = try AccountKeyring(opening: changed, account: "ada", password: try Self.password("battery staple", new))
        #expect(raw(opened.dataKey(version: 1)) == raw(made.keyring.dataKey(version: 1)))
        #expect(throws: EncryptionError.notAuthentic) { try AccountKeyring(opening: changed, account: "ada", password: try Self.password("correct horse", old)) }
        #expect(throws: Never.self) { try AccountKeyring(opening: changed, account: "ada", recovery: made.recovery) }
    }

    @Test func aWrongPasswordOrAnotherAccountsMaterialDoesNotOpen() throws {
        let parameters = Self.quick()
        let ada = try AccountKeyring.create(account: "ada", password: try Self.password("correct horse", parameters), parameters: parameters)
        #expect(throws: EncryptionError.notAuthentic) {
            try AccountKeyring(opening: ada.material, account: "ada", password: try Self.password("correct horsE", parameters))
        }
        // A server that hands Bob's device Ada's material, with Bob's password wrapping it the same way.
        #expect(throws: EncryptionError.notAuthentic, "the wrap names its account") {
            try AccountKeyring(opening: ada.material, account: "bob", password: try Self.password("correct horse", parameters))
        }
        #expect(throws: EncryptionError.notAuthentic) { try AccountKeyring(opening: ada.material, account: "ada", recovery: RecoveryCode()) }
    }

    @Test func materialChangedOrRearrangedOnTheServerDoesNotOpen() throws {
        let parameters = Self.quick()
        let password = try Self.password("correct horse", parameters)
        let made = try AccountKeyring.create(account: "ada", password: password, parameters: parameters)
        // A second data key, as a rotation adds it.
        let accountKey = try KeyWrap.unwrap(try #require(Base64URL.decode(made.material.wrappedByPassword)), with: password.keyEncryptionKey,
                                            data: KeyWrap.accountKeyData(account: "ada"))
        var rotated = made.material
        rotated.dataKeys.append(Base64URL.encode(try KeyWrap.wrap(
            SymmetricKey(size: .bits256), with: accountKey, data: KeyWrap.zoneKeyData(zone: AccountKeyring.privateZone, version: 2))))
        #expect(try AccountKeyring(opening: rotated, account: "ada", password: password).newestVersion == 2)

        var swapped = rotated
        swapped.dataKeys.swapAt(0, 1)
        #expect(throws: EncryptionError.notAuthentic, "a key's version is bound to it") { try AccountKeyring(opening: swapped, account: "ada", password: password) }
        var idForData = rotated
        idForData.idKey = rotated.dataKeys[0]
        #expect(throws: EncryptionError.notAuthentic, "a data key cannot pass for the id key") { try AccountKeyring(opening: idForData, account: "ada", password: password) }
        var flipped = made.material
        var bytes = try #require(Base64URL.decode(flipped.dataKeys[0]))
        bytes[20] ^= 1
        flipped.dataKeys[0] = Base64URL.encode(bytes)
        #expect(throws: EncryptionError.notAuthentic) { try AccountKeyring(opening: flipped, account: "ada", password: password) }
        var emptied = made.material
        emptied.dataKeys = []
        #expect(throws: EncryptionError.malformed) { try AccountKeyring(opening: emptied, account: "ada", password: password) }
        var garbled = made.material
        garbled.idKey = "not base64url!"
        #expect(throws: EncryptionError.malformed) { try AccountKeyring(opening: garbled, account: "ada", password: password) }
    }
}
