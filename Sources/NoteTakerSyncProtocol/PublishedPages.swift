import Foundation

/// A published page as the server lists it to its account (docs/sharing.md §5.3): its id, the
/// bytes its sealed blob takes, and when it was put. What `GET /v1/published` answers.
public struct PublishedPageSummary: Sendable, Hashable, Codable {
    /// The page's id: 16 random bytes in base64url (``PublishedPageID``).
    public var id: String
    /// The sealed blob's size in bytes.
    public var size: Int64
    /// When it was last put (seconds since 1970).
    public var createdAt: Double

    /// A page as listed.
    public init(id: String, size: Int64, createdAt: Double) {
        self.id = id
        self.size = size
        self.createdAt = createdAt
    }
}

/// The rules a published page's id and sealed blob follow, which the server checks and the
/// devices keep (docs/sharing.md §5.2).
public enum PublishedPageID {
    /// How many characters an id has: 16 bytes in base64url without padding.
    public static let length = 22

    /// Whether `text` is a page id: 22 base64url characters standing for 16 bytes, spelled as
    /// base64url spells them (the last one carries four zero bits).
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == length && "AQgw".contains(text.last ?? " ") && Base64URL.decode(text)?.count == 16
    }

    /// The four bytes every sealed page starts with: the format, version 1.
    public static let blobHeader: [UInt8] = Array("NTP1".utf8)
    /// The fewest bytes a sealed page takes: the header, a 12-byte nonce and a 16-byte tag.
    public static let minimumBlobBytes = 4 + 12 + 16

    /// Why the server must refuse `blob` as a sealed page, or `nil` when its shape is right.
    public static func problem(withBlob blob: some Collection<UInt8>) -> String? {
        guard blob.count >= minimumBlobBytes, blob.prefix(4).elementsEqual(blobHeader) else {
            return "A published page is sealed: it starts with NTP1 and holds a nonce and a tag (docs/sharing.md §5.2)."
        }
        guard blob.count <= SyncLimits.maxPublishedBytes else {
            return "A published page is at most \(SyncLimits.maxPublishedBytes / 1_048_576) MiB sealed; this one is \(blob.count) bytes."
        }
        return nil
    }
}
