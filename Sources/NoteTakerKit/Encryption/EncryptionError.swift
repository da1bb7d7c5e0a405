import Foundation

/// Why something could not be sealed or opened (docs/encryption.md). Worded for people at the
/// edge; these are the facts.
public enum EncryptionError: Error, Sendable, Equatable {
    /// The envelope names a format version this build does not know.
    case unknownVersion(Int)
    /// The authentication tag did not verify: the bytes were changed, or belong elsewhere.
    case notAuthentic
    /// The padding or the content was malformed after a good tag.
    case malformed
    /// A recovery code whose characters or checksum are wrong.
    case badRecoveryCode
    /// The key-derivation parameters are not ones this build accepts.
    case badParameters(String)
}
