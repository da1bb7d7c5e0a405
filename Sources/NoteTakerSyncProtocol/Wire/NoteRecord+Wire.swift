extension NoteRecord {
    /// Writes the record's fields as one JSON object: the same canonical text as
    /// ``NoteRecord/fields`` written with `RecordFields.write(to:)` (keys in byte order,
    /// `null` where there is no value), without building the dictionary first. A push reads
    /// every note it sends this way.
    public func write(to writer: inout WireWriter) {
        func optional(_ value: String?, _ writer: inout WireWriter) {
            if let value { writer.string(value) } else { writer.null() }
        }
        writer.object { writer in
            writer.key(Field.body.rawValue); writer.string(body)
            writer.key(Field.createdAt.rawValue); writer.number(createdAt)
            writer.key(Field.editedOn.rawValue); optional(editedOn, &writer)
            writer.key(Field.folderId.rawValue); optional(folderId, &writer)
            writer.key(Field.isPinned.rawValue); writer.bool(isPinned)
            writer.key(Field.modifiedAt.rawValue); writer.number(modifiedAt)
            writer.key(Field.tagIds.rawValue); writer.array(tagIds) { writer, id in writer.string(id) }
            writer.key(Field.title.rawValue); writer.string(title)
            writer.key(Field.trashedAt.rawValue)
            if let trashedAt { writer.number(trashedAt) } else { writer.null() }
        }
    }

    /// The canonical JSON text of the record's fields (see ``write(to:)``).
    public var wireJSON: String {
        var writer = WireWriter()
        write(to: &writer)
        return writer.text
    }
}
