import Foundation

/// What a published page shows (docs/sharing.md §5.1): the note's title, its body rendered and
/// allowlisted by the publishing device with its pictures inlined, and when it was published.
/// Sealed as JSON (``PublishedPageSeal``); the reader's browser opens and shows it.
public struct PublishedPageContent: Sendable, Equatable, Codable {
    /// The format's version: 1.
    public var v = 1
    /// The note's title.
    public var title: String
    /// The note's body as HTML, allowlisted.
    public var html: String
    /// When it was published, ISO 8601 in UTC.
    public var published: String

    /// A page's content.
    public init(title: String, html: String, published: Date) {
        self.title = title
        self.html = html
        self.published = ISO8601DateFormatter().string(from: published)
    }

    /// The content as the page's plaintext: JSON, keys sorted.
    public func plaintext() throws(EncryptionError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch { throw .malformed }
    }

    /// The content of a page's plaintext; ``EncryptionError/malformed`` when it is not one.
    public init(plaintext: Data) throws(EncryptionError) {
        guard let content = try? JSONDecoder().decode(Self.self, from: plaintext), content.v == 1 else { throw .malformed }
        self = content
    }
}
