/// What one sync cycle did.
public struct SyncReport: Sendable, Equatable, Codable {
    /// Changes sent and accepted.
    public var pushed = 0
    /// Changes received and applied.
    public var pulled = 0
    /// Records merged with a concurrent change.
    public var merged = 0
    /// Notes whose bodies could not merge (a conflict copy was kept).
    public var conflicts = 0
    /// Records the server refused, or that could not be applied here.
    public var errors = 0
    /// Attachment files uploaded.
    public var uploadedFiles = 0
    /// Attachment files downloaded.
    public var downloadedFiles = 0
    /// Note versions the server keeps, sealed again with the newest key after this device
    /// rotated the account's keys.
    public var resealedVersions = 0
    /// Attachment files the server keeps, sealed again with the newest key after this device
    /// rotated the account's keys.
    public var resealedFiles = 0
    /// This device finished converting the account to end-to-end encryption: every record,
    /// kept version and file is sealed, and the server deleted what it held in plain text.
    public var conversionFinished = false
    /// The server turned out to be restored from an older copy: this device sent up again
    /// what the server no longer held (see ``SyncSummary/restoredServer``).
    public var serverRestored = false

    /// An empty report.
    public init() {}
}
