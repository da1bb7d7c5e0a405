import Crypto
import Foundation

/// Ids and file addresses keyed by a zone's id key (docs/encryption.md §4), so that two
/// devices agree on them and the server cannot test a guess.
public struct KeyedIdentity: Sendable {
    // SymmetricKey is not Sendable: its bytes are kept, and the key made from them when used.
    private let idKeyBytes: Data

    /// The id key's bytes, as the store keeps them (``DerivedIdentity``).
    var keyBytes: Data { idKeyBytes }

    /// Ids keyed by the zone's id key.
    public init(idKey: SymmetricKey) {
        idKeyBytes = idKey.withUnsafeBytes { Data($0) }
    }

    /// The id of a `kind` of thing named `text` (`tag` and a normalized tag name, `path` and an
    /// import's path): a version 8 UUID from the HMAC's first 16 bytes.
    public func id(kind: String, text: String) -> UUID {
        UUID.nameBased(mac(Data(kind.utf8) + [0] + Data(text.utf8)), version: 0x80)
    }

    /// The address a file with this plaintext SHA-256 is stored under: lowercase hex.
    public func fileAddress(contentSHA256: Data) -> String {
        mac(Data("file".utf8) + [0] + contentSHA256).lowercaseHex
    }

    private func mac(_ message: Data) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: idKeyBytes)))
    }
}
