import Foundation
import NoteTakerSyncProtocol

/// Three-way merge of one record: property by property against the last-synced base.
///
/// A property changed on one side takes that side's value; changed on both, the policy
/// decides, except that tag sets merge as sets, modification dates take the later one, and
/// note bodies merge as text. A pure function: the sync engine does the I/O around it.
public enum RecordMerge {
    /// What merging produced.
    public struct Outcome: Sendable, Equatable {
        /// The merged record.
        public var fields: RecordFields
        /// The body the policy's loser had, when the bodies could not be merged: the sync
        /// engine keeps it in a conflict copy.
        public var losingBody: String?
    }

    /// Properties that hold a set of ids.
    package static let setProperties: Set<String> = [NoteRecord.Field.tagIds.rawValue]
    /// Properties where the later value always wins.
    package static let latestProperties: Set<String> = [NoteRecord.Field.modifiedAt.rawValue, FolderRecord.Field.modifiedAt.rawValue]

    /// Merges `local` and `server` against `base` (`nil` when the record never synced).
    public static func merge(
        recordType: String, base: RecordFields?, local: RecordFields, server: RecordFields, policy: MergePolicy
    ) -> Outcome {
        var merged: RecordFields = [:]
        var losingBody: String?
        let localWinsTie = localWins(local: local, server: server, policy: policy)
        for key in Set(local.keys).union(server.keys) {
            let l = local[key] ?? .null
            let s = server[key] ?? .null
            let b = base?[key]
            if l == s || s == b {
                merged[key] = l
            } else if l == b {
                merged[key] = s
            } else if setProperties.contains(key) {
                merged[key] = mergeSets(base: b, local: l, server: s)
            } else if latestProperties.contains(key) {
                merged[key] = (l.number ?? 0) >= (s.number ?? 0) ? l : s
            } else if recordType == RecordType.note.rawValue, key == NoteRecord.Field.body.rawValue, let lt = l.string, let st = s.string {
                if let text = TextMerge.merge(base: b?.string ?? "", local: lt, server: st) {
                    merged[key] = .string(text)
                } else {
                    merged[key] = localWinsTie ? l : s
                    losingBody = localWinsTie ? st : lt
                }
            } else if case .custom(let decide) = policy {
                merged[key] = decide(PropertyConflict(
                    recordType: recordType, property: key, base: b, local: l, server: s,
                    localRecord: local, serverRecord: server))
            } else {
                merged[key] = localWinsTie ? l : s
            }
        }
        return Outcome(fields: merged, losingBody: losingBody)
    }

    /// The base for merging a change this device sent, which may have reached the server
    /// before (its answer lost): each property the server holds as `sent` had it, and each
    /// member of a set the server holds or lacks as `sent` did, counts as sent, so that what
    /// changed here since is this device's change rather than the server's. The rest is
    /// `base`. (Where another device made the same change meanwhile, the result is the same.)
    public static func base(_ base: RecordFields?, afterSending sent: RecordFields, server: RecordFields) -> RecordFields? {
        var moved = base ?? [:]
        var changed = false
        for (key, value) in sent where base?[key] != value {
            if server[key] == value {
                moved[key] = value
                changed = true
            } else if setProperties.contains(key) {
                var members = Set(base?[key]?.strings ?? [])
                let was = members
                let held = Set(server[key]?.strings ?? [])
                for member in Set(value.strings).symmetricDifference(was) where held.contains(member) == value.strings.contains(member) {
                    if members.contains(member) { members.remove(member) } else { members.insert(member) }
                }
                if members != was {
                    moved[key] = .array(members.sorted().map(FieldValue.string))
                    changed = true
                }
            }
        }
        return changed ? moved : base
    }

    /// Whether this device wins properties changed on both sides under `policy`.
    /// A custom policy decides per property; for bodies that cannot merge, the local one
    /// stays in the note.
    package static func localWins(local: RecordFields, server: RecordFields, policy: MergePolicy) -> Bool {
        switch policy {
        case .localWins, .custom: true
        case .serverWins: false
        case .lastWriterWins:
            (local[NoteRecord.Field.modifiedAt.rawValue]?.number ?? 0) > (server[NoteRecord.Field.modifiedAt.rawValue]?.number ?? 0)
        }
    }

    /// Adds and removes from both sides: kept if on both, or added on either.
    package static func mergeSets(base: FieldValue?, local: FieldValue, server: FieldValue) -> FieldValue {
        let b = Set(base?.strings ?? [])
        let l = Set(local.strings)
        let s = Set(server.strings)
        let result = l.intersection(s).union(l.subtracting(b)).union(s.subtracting(b))
        return .array(result.sorted().map(FieldValue.string))
    }
}
