import Foundation
import NoteTakerSyncProtocol

@testable import NoteTakerSync

/// An end-to-end encrypted account's keys in the simulation: the key material the server
/// keeps, which a rotation appends to, and each device's keyring, which learns from it when
/// its engine asks (``SyncEngine/Options/keys``), as `NoteStore.learnSyncKeys` does over HTTP.
actor SimulatedKeys {
    /// The key material the server keeps.
    private(set) var material: AccountKeys
    private var keyrings: [AccountKeyring]

    /// One account's keys, held alike by `devices` devices.
    init(devices: Int) throws {
        let account = try SealedSyncTests.account()
        material = account.material
        keyrings = Array(repeating: account.sealing.keyring, count: devices)
    }

    /// Device `index`'s keys; with `fromServer`, having learned those the material holds beyond them.
    func sealing(of index: Int, fromServer: Bool) -> RecordSealing {
        if fromServer, let learned = try? keyrings[index].learning(material) { keyrings[index] = learned }
        return RecordSealing(keyring: keyrings[index])
    }

    /// Device `index` rotates the data key, as `NoteStore.rotateSyncKeys` does: it learns the
    /// keys it lacks, appends a new one to the material and seals with it. Returns its version.
    func rotate(_ index: Int) throws -> Int {
        let (rotated, wrapped) = try keyrings[index].learning(material).rotated()
        material.dataKeys.append(wrapped)
        keyrings[index] = rotated
        return rotated.newestVersion
    }
}
