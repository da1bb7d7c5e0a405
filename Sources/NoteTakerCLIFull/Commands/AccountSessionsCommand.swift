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
    @Option(name: .customLong("end"), help: "Log out the session with this id (from the list; its first few characters do).")
    var sessionToEnd: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() async throws {
        let transport = try storeOptions.openForReading().syncTransport()
        if let given = sessionToEnd {
            // Like a note's id, a session's may be typed as its first few characters.
            let matches = try await transport.sessions().sessions.filter { !given.isEmpty && $0.id.hasPrefix(given.lowercased()) }
            guard let ended = matches.first, matches.count == 1 else {
                throw ValidationError(matches.isEmpty
                    ? "This account has no session '\(given)'; `notetaker account sessions` lists them."
                    : "'\(given)' starts more than one session's id (\(matches.map(\.id).joined(separator: ", "))); type more of it.")
            }
            try await transport.endSession(id: ended.id)
            if ended.current {
                print("Ended this device's own session: it syncs again after `notetaker account login`.")
            } else {
                print("Ended session \(ended.id)\(ended.deviceName.map { " (\($0))" } ?? ""): that device must log in again to sync.")
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
