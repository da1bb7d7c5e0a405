/// The kinds of record that sync.
public enum RecordType: String, Sendable, Codable, CaseIterable {
    /// A ``Note``.
    case note
    /// A ``Folder``.
    case folder
    /// A ``Tag``.
    case tag
    /// An ``Attachment``'s metadata.
    case attachment

    /// The table that holds records of this type.
    package var table: String { rawValue }

    /// Every type, those that others refer to first: the order of applying fetched records,
    /// and of queueing a whole store to go up (so that other devices receive folders and tags
    /// before the notes in them).
    package static let parentsFirst = allCases.sorted { $0.applyOrder < $1.applyOrder }

    /// The order in which fetched records are applied: what others refer to comes first.
    package var applyOrder: Int {
        switch self {
        case .folder: 0
        case .tag: 1
        case .note: 2
        case .attachment: 3
        }
    }
}
