import Foundation
import NoteTakerSyncProtocol

/// Who wins a property that both this device and the server changed since the last sync.
///
/// Applies to titles, pins, folders and other single values, and decides which version of
/// a body stays in the note when the texts cannot be merged (the other is kept as a
/// conflict copy). Tag sets and mergeable bodies never need it.
public enum MergePolicy: Sendable {
    /// This device's change wins (the original's default, like Core Data's
    /// `NSMergeByPropertyObjectTrumpMergePolicy`).
    case localWins
    /// The server's change wins.
    case serverWins
    /// The side whose record was modified last wins; on a tie, the server.
    case lastWriterWins
    /// A function decides each property.
    case custom(@Sendable (PropertyConflict) -> FieldValue)

    /// The named policies, as settings and the command line spell them.
    public static func named(_ name: String) -> MergePolicy? {
        switch name {
        case "local-wins": .localWins
        case "server-wins": .serverWins
        case "last-writer-wins": .lastWriterWins
        default: nil
        }
    }

    /// The policy's setting name (`custom` for a function).
    public var name: String {
        switch self {
        case .localWins: "local-wins"
        case .serverWins: "server-wins"
        case .lastWriterWins: "last-writer-wins"
        case .custom: "custom"
        }
    }

    /// Every named policy.
    public static let names = ["local-wins", "server-wins", "last-writer-wins"]
}

/// A property both sides changed, as a custom merge function sees it.
public struct PropertyConflict: Sendable {
    /// The record's type (`note`, `folder`, `tag`, `attachment`).
    public var recordType: String
    /// The property's name.
    public var property: String
    /// The value both sides last agreed on (`nil` when the record never synced).
    public var base: FieldValue?
    /// This device's value.
    public var local: FieldValue
    /// The server's value.
    public var server: FieldValue
    /// This device's whole record.
    public var localRecord: RecordFields
    /// The server's whole record.
    public var serverRecord: RecordFields
}
