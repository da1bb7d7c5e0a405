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
        let store = try storeOptions.openForReading()
        // An end-to-end encrypted account's device names come sealed, and are opened here.
        let list = try await store.syncSessions()
        if let given = sessionToEnd {
            // Like a note's id, a session's may be typed as its first few characters.
            let matches = list.sessions.filter { !given.isEmpty && $0.id.hasPrefix(given.lowercased()) }
            guard let ended = matches.first, matches.count == 1 else {
                throw matches.isEmpty
                    ? Words.usage("noSuchSession", ["given": given])
                    : Words.usage("ambiguousSession", ["given": given, "matches": matches.map(\.id).joined(separator: ", ")])
            }
            try await store.syncTransport().endSession(id: ended.id)
            if ended.current {
                print(Words.text("endedOwnSession"))
            } else if let device = ended.deviceName {
                print(Words.text("endedNamedSession", ["id": ended.id, "device": device]))
            } else {
                print(Words.text("endedSession", ["id": ended.id]))
            }
            return
        }
        if output.json { return try JSONOutput.print(list) }
        let rows = [[Words.text("sessionsId"), Words.text("sessionsDevice"), Words.text("sessionsLoggedIn"), Words.text("sessionsLastUsed")]]
            + list.sessions.map { session in
                let name = session.deviceName ?? Words.text("unnamedDevice")
                return [
                    session.id,
                    session.current ? Words.text("thisDeviceNamed", ["name": name]) : name,
                    TextOutput.dateTime(Date(timeIntervalSince1970: session.createdAt)),
                    TextOutput.dateTime(Date(timeIntervalSince1970: session.lastUsedAt)),
                ]
            }
        TextOutput.printTable(rows)
    }
}
