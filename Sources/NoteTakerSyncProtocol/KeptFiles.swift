/// The answer of `GET /v1/accounts/current/files`: the addresses of an end-to-end encrypted
/// account's files not sealed with a data key of at least the version asked, from one stretch
/// of the account's files (docs/encryption.md §2.3).
public struct KeptFilesPage: Sendable, Hashable, Codable {
    /// The addresses, of the stretch the server read, of files to seal again.
    public var addresses: [String]
    /// Where the next stretch starts (`after`), or `nil` when this one was the last.
    public var next: String?

    /// Creates a page.
    public init(addresses: [String], next: String?) {
        self.addresses = addresses
        self.next = next
    }

    /// The most files the server reads for one page.
    public static let maximumStretch = 200
}
