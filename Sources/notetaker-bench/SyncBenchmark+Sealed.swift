import Foundation
import GRDB
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol

/// The first sync with end-to-end encryption beside the same sync without it, in the same
/// run: each round syncs the first device's resting store up to an account of its own and
/// down to a new device, once with every record sealed and once as it is, in one process
/// (the engine the `notetaker sync` process runs), alternating so that both meet the same
/// moments of the machine. And unlocking: stretching the password at this version's cost and
/// opening the account's keys.
extension SyncBenchmark {
    /// How many rounds of each kind.
    static let sealedRounds = 3

    private struct SealedRound {
        var seconds: Double
        /// The part of ``seconds`` the first device took to sync up.
        var upSeconds: Double
        var serverBytes: Int64
        /// Changing the account's password once it held every note, in ms: the account key
        /// wrapped again here, and the whole change, the request included.
        var passwordChange: (rewrap: Double, whole: Double)?
    }

    /// The keys a sealed round's account is registered with, and the password it changes to
    /// (both stretched beforehand: stretching is the unlock's figure).
    private struct SealedAccount {
        let made: (keyring: AccountKeyring, material: AccountKeys, recovery: RecoveryCode)
        let parameters: KDFParameters
        let password: PasswordKeys
        let newPassword: PasswordKeys
    }

    func measureSealedFirstSync(_ first: NoteStore, url: URL) async throws -> [Figure] {
        guard let source = first.databaseURL else { throw BenchFailure("the first device's store has no file") }
        let resting = try restingCopy(of: source, named: "sealed-at-rest.sqlite")
        progress("Unlocking an account's keys at this version's cost...")
        let parameters = KDFParameters.fresh()
        let password = try PasswordKeys(password: Self.password, parameters: parameters)
        let made = try AccountKeyring.create(account: "sealed", password: password, parameters: parameters)
        let account = SealedAccount(made: made, parameters: parameters, password: password,
                                    newPassword: try PasswordKeys(password: Self.password + " changed", parameters: parameters))
        var unlocks: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            _ = try AccountKeyring(opening: made.material, account: "sealed", password: try PasswordKeys(password: Self.password, parameters: parameters))
            unlocks.append(Clock.milliseconds(since: start))
        }
        let sealing = RecordSealing(keyring: made.keyring)
        var plain: [SealedRound] = []
        var sealed: [SealedRound] = []
        for round in 1...Self.sealedRounds {
            progress("First sync with and without encryption, round \(round) of \(Self.sealedRounds)...")
            plain.append(try await sealedRound("plain-\(round)", from: resting, url: url, sealing: nil))
            sealed.append(try await sealedRound("sealed-\(round)", from: resting, url: url, sealing: sealing, account: account))
        }
        let (plainSeconds, sealedSeconds) = (Clock.percentile(plain.map(\.seconds), 0.5), Clock.percentile(sealed.map(\.seconds), 0.5))
        let ratio = sealedSeconds / plainSeconds
        let perNote = { (rounds: [SealedRound]) in Double(rounds.map(\.serverBytes).max() ?? 0) / Double(noteCount) }
        func list(_ rounds: [SealedRound]) -> String {
            rounds.map { String(format: "%.1f s: up %.1f, down %.1f", $0.seconds, $0.upSeconds, $0.seconds - $0.upSeconds) }.joined(separator: "; ")
        }
        let unlock = Clock.percentile(unlocks, 0.5)
        let changes = sealed.compactMap(\.passwordChange)
        let (rewrap, change) = (Clock.percentile(changes.map(\.rewrap), 0.5), Clock.percentile(changes.map(\.whole), 0.5))
        let listed = { (values: [Double]) in values.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
        return [
            Figure(
                name: "first sync of \(noteCount) notes, end-to-end encrypted ÷ not", unit: "×",
                noteTaker: ratio, baseline: nil, budget: "<= 1.15", meetsBudget: ratio <= 1.15,
                note: String(format: "median of %d rounds each, up and down in one process: sealed %.1f s (%@), plain %.1f s (%@)",
                             Self.sealedRounds, sealedSeconds, list(sealed), plainSeconds, list(plain))),
            Figure(
                name: "bytes the server holds per note, end-to-end encrypted", unit: "B",
                noteTaker: perNote(sealed), baseline: perNote(plain), budget: "-", meetsBudget: nil,
                note: "the account's usage after the first sync ÷ notes; baseline: the same notes not encrypted (Padmé padding, the envelope's base64url and salt)"),
            Figure(
                name: "unlock: the password stretched (scrypt N = 2^17) and the account's keys opened", unit: "ms",
                noteTaker: unlock, baseline: nil, budget: "<= 1000 ms", meetsBudget: unlock <= 1_000,
                note: "median of \(unlocks.count)"),
            Figure(
                name: "password change at \(noteCount) sealed notes: the account key wrapped again on the device", unit: "ms",
                noteTaker: rewrap, baseline: nil, budget: "<= 100 ms", meetsBudget: rewrap <= 100,
                note: "median of \(changes.count), one per sealed round (\(listed(changes.map(\.rewrap))) ms): nothing sealed again or sent again; the new password stretched beforehand (the unlock's figure)"),
            Figure(
                name: "password change at \(noteCount) sealed notes, the request included", unit: "ms",
                noteTaker: change, baseline: nil, budget: "-", meetsBudget: nil,
                note: "median of \(changes.count) (\(listed(changes.map(\.whole))) ms): the server checks the current login secret and hashes the new one with its password hash (scrypt, PasswordHasher.standard), as at any password change"),
        ]
    }

    /// One account: the resting store synced up, and down to a new device, in one process.
    /// With `account`, the account is registered encrypted with its keys, and its password is
    /// changed once it holds every note.
    private func sealedRound(_ username: String, from resting: URL, url: URL, sealing: RecordSealing?,
                             account: SealedAccount? = nil) async throws -> SealedRound {
        let folder = directory.appendingPathComponent(username, isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let token = try await HTTPSyncTransport(server: url, token: nil).register(
            username: username, password: account?.password.loginSecretText ?? Self.password, keys: account?.made.material).token
        let up = folder.appendingPathComponent("first.sqlite")
        try FileManager.default.copyItem(at: resting, to: up)
        let start = ContinuousClock.now
        var upSeconds = 0.0
        for path in [up, folder.appendingPathComponent("second.sqlite")] {
            let store = try NoteStore.open(at: path)
            let engine = SyncEngine(store: store, transport: try HTTPSyncTransport(server: url, token: token), options: .init(sealing: sealing))
            try await engine.sync()
            if path == up { upSeconds = Clock.milliseconds(since: start) / 1_000 }
        }
        let seconds = Clock.milliseconds(since: start) / 1_000
        let received = try NoteStore.open(at: folder.appendingPathComponent("second.sqlite")).statistics().notes
        guard received == noteCount else { throw BenchFailure("The second device received \(received) of \(noteCount) notes (\(username)).") }
        let transport = try HTTPSyncTransport(server: url, token: token)
        let status = try await transport.accountStatus()
        var passwordChange: (rewrap: Double, whole: Double)?
        if let account {
            let start = ContinuousClock.now
            let rewrapped = try account.made.keyring.rewrapped(account.made.material, for: account.newPassword, parameters: account.parameters)
            let rewrap = Clock.milliseconds(since: start)
            try await transport.changePassword(current: account.password.loginSecretText, new: account.newPassword.loginSecretText, keys: rewrapped)
            passwordChange = (rewrap, Clock.milliseconds(since: start))
        }
        return SealedRound(seconds: seconds, upSeconds: upSeconds, serverBytes: status.usedBytes, passwordChange: passwordChange)
    }
}
