import Foundation
import Logging
import Synchronization

/// A log handler writing one JSON object per line to standard error (`--log-format json`), for
/// log collectors: `time` (ISO 8601 with milliseconds, UTC), `level`, `logger`, `message`, and
/// the metadata as further string fields.
public struct JSONLogHandler: LogHandler {
    /// The handler's own metadata, added to every line.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    /// Adds context metadata to each line.
    public var metadataProvider: Logger.MetadataProvider?

    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for the logger `label`, writing its lines to standard error.
    public init(label: String) {
        self.init(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A handler for the logger `label`, handing each line to `write` (tests read them).
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var object: [String: String] = fields.mapValues { "\($0)" }
        object["time"] = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
        object["level"] = event.level.rawValue
        object["logger"] = label
        object["message"] = "\(event.message)"
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
