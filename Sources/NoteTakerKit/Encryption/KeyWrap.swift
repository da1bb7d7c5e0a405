import Crypto
import Foundation

/// Keys derived from keys (HKDF-SHA256, docs/encryption.md §1).
public enum KeyDerivation {
    /// HKDF-SHA256 of `key` with no salt, 32 bytes, for `info`.
    public static func expand(_ key: SymmetricKey, _ info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(info.utf8), outputByteCount: 32)
    }
}

/// A key sealed by another (docs/encryption.md §2.2, §2.3): `nonce ‖ AES-256-GCM(ciphertext ‖ tag)`,
/// with associated data naming what the key is for.
public enum KeyWrap {
    /// The associated data of the account key's wraps.
    public static func accountKeyData(account: String) -> Data {
        Data("notetaker v1 account key|\(account.lowercased())".utf8)
    }

    /// The associated data of a zone's data key.
    public static func zoneKeyData(zone: String, version: Int) -> Data {
        Data("notetaker v1 zone key|\(zone)|\(version)".utf8)
    }

    /// The associated data of a zone's id key.
    public static func idKeyData(zone: String) -> Data {
        Data("notetaker v1 zone id key|\(zone)".utf8)
    }

    /// The associated data of an identity key's private half (docs/sharing.md §2): its use
    /// (`agreement` or `signing`) and whose it is.
    public static func identityKeyData(use: String, account: String) -> Data {
        Data("notetaker v1 identity key|\(use)|\(account.lowercased())".utf8)
    }

    /// Seals `key` under `wrapping` (a random nonce unless one is given, for the vectors).
    public static func wrap(_ key: SymmetricKey, with wrapping: SymmetricKey, data: Data, nonce: AES.GCM.Nonce = AES.GCM.Nonce()) throws(EncryptionError) -> Data {
        do {
            let box = try AES.GCM.seal(key.withUnsafeBytes { Data($0) }, using: wrapping, nonce: nonce, authenticating: data)
            guard let combined = box.combined else { throw EncryptionError.malformed }
            return combined
        } catch {
            throw .malformed
        }
    }

    /// Opens a wrap; `notAuthentic` for a wrong key, wrong associated data or changed bytes.
    public static func unwrap(_ wrapped: Data, with wrapping: SymmetricKey, data: Data) throws(EncryptionError) -> SymmetricKey {
        guard wrapped.count == 12 + 32 + 16 else { throw .malformed }
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped)
            return SymmetricKey(data: try AES.GCM.open(box, using: wrapping, authenticating: data))
        } catch {
            throw .notAuthentic
        }
    }
}
