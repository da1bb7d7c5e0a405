import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol

/// `notetaker account sessions`: the devices logged in to the account, and ending one.
struct AccountSessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the devices logged in to the sync account, or log one out (--end ID).",
        discussion: "A lost or sold device stops syncing at once when its session ends; its notes stay on it.")
    @Option(name: .customLong("end"), help: "Log out the session with this id (from the list).")
    var sessionToEnd: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() async throws {
        let transport = try storeOptions.openForReading().syncTransport()
        if let id = sessionToEnd {
            let list = try await transport.sessions()
            try await transport.endSession(id: id)
            let ended = list.sessions.first { $0.id == id.lowercased() }
            if ended?.current == true {
                print("Ended this device's own session: it syncs again after `notetaker account login`.")
            } else {
                print("Ended session \(id)\(ended?.deviceName.map { " (\($0))" } ?? ""): that device must log in again to sync.")
            }
            return
        }
        let list = try await transport.sessions()
        if output.json { return try JSONOutput.print(list) }
        print("ID                DEVICE                          LOGGED IN         LAST USED")
        for session in list.sessions {
            let device = (session.deviceName ?? "(unnamed)") + (session.current ? " (this device)" : "")
            print([
                session.id.padding(toLength: 16, withPad: " ", startingAt: 0),
                device.padding(toLength: max(30, device.count), withPad: " ", startingAt: 0),
                TextOutput.dateTime(Date(timeIntervalSince1970: session.createdAt)),
                TextOutput.dateTime(Date(timeIntervalSince1970: session.lastUsedAt)),
            ].joined(separator: "  "))
        }
    }
}
