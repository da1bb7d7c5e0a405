import Foundation

/// A folder of notes; folders nest.
public struct Folder: Sendable, Hashable, Identifiable {
    /// The folder's id.
    public var id: UUID
    /// The folder's name, unique among its siblings (case-insensitively).
    public var name: String
    /// An optional symbol name shown beside the folder.
    public var icon: String?
    /// The position among siblings; lower comes first, then by name.
    public var sortOrder: Int
    /// When the folder was created.
    public var createdAt: Date
    /// When the folder last changed.
    public var modifiedAt: Date
    /// The parent folder, or `nil` at the top level.
    public var parentId: UUID?
    /// Sync bookkeeping.
    public var sync: SyncMetadata

    /// Creates a folder value.
    public init(
        id: UUID = UUID(),
        name: String,
        icon: String? = nil,
        sortOrder: Int = 0,
        createdAt: Date = Date(),
        modifiedAt: Date? = nil,
        parentId: UUID? = nil,
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt ?? createdAt
        self.parentId = parentId
        self.sync = sync
    }
}

/// A folder in the folder tree, with its subfolders and note counts.
public struct FolderNode: Sendable, Hashable, Identifiable {
    /// The folder.
    public var folder: Folder
    /// The slash-separated path from the top level, for example `Work/Projects`.
    public var path: String
    /// Notes filed directly in this folder (trash excluded).
    public var noteCount: Int
    /// Notes in this folder and all its subfolders (trash excluded).
    public var totalNoteCount: Int
    /// The subfolders, in display order.
    public var children: [FolderNode]

    /// The folder's id.
    public var id: UUID { folder.id }
    /// A folder in the tree, with its path, counts and subfolders.
    package init(folder: Folder, path: String, noteCount: Int, totalNoteCount: Int, children: [FolderNode]) {
        (self.folder, self.path, self.noteCount, self.totalNoteCount, self.children) = (folder, path, noteCount, totalNoteCount, children)
    }
}
