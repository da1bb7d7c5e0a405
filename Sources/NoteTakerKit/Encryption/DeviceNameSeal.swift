import Crypto
import Foundation
import NoteTakerSyncProtocol

/// A session's device name as an end-to-end encrypted account's server keeps it
/// (docs/encryption.md §6): `nt1.` and the base64url of `nonce ‖ AES-256-GCM(Padmé(name)) ‖ tag`
/// under the account key, its associated data naming the session, so that the server can
/// neither read a name nor move it to another session unnoticed.
public enum DeviceNameSeal {
    /// Seals `name` for the session `sessionId` (a random nonce unless one is given, for the vectors).
    public static func seal(
        _ name: String, sessionId: String, accountKey: SymmetricKey, nonce: AES.GCM.Nonce = AES.GCM.Nonce()
    ) throws(EncryptionError) -> String {
        do {
            let box = try AES.GCM.seal(Padme.pad(Data(name.utf8)), using: accountKey, nonce: nonce, authenticating: associatedData(sessionId))
            guard let combined = box.combined else { throw EncryptionError.malformed }
            return SessionName.sealedPrefix + Base64URL.encode(combined)
        } catch {
            throw .malformed
        }
    }

    /// Opens a sealed name for the session `sessionId`; `notAuthentic` for a name sealed for
    /// another session or account, or changed in any byte.
    public static func open(_ sealed: String, sessionId: String, accountKey: SymmetricKey) throws(EncryptionError) -> String {
        guard SessionName.isSealed(sealed), let combined = Base64URL.decode(String(sealed.dropFirst(SessionName.sealedPrefix.count))),
              combined.count > 28 else {
            throw .malformed
        }
        let padded: Data
        do {
            padded = try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: accountKey, authenticating: associatedData(sessionId))
        } catch {
            throw .notAuthentic
        }
        guard let name = String(data: try Padme.unpad(padded), encoding: .utf8) else { throw .malformed }
        return name
    }

    private static func associatedData(_ sessionId: String) -> Data {
        Data("notetaker v1 device name|\(sessionId)".utf8)
    }
}
