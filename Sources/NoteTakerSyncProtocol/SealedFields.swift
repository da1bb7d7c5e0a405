/// Whether a record's fields are sealed (docs/encryption.md §3.3): what the server needs to
/// know of end-to-end encryption, and no more.
extension Dictionary where Key == String, Value == FieldValue {
    /// The field whose presence marks a record's fields as an envelope; its value is the
    /// format version. No plaintext field's name begins with `$`.
    public static let sealedMarker = "$enc"

    /// Whether these fields are an envelope (well formed or not): the server then keeps each
    /// version it replaces whole, since it cannot tell what changed.
    public var isSealed: Bool { self[Self.sealedMarker] != nil }

    /// In a shared zone, the account that wrote a record: in its envelope, and among its
    /// fields once a member's device opened it and checked the signature (only for another
    /// account's record), so that the note's history can name its author.
    public static let writerKey = "$by"
}
