import Foundation
@testable import NoteTakerKit
import NoteTakerServerTestSupport
import NoteTakerSyncProtocol
@testable import NoteTakerSync

/// A run that starts without encryption and converts the account to end-to-end encryption
/// midway (docs/encryption.md §2.4), as `notetaker account encrypt` does, over the same
/// faulty network: the converting device first syncs until it holds everything and has
/// nothing waiting, then sends the keys with a new password; the server ends every other
/// session; each other device stays offline for a while, keeps editing, and logs in with
/// the new password (taking up the conversion when the server says records are still in
/// plain text) and goes on sealing. A conversion whose answer is lost leaves the converting
/// device logged out too: it logs in again and takes the conversion up, as a person would.
///
/// Not simulated: a restore to a backup taken before the conversion. The server would forget
/// the keys and the new password, and a device that knew the account encrypted refuses it
/// (`SyncError.encryptionDowngraded`): the operator's older backups are dropped at the
/// conversion, and the run's later backups are restored as in any run.
struct SimulatedConversion {
    /// The account's keys once converted, made before the run as the converting device makes them.
    let keys: SimulatedKeys
    /// The first step at which a device tries to convert.
    let due: Int
    /// Each device's session (each device logs in on its own, so that the conversion can end the others').
    var tokens: [String]
    /// Whether the server took the keys.
    private(set) var converted = false
    /// Devices whose session ended, until they log in again.
    private(set) var loggedOut: Set<Int> = []
    /// Devices that seal: the converting one, and those that logged in since.
    private(set) var sealing: Set<Int> = []
    /// How many log-ins took the conversion up (the server said records were in plain text still).
    private(set) var takenUp = 0
    private var random: SeededGenerator

    /// The password the account has before the conversion, and the login secret it has after.
    static let password = "simulation"
    static let convertedPassword = "converted simulation secret"
    static let server = URL(string: "https://sim.invalid")!

    init(seed: UInt64, devices: Int, network: SimulatedNetwork) async throws {
        keys = try SimulatedKeys(devices: devices)
        random = SeededGenerator(seed: seed ^ 0xC0_4E_7E)
        due = Int.random(in: 10..<40, using: &random)
        var tokens: [String] = []
        for _ in 0..<devices { tokens.append(try await network.logIn(password: Self.password)) }
        self.tokens = tokens
    }

    /// Whether `device` is logged out and stays so at this turn (offline through the conversion).
    mutating func staysLoggedOut(_ device: Int) -> Bool {
        loggedOut.contains(device) && !(converted && Bool.random(using: &random))
    }

    /// Notes that `device`'s session ended (the server answered that it is not logged in).
    mutating func endedSession(of device: Int) { loggedOut.insert(device) }

    /// Whether `device` tries to convert the account after a sync that went through at `step`.
    func isDue(_ device: Int, at step: Int) -> Bool {
        !converted && step >= due && !loggedOut.contains(device)
    }

    /// The server took the keys: every session but `device`'s ended (and, when its answer was
    /// lost, `device`'s own device does not know it, and logs in again too).
    mutating func serverConverted(by device: Int, answered: Bool) {
        converted = true
        loggedOut = Set(tokens.indices).subtracting(answered ? [device] : [])
        if answered { sealing.insert(device) }
    }

    /// `device` logged in with the new password, as `token`, taking the conversion up or not.
    mutating func loggedIn(_ device: Int, token: String, tookUp: Bool) {
        tokens[device] = token
        if tookUp { takenUp += 1 }
        loggedOut.remove(device)
        sealing.insert(device)
    }
}

extension Simulation {
    /// Makes device `index`'s engine, on its own session in a converting run, sealing with its
    /// keys when it has them.
    func engine(for store: NoteStore, index: Int, token: String, keys: SimulatedKeys?, network: SimulatedNetwork) async -> SyncEngine {
        var options = SyncEngine.Options(policy: .localWins, allowMassDeletion: true, batchSize: 5)
        if let keys {
            options.sealing = await keys.sealing(of: index, fromServer: false)
            options.keys = { fromServer in await keys.sealing(of: index, fromServer: fromServer) }
        }
        return SyncEngine(store: store, transport: SimulatedTransport(network: network, token: token), options: options)
    }

    /// Device `index` converts the account, after a sync that left it holding everything: the
    /// keys go up with the new password; answered, the device renames its tags to their keyed
    /// ids and queues every record to go up sealed (`NoteStore.encryptSyncAccount`'s steps).
    func convert(
        _ index: Int, _ conversion: inout SimulatedConversion, _ devices: inout Devices, network: SimulatedNetwork, trace: inout [String]
    ) async throws {
        let summary = try devices[index].store.syncSummary()
        guard summary.pending == 0, summary.failures.isEmpty, summary.held.isEmpty,
              try devices[index].store.missingAttachmentFiles().isEmpty else { return }
        let material = await conversion.keys.material
        do {
            try await network.encrypt(token: conversion.tokens[index], keys: material, password: SimulatedConversion.convertedPassword)
        } catch {
            guard try await network.isEncrypted() else {
                trace.append("d\(index + 1) could not convert the account: \(error)")
                return
            }
            conversion.serverConverted(by: index, answered: false)
            await network.forgetBackup()
            trace.append("d\(index + 1) converted the account, but the answer was lost: every device logs in again")
            return
        }
        conversion.serverConverted(by: index, answered: true)
        await network.forgetBackup()
        let sealing = await conversion.keys.sealing(of: index, fromServer: true)
        let identity = KeyedIdentity(idKey: sealing.keyring.idKey)
        let queued = try devices[index].store.beginEncryptionConversion(identity: identity)
        try devices[index].store.setSyncAccount(serverURL: SimulatedConversion.server, username: "sim", allowInsecure: false, identity: identity)
        devices[index].engine = await engine(for: devices[index].store, index: index, token: conversion.tokens[index],
                                             keys: conversion.keys, network: network)
        trace.append("d\(index + 1) converted the account to end-to-end encryption: \(queued) records to go up sealed")
    }

    /// Device `index` logs in again with the new password (`NoteStore.logInToSyncAccount`'s
    /// steps): it learns the keys, takes the conversion up when the server says records are in
    /// plain text still, and follows the keyed ids from then on. False when the log-in was lost.
    func logIn(
        _ index: Int, _ conversion: inout SimulatedConversion, _ devices: inout Devices, network: SimulatedNetwork, trace: inout [String]
    ) async throws -> Bool {
        let (token, unsealed): (String, Int)
        do {
            (token, unsealed) = try await network.logInFaulty(password: SimulatedConversion.convertedPassword)
        } catch {
            trace.append("d\(index + 1) could not log in: \(error)")
            return false
        }
        let sealing = await conversion.keys.sealing(of: index, fromServer: true)
        let identity = KeyedIdentity(idKey: sealing.keyring.idKey)
        let store = devices[index].store
        if unsealed > 0 { try store.beginEncryptionConversion(identity: identity) }
        try store.setSyncAccount(serverURL: SimulatedConversion.server, username: "sim", allowInsecure: false, identity: identity)
        conversion.loggedIn(index, token: token, tookUp: unsealed > 0)
        devices[index].engine = await engine(for: store, index: index, token: token, keys: conversion.keys, network: network)
        trace.append("d\(index + 1) logged in again\(unsealed > 0 ? ", taking up the conversion (\(unsealed) records in plain text)" : "")")
        return true
    }

    /// Before settling a converting run: the account is converted (by device 1 when no device
    /// did during the steps), and every device logs in, including one whose session a restore
    /// of the server forgot (made after the backup), which it would find at its next sync.
    func completeConversion(
        _ conversion: inout SimulatedConversion, _ devices: inout Devices, network: SimulatedNetwork,
        log: inout IntentLog, trace: inout [String]
    ) async throws {
        if !conversion.converted {
            try await settle(devices, log: &log, trace: &trace)
            try await convert(0, &conversion, &devices, network: network, trace: &trace)
            guard conversion.converted else { throw Failure(seed: seed, problem: "device 1 could not convert the account after settling") }
        }
        for index in devices.indices where try await !network.holdsSession(token: conversion.tokens[index]) {
            conversion.endedSession(of: index)
        }
        for index in conversion.loggedOut.sorted() where try await !logIn(index, &conversion, &devices, network: network, trace: &trace) {
            throw Failure(seed: seed, problem: "device \(index + 1) could not log in after healing")
        }
    }

    /// After a converting run: the server holds no record in plain text.
    func checkConverted(network: SimulatedNetwork, token: String) async throws {
        let unsealed = try await network.unsealedRecords(token: token)
        if unsealed > 0 { throw Failure(seed: seed, problem: "\(unsealed) records on the server are still in plain text") }
    }
}
