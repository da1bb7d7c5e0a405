import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// The secret that lets a request into the local web app: 32 random bytes, written as 43
/// URL-safe characters.
///
/// `notetaker serve` keeps it in a file beside the store, readable by its owner only, so
/// that only the person who can read the notes on disk can read them through the app. A
/// browser receives it once in the address `serve` prints (`/?token=…`) and then keeps it
/// in a cookie; a script sends it as `Authorization: Bearer …`.
public struct LocalAccessKey: Sendable, Hashable {
    /// The key as it appears in the address and the `Authorization` header.
    public let value: String

    /// Wraps a key read from elsewhere; `nil` unless it has the form of one this app makes.
    public init?(_ value: String) {
        guard value.utf8.count == Self.length, value.utf8.allSatisfy(Self.isKeyCharacter) else { return nil }
        self.value = value
    }

    /// A new key from the system's secure random source.
    public static func random() -> LocalAccessKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return LocalAccessKey(uncheckedValue: text)
    }

    /// Whether `presented` is this key, compared in time that does not depend on where the
    /// two first differ.
    public func matches(_ presented: some StringProtocol) -> Bool {
        let expected = Array(value.utf8)
        let given = Array(presented.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }

    /// The address that lets a browser in: `base` (ending in `/`) with the key as `?token=`.
    public func entryAddress(base: String) -> String {
        "\(base)?token=\(value)"
    }

    private init(uncheckedValue: String) {
        value = uncheckedValue
    }

    private static let length = 43

    private static func isKeyCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

extension LocalAccessKey {
    /// Where a store keeps its key: `<store>.serve-token` beside the database; `nil` for a
    /// store in memory, whose app gets a new key each time it starts.
    public static func fileURL(for store: NoteStore) -> URL? {
        store.databaseURL.map { $0.deletingPathExtension().appendingPathExtension("serve-token") }
    }

    /// The store's key, made and saved (0600) the first time; a new one replacing the old
    /// when `renew` is set, which shuts out every browser and script that had the old one.
    ///
    /// - Throws: ``NoteTakerError/fileWriteFailed(path:reason:)`` when the key cannot be
    ///   saved, and ``NoteTakerError/fileUnreadable(path:reason:)`` when the file holds
    ///   something that is not a key (it is left as it is).
    public static func load(for store: NoteStore, renew: Bool = false) throws(NoteTakerError) -> LocalAccessKey {
        guard let url = fileURL(for: store) else { return random() }
        if !renew, let data = try? Data(contentsOf: url) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = LocalAccessKey(text) else {
                throw .fileUnreadable(path: url.path, reason: "it does not hold a key of `notetaker serve`; run `notetaker serve --new-token` to replace it")
            }
            return key
        }
        let key = random()
        do {
            try OwnerOnly.write(Data((key.value + "\n").utf8), to: url)
        } catch {
            throw .fileWriteFailed(path: url.path, reason: error.localizedDescription)
        }
        return key
    }
}
