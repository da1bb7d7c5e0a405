import Foundation
import NIOSSL

/// A certificate chain and its private key in PEM files: what a server needs to answer over
/// TLS (1.2 at least).
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain's file (PEM), the server's own certificate first.
    public var certificatePath: String
    /// The private key's file (PEM).
    public var keyPath: String

    /// Names the two files; nothing is read until ``serverConfiguration()``.
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// The files read into a server configuration.
    ///
    /// - Throws: ``TLSFilesError`` naming the file that could not be read and why.
    public func serverConfiguration() throws(TLSFilesError) -> TLSConfiguration {
        let chain: [NIOSSLCertificateSource]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) }
        } catch {
            throw TLSFilesError(path: certificatePath, reason: "\(error)")
        }
        guard !chain.isEmpty else { throw TLSFilesError(path: certificatePath, reason: "it holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TLSFilesError(path: keyPath, reason: "\(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        return tls
    }
}

/// A certificate or key file that could not be used.
public struct TLSFilesError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What was wrong with it, as the TLS library said.
    public var reason: String

    /// "Cannot use the TLS file …: …".
    public var description: String { "Cannot use the TLS file \(path): \(reason)" }
}
