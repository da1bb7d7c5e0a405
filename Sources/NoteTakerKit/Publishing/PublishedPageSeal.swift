import Crypto
import Foundation
import NoteTakerSyncProtocol

/// A published page sealed for the server (docs/sharing.md §5.2): `NTP1 ‖ nonce ‖
/// AES-256-GCM(K, nonce, plaintext, "notetaker v1 published|" + id)`, the key only in the link.
public enum PublishedPageSeal {
    /// A new page's id: 16 random bytes in base64url.
    public static func newID() -> String {
        Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    }

    /// A new page's key: 32 random bytes.
    public static func newKey() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    /// What binds a sealed page to its id.
    static func associatedData(id: String) -> Data { Data("notetaker v1 published|\(id)".utf8) }

    /// `plaintext` sealed as page `id` with `key` (32 bytes); the nonce is random unless given
    /// (for the vectors).
    public static func seal(_ plaintext: Data, id: String, key: Data, nonce: Data? = nil) throws(EncryptionError) -> Data {
        do {
            let nonce = try nonce.map(AES.GCM.Nonce.init(data:)) ?? AES.GCM.Nonce()
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: nonce, authenticating: associatedData(id: id))
            return Data(PublishedPageID.blobHeader) + Data(nonce) + box.ciphertext + box.tag
        } catch {
            throw .malformed
        }
    }

    /// The plaintext of `blob`, sealed as page `id` with `key`; ``EncryptionError/notAuthentic``
    /// when it is not a sealed page, was changed, or belongs to another id or key.
    public static func open(_ blob: Data, id: String, key: Data) throws(EncryptionError) -> Data {
        let bytes = [UInt8](blob)
        guard bytes.count >= PublishedPageID.minimumBlobBytes, bytes.prefix(4).elementsEqual(PublishedPageID.blobHeader), key.count == 32
        else { throw .notAuthentic }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[4..<16]), ciphertext: bytes[16..<(bytes.count - 16)], tag: bytes.suffix(16))
            return try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: associatedData(id: id))
        } catch {
            throw .notAuthentic
        }
    }
}
