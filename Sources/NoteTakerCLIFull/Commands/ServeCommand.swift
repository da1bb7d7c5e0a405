import ArgumentParser
import NoteTakerCLI
import Foundation
import NoteTakerKit
import NoteTakerWeb

/// `notetaker serve`: the web app on 127.0.0.1, over the same store as the command line.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.serve.rawValue, abstract: CompanionCommand.serve.abstract,
        discussion: "Automatic sync runs beside it when this store has a sync account and auto-sync is on.")
    @Option(help: "The port to listen on (0 picks a free one).")
    var port = WebConfiguration.defaultPort
    @Flag(help: "Open the app in the default browser once it runs.")
    var open = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a number from 0 to 65535.") }
    }

    func run() async throws {
        let store = try storeOptions.open(concurrentReads: true)
        let open = self.open
        try await serveWebApp(store: store, configuration: WebConfiguration(port: port)) { port in
            let address = "http://127.0.0.1:\(port)/"
            print("NoteTaker is running at \(address) (store: \(store.databaseURL?.path ?? "in memory")). Ctrl-C stops it.")
            fflush(nil)
            if open { Self.openBrowser(address) }
        }
    }

    private static func openBrowser(_ address: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", address]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Terminal.printNotice("Could not open a browser (\(error)); open \(address) yourself.")
        }
    }
}
