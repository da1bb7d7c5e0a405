import Foundation
import NIOSSL
import NoteTakerKit

/// Certificates a device trusts for its sync server besides the system's: the certificate of a
/// private certificate authority, or a server's own self-signed certificate, given at log-in
/// (`--ca-file`) and kept with the account (its PEM text in the store, so that moving or
/// deleting the file later changes nothing).
public struct TrustedCertificates: Sendable, Hashable {
    /// The certificates' PEM text, as given.
    public let pem: String
    let certificates: [NIOSSLCertificate]

    /// Reads PEM text; refuses text with no certificate in it, or a private key.
    public init(pem: String) throws(SyncError) {
        if pem.contains("PRIVATE KEY-----") {
            throw .store(.invalidInput(Wording("certificateFileHoldsKey")))
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
        } catch {
            certificates = []
        }
        guard !certificates.isEmpty else {
            throw .store(.invalidInput(Wording("certificateFileEmpty")))
        }
        self.pem = pem
        self.certificates = certificates
    }

    /// Reads the PEM file at `path`.
    public init(file path: String) throws(SyncError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .store(.invalidInput(Wording("certificateFileUnreadable", ["path": path])))
        }
        try self.init(pem: String(decoding: data, as: UTF8.self))
    }
}

extension NoteStore {
    /// The certificates this store's account trusts besides the system's, if any were given.
    public func trustedCertificates() throws(SyncError) -> TrustedCertificates? {
        let pem: String?
        do { pem = try syncTrustedCertificatesPEM() } catch { throw .store(error) }
        return try pem.map { pem throws(SyncError) in try TrustedCertificates(pem: pem) }
    }
}
