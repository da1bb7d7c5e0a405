import ArgumentParser
import Foundation
import Hummingbird
import NoteTakerServer

/// `notetaker-server`: the self-hosted sync server.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notetaker-server",
        abstract: "Run the NoteTaker sync server (accounts, records, attachment files, push).")

    @Option(help: "Folder for the server's database and attachment files (default: $XDG_DATA_HOME/notetaker-server).")
    var data: String?
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"
    @Option(help: "Port to listen on.")
    var port = ServerConfiguration.defaultPort
    @Option(name: .customLong("tls-cert"), help: "PEM certificate file: serve HTTPS.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key file for --tls-cert.")
    var tlsKey: String?
    @Option(name: .customLong("quota-mb"), help: "Storage each account may use, in megabytes.")
    var quotaMegabytes: Int64 = ServerConfiguration.defaultQuota / 1_048_576

    func run() async throws {
        let configuration = ServerConfiguration(
            dataDirectory: data.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ServerConfiguration.defaultDataDirectory(),
            host: host, port: port, tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey,
            quotaBytes: quotaMegabytes * 1_048_576)
        let scheme = tlsCertificate == nil ? "http" : "https"
        let app = try buildApplication(configuration) { port in
            FileHandle.standardError.write(Data("notetaker-server listening on \(scheme)://\(host):\(port) (data in \(configuration.dataDirectory.path))\n".utf8))
        }
        try await app.runService()
    }
}
