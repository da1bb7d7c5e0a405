/// What an archive (a zip, a tar) may hold before an import refuses it: checked on the sizes
/// its directory or headers declare, and again on the bytes each entry really gives.
struct ArchiveLimits: Sendable {
    /// Files in the archive.
    var entries = 500_000
    /// Bytes all files hold together, inflated.
    var totalBytes: Int64 = 32 << 30
    /// How many times its compressed size one file may inflate to, for a file over
    /// `ratioFloor` bytes (text compresses about ten times; a zip bomb a thousand or more).
    var ratio: Int64 = 200
    /// Files up to this size are not held to `ratio`.
    var ratioFloor: Int64 = 4 << 20

    /// The limits every import uses.
    static let standard = ArchiveLimits()
}
