import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerHTTP
import NoteTakerKit
import NoteTakerWeb

/// `notetaker serve`: the web app on 127.0.0.1, over the same store as the command line,
/// open to whoever holds the store's key.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.serve.rawValue, abstract: CompanionCommand.serve.abstract,
        discussion: """
            Every page and API call needs the store's key, kept beside the store (readable by you only) \
            and made the first time: open the address this prints (it ends in /?token=…) and the browser \
            remembers it; scripts send `Authorization: Bearer KEY`. With --socket, scripts on this machine can \
            also reach it through a Unix socket only you can open, without the key \
            (curl --unix-socket PATH http://localhost/api/v1/notes). Automatic sync runs beside it when this \
            store has a sync account and auto-sync is on.
            """)
    @Option(help: "The port to listen on (0 picks a free one).")
    var port = WebConfiguration.defaultPort
    @Option(help: "The address to listen on. Anything but loopback needs --tls-cert and --tls-key.")
    var host = "127.0.0.1"
    @Option(name: .customLong("tls-cert"), help: "A certificate chain (PEM) to answer over HTTPS with.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "The certificate's private key (PEM).")
    var tlsKey: String?
    @Option(name: .customLong("socket"), help: "Also listen on a Unix socket at this path, readable by you only; requests through it need no key.")
    var socketPath: String?
    @Flag(name: .customLong("new-token"), help: "Replace the store's key: every browser and script that had the old one is shut out.")
    var newToken = false
    @Flag(help: "Open the app in the default browser once it runs.")
    var open = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw Words.usage("portTakes") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw Words.usage("httpsNeedsBoth") }
    }

    func run() async throws {
        let store = try storeOptions.open(concurrentReads: true)
        let key = try LocalAccessKey.load(for: store, renew: newToken)
        let tls = tlsCertificate.flatMap { certificate in tlsKey.map { TLSFiles(certificatePath: certificate, keyPath: $0) } }
        var settings = WebConfiguration(
            key: key, keyFile: LocalAccessKey.fileURL(for: store)?.path, port: port, host: host, tls: tls)
        settings.socketPath = socketPath
        let configuration = settings
        let open = self.open
        try await serveWebApp(store: store, configuration: configuration) { port in
            let shownHost = switch configuration.host {
            case "localhost": "127.0.0.1"
            case "0.0.0.0", "::": ProcessInfo.processInfo.hostName
            case let host where host.contains(":"): "[\(host)]"
            case let host: host
            }
            let address = key.entryAddress(base: "\(configuration.scheme)://\(shownHost):\(port)/")
            print(Words.text("serveRunning", ["address": address, "store": store.databaseURL?.path ?? Words.text("inMemory")]))
            fflush(nil)
            if open { Self.openBrowser(address) }
        } onSocketReady: { path in
            print(Words.text("serveSocket", ["path": path]))
            fflush(nil)
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
            Terminal.printNotice(Words.text("serveNoBrowser", ["reason": "\(error)"]))
        }
    }
}
