import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// A device's side of docs/encryption.md §2.4 through the real transport and a live server:
/// register with keys, log in on a second device by the parameters the server gives, open the
/// same keys, change the password; and what a device refuses from its server.
@Suite struct AccountKeysTransportTests {
    /// The server's parameters, refused when weaker than this version's (as a device must), or
    /// stretched at the vectors' cost in this test, as production parameters would be.
    private func password(_ text: String, _ parameters: LoginParameters) throws -> PasswordKeys {
        try PasswordKeys(password: text, parameters: parameters, minimumCost: 1 << 10)
    }

    /// New parameters at 2^14, the least cost the server keeps, to stay quick.
    private func lowCost() -> KDFParameters {
        var parameters = KDFParameters.fresh()
        parameters.n = 1 << 14
        return parameters
    }

    private func secret(_ keys: PasswordKeys) -> String {
        Base64URL.encode(keys.loginSecret.withUnsafeBytes { Data($0) })
    }

    @Test func aSecondDeviceLogsInWithTheServersParametersAndOpensTheSameKeys() async throws {
        try await withLiveServer { server, _ in
            // The first device: new keys, the login secret in the password's place.
            let parameters = lowCost()
            let stretched = try password("correct horse", parameters)
            let made = try AccountKeyring.create(account: "Grace", password: stretched, parameters: parameters)
            let material = made.material
            let anonymous = try HTTPSyncTransport(server: server.url, token: nil)
            _ = try await anonymous.register(username: "Grace", password: secret(stretched), keys: material)

            // The second device knows only the name and the password.
            let given = try await anonymous.loginParameters(username: "grace")
            #expect(given == material.kdf)
            #expect(throws: EncryptionError.self, "this version's devices refuse a cost below 2^17") {
                try PasswordKeys(password: "correct horse", parameters: given)
            }
            let derived = try password("correct horse", given)
            let session = try await anonymous.login(username: "grace", password: secret(derived))
            let second = try HTTPSyncTransport(server: server.url, token: session.token)
            let opened = try AccountKeyring(opening: try await second.accountKeys(), account: "grace", password: derived)
            #expect(opened.idKey.withUnsafeBytes { Data($0) } == made.keyring.idKey.withUnsafeBytes { Data($0) })

            // A new password: new parameters, the same keys; the old login secret no longer logs in.
            let fresh = lowCost()
            let next = try password("battery staple", fresh)
            try await second.changePassword(current: secret(derived), new: secret(next),
                                            keys: try opened.rewrapped(try await second.accountKeys(), for: next, parameters: fresh))
            #expect(try await anonymous.loginParameters(username: "grace") == fresh)
            await #expect(throws: SyncError.self) { _ = try await anonymous.login(username: "grace", password: secret(derived)) }
            let again = try HTTPSyncTransport(server: server.url, token: try await anonymous.login(username: "grace", password: secret(next)).token)
            let reopened = try AccountKeyring(opening: try await again.accountKeys(), account: "grace", password: next)
            #expect(reopened.dataKey(version: 1)?.withUnsafeBytes { Data($0) } == made.keyring.dataKey(version: 1)?.withUnsafeBytes { Data($0) })
        }
    }

    @Test func theRecoveryCodeSetsANewPasswordWhenTheOldOneIsLost() async throws {
        try await withLiveServer { server, _ in
            let parameters = lowCost()
            let lost = try password("correct horse", parameters)
            let made = try AccountKeyring.create(account: "grace", password: lost, parameters: parameters)
            let anonymous = try HTTPSyncTransport(server: server.url, token: nil)
            let recoverySecret = Base64URL.encode(made.recovery.recoverySecret.withUnsafeBytes { Data($0) })
            let token = try await anonymous.register(username: "grace", password: secret(lost), keys: made.material, recoverySecret: recoverySecret).token

            // A new device, the password forgotten, the code typed from paper (lower case, spaces).
            let typed = try RecoveryCode(code: made.recovery.code.lowercased().replacingOccurrences(of: "-", with: " "))
            let typedSecret = Base64URL.encode(typed.recoverySecret.withUnsafeBytes { Data($0) })
            let material = try await anonymous.recoveryKeys(username: "grace", secret: typedSecret)
            let keyring = try AccountKeyring(opening: material, account: "grace", recovery: typed)
            let fresh = lowCost()
            let chosen = try password("a new password", fresh)
            try await anonymous.recover(username: "grace", secret: typedSecret, newPassword: secret(chosen),
                                        keys: try keyring.rewrapped(material, for: chosen, parameters: fresh))
            await #expect(throws: SyncError.self, "the old session ended") { _ = try await HTTPSyncTransport(server: server.url, token: token).accountKeys() }
            let session = try await anonymous.login(username: "grace", password: secret(try password("a new password", try await anonymous.loginParameters(username: "grace"))))
            let opened = try AccountKeyring(
                opening: try await HTTPSyncTransport(server: server.url, token: session.token).accountKeys(), account: "grace", password: chosen)
            #expect(opened.dataKey(version: 1)?.withUnsafeBytes { Data($0) } == made.keyring.dataKey(version: 1)?.withUnsafeBytes { Data($0) },
                    "not a note is lost: the same keys")
            await #expect(throws: SyncError.self, "a code that is not the account's opens nothing") {
                _ = try await anonymous.recoveryKeys(username: "grace", secret: Base64URL.encode(RecoveryCode().recoverySecret.withUnsafeBytes { Data($0) }))
            }
        }
    }

    @Test func anAccountWithoutEncryptionSaysSoAndAnUnknownNameGetsParametersLikeAnyOther() async throws {
        try await withLiveServer { server, _ in
            let anonymous = try HTTPSyncTransport(server: server.url, token: nil)
            #expect(try await anonymous.loginParameters(username: "ada") == .none)
            let unknown = try await anonymous.loginParameters(username: "nobody-here")
            #expect(unknown.problem(minimumCost: 1 << 17) == nil)
            let token = try await server.register("bob")
            await #expect(throws: SyncError.self, "an account without encryption has no key material") {
                _ = try await HTTPSyncTransport(server: server.url, token: token).accountKeys()
            }
        }
    }
}
