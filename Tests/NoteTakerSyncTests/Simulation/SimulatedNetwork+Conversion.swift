import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSync
import NoteTakerSyncProtocol

/// Converting the account to end-to-end encryption over the same unreliable network
/// (``SimulatedConversion``): the keys sent with a new password, log-ins, the account's status,
/// and the last step, the server dropping what it holds in plain text.
extension SimulatedNetwork {
    /// A new session of the account, without faults (a device's first log-in, before the run).
    func logIn(password: String) async throws -> String {
        try await service.login(Credentials(username: "sim", password: password)).token
    }

    /// A new session, and how many of the account's records are not sealed yet, as a device
    /// logging in asks them (`NoteStore.logInToSyncAccount`).
    func logInFaulty(password: String) async throws(SyncError) -> (token: String, unsealed: Int) {
        try await faultyTurn { service, twice in
            let session = try await service.login(Credentials(username: "sim", password: password))
            if twice { _ = try await service.login(Credentials(username: "sim", password: password)) }
            let account = try await service.authenticate(token: session.token)
            return (session.token, try await service.status(of: account).unsealedRecords ?? 0)
        }
    }

    /// Sends the account's keys with a new password, as the converting device does: the server
    /// encrypts the account and ends every session but `token`'s.
    func encrypt(token: String, keys: AccountKeys, password: String) async throws(SyncError) {
        try await faultyTurn { service, twice in
            let account = try await service.authenticate(token: token)
            let change = PasswordChange(currentPassword: SimulatedConversion.password, newPassword: password, keys: keys)
            try await service.changePassword(change, account: account, token: token)
            // Delivered twice, the second finds the password changed and is refused.
            if twice { try? await service.changePassword(change, account: account, token: token) }
        }
    }

    /// Whether the server holds the account's keys.
    func isEncrypted() async throws -> Bool {
        try await service.loginParameters(username: "sim").kdf != KDFParameters.none.kdf
    }

    /// Whether the server holds the session of `token` (a restore forgets those made after its backup).
    func holdsSession(token: String) async -> Bool {
        (try? await service.authenticate(token: token)) != nil
    }

    /// How many of the account's records are not sealed yet.
    func unsealedRecords(token: String) async throws -> Int {
        try await service.status(of: try await service.authenticate(token: token)).unsealedRecords ?? 0
    }

    /// The account's status, as a device asks it (through the network's faults).
    func accountStatus(token: String) async throws(SyncError) -> AccountStatus {
        try await faulty(token) { service, account, _ in try await service.status(of: account) }
    }

    /// The last step of a conversion: the server deletes what it holds in plain text.
    func dropPlaintext(token: String) async throws(SyncError) -> PlaintextDropped {
        try await faulty(token) { service, account, twice in
            if twice { _ = try? await service.dropPlaintext(for: account) }
            return try await service.dropPlaintext(for: account)
        }
    }
}
