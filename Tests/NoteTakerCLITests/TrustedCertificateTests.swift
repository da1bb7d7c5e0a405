import Foundation
import Testing

/// A server with a self-signed certificate or one from a private authority: refused with words
/// that say what to do, then trusted by `--ca-file` (kept with the account) or `SSL_CERT_FILE`.
/// The certificates are made by openssl here.
@Suite("Trusting a server's own certificate")
struct TrustedCertificateTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments)")
    }

    /// A certificate authority `name`, and a server certificate it signed for `names`.
    private func authority(_ name: String, signing names: String, as server: String) throws {
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(name)",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                     "-keyout", path("\(name).key"), "-out", path("\(name).pem")])
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=notes", "-keyout", path("\(server).key"), "-out", path("\(server).csr")])
        try Data("subjectAltName=\(names)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8).write(to: folder.appendingPathComponent("\(server).ext"))
        try openssl(["x509", "-req", "-in", path("\(server).csr"), "-CA", path("\(name).pem"), "-CAkey", path("\(name).key"), "-CAcreateserial",
                     "-days", "2", "-extfile", path("\(server).ext"), "-out", path("\(server).pem")])
    }

    private func login(_ device: CLIRunner, _ server: ServerProcess, _ extra: [String] = [], environment: [String: String] = [:]) throws -> CLIRunner.Result {
        try device.run(["account", "login", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin"] + extra,
                       stdin: "correct horse battery", environment: environment)
    }

    @Test("a private authority: refused with what to do, then trusted by --ca-file, kept with the account")
    func privateAuthority() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try authority("Family CA", signing: "IP:127.0.0.1,DNS:localhost", as: "server")
        try authority("Other CA", signing: "IP:127.0.0.1", as: "other")
        let server = try ServerProcess(arguments: ["--tls-cert", path("server.pem"), "--tls-key", path("server.key")], scheme: "https")
        let owner = CLIRunner()
        let registered = try owner.run(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin",
                                        "--ca-file", path("Family CA.pem")], stdin: "correct horse battery")
        #expect(registered.status == 0, "\(registered.stderr)")

        let device = CLIRunner()
        let refused = try login(device, server)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("certificate is not trusted") && refused.stderr.contains("--ca-file"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("BoringSSL") && !refused.stderr.contains("handshake.cc"), "\(refused.stderr)")
        #expect(try login(device, server, ["--ca-file", path("Other CA.pem")]).stderr.contains("certificate is not trusted"))

        let wrongFiles = [(path("server.key"), "private key"), (path("server.ext"), "No certificate"), (path("missing.pem"), "cannot be read")]
        for (file, message) in wrongFiles {
            let result = try login(device, server, ["--ca-file", file])
            #expect(result.status == 1 && result.stderr.contains(message), "\(file): \(result.stderr)")
        }

        try FileManager.default.copyItem(atPath: path("Family CA.pem"), toPath: path("kept.pem"))
        let trusted = try login(device, server, ["--ca-file", path("kept.pem")])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        try FileManager.default.removeItem(atPath: path("kept.pem"))
        try device.ok(["new", "Over a private CA"])
        try device.ok(["sync"])
        try owner.ok(["sync"])
        #expect(try owner.ok(["list"]).contains("Over a private CA"), "the certificate is kept with the account, not read from the file again")
        let settings = try device.ok(["sync", "settings", "--json"])
        #expect(settings.contains("\"trustsOwnCertificates\" : true"), "\(settings)")

        // Logging out forgets the certificate; SSL_CERT_FILE trusts it for the whole process, as curl does.
        try device.ok(["account", "logout"])
        #expect(try login(device, server).status == 1)
        #expect(try login(device, server, environment: ["SSL_CERT_FILE": path("Family CA.pem")]).status == 0)
    }

    @Test("a self-signed server certificate is trusted by itself; one for another name is refused as such")
    func selfSigned() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=notes",
                     "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path("self.key"), "-out", path("self.pem")])
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=elsewhere",
                     "-addext", "subjectAltName=DNS:notes.example.com", "-keyout", path("named.key"), "-out", path("named.pem")])
        let server = try ServerProcess(arguments: ["--tls-cert", path("self.pem"), "--tls-key", path("self.key")], scheme: "https")
        let device = CLIRunner()
        let registered = try device.run(["account", "register", "--server", server.url.absoluteString, "--user", "ada", "--password-stdin",
                                         "--ca-file", path("self.pem")], stdin: "correct horse battery")
        #expect(registered.status == 0, "\(registered.stderr)")
        try device.ok(["sync"])

        let misnamed = try ServerProcess(arguments: ["--tls-cert", path("named.pem"), "--tls-key", path("named.key")], scheme: "https")
        let refused = try CLIRunner().run(["account", "register", "--server", misnamed.url.absoluteString, "--user", "ada", "--password-stdin",
                                          "--ca-file", path("named.pem")], stdin: "correct horse battery")
        #expect(refused.status == 1 && refused.stderr.contains("for another name"), "\(refused.stderr)")
    }
}
