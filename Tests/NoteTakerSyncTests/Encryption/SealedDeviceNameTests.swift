import Foundation
import NoteTakerKit
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@testable import NoteTakerSync

/// An end-to-end encrypted account's device names (docs/encryption.md §6): each device names
/// its session sealed once it has the keys, the account's devices read the names, and the
/// server holds none it can read, nor moves one to another session unnoticed.
@Suite struct SealedDeviceNameTests {
    @Test func theServerKeepsDeviceNamesSealedAndTheDevicesReadThem() async throws {
        try await withLiveServer { server, _ in
            let laptop = try EncryptedAccountTests.device()
            try laptop.setDeviceName("Ada’s laptop ☕")
            try await laptop.registerEncryptedSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false,
                parameters: EncryptedAccountTests.cheap(), minimumCost: 1 << 14)
            let phone = try EncryptedAccountTests.device()
            try phone.setDeviceName("Ada’s phone")
            try await phone.logInToSyncAccount(
                server: server.url, username: "grace", password: "first password", allowInsecure: false,
                allowingUnencrypted: false, minimumCost: 1 << 14)

            let listed = try await laptop.syncSessions().sessions
            #expect(Set(listed.compactMap(\.deviceName)) == ["Ada’s laptop ☕", "Ada’s phone"])
            #expect(listed.first(where: \.current)?.deviceName == "Ada’s laptop ☕")
            // Renamed here, the session goes by the new name, sealed too.
            try laptop.setDeviceName("Ada’s old laptop")
            try await laptop.nameSyncSession()
            #expect(try await laptop.syncSessions().sessions.first(where: \.current)?.deviceName == "Ada’s old laptop")
            #expect(try await phone.syncSessions().sessions.first { !$0.current }?.deviceName == "Ada’s old laptop")

            let storage = server.service.storage
            let account = try #require(try await storage.account(named: "grace"))
            let held = try await storage.sessions(account: account.id)
            #expect(held.count == 2 && held.allSatisfy { $0.deviceName.map(SessionName.isSealed) == true })
            #expect(held.allSatisfy { !($0.deviceName ?? "").contains("Ada") })

            // The server gives the phone's session the laptop's sealed name: it is not shown as the phone's.
            let laptopId = try #require(listed.first { $0.current }).id
            let laptopEntry = try #require(held.first { $0.tokenHash.hasPrefix(laptopId) })
            let phoneEntry = try #require(held.first { $0.tokenHash != laptopEntry.tokenHash })
            try await storage.renameSession(tokenHash: phoneEntry.tokenHash, deviceName: laptopEntry.deviceName)
            let swapped = try await laptop.syncSessions().sessions
            #expect(swapped.first { !$0.current }?.deviceName == nil, "a name moved to another session opens to nothing")
            #expect(swapped.first(where: \.current)?.deviceName == "Ada’s old laptop")
        }
    }
}
