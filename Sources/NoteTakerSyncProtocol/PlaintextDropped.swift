/// The answer of `DELETE /v1/accounts/current/plaintext`, the last step of converting an
/// account to end-to-end encryption (docs/encryption.md §2.4): what the server held in plain
/// text, and deleted, once every record was sealed.
public struct PlaintextDropped: Sendable, Hashable, Codable {
    /// Kept note versions that were still in plain text.
    public var versions: Int
    /// Attachment files kept in plain text (under their SHA-256).
    public var files: Int
    /// Tags whose ids derived from their names unkeyed, deleted (their tombstones) or left by
    /// a batch whose answer was lost (every device holds them under their keyed ids): anyone
    /// could test a name against them.
    public var tombstones: Int

    /// Creates an answer.
    public init(versions: Int, files: Int, tombstones: Int) {
        self.versions = versions
        self.files = files
        self.tombstones = tombstones
    }
}
