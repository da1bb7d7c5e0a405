extension FieldValue {
    /// Reads a field's value: a JSON scalar or list; an object is refused, as by the
    /// `Decodable` conformance.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        switch reader.peek() {
        case UInt8(ascii: "\"")?:
            self = .string(try reader.string())
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?:
            self = .bool(try reader.bool())
        case UInt8(ascii: "n")?:
            _ = try reader.null()
            self = .null
        case UInt8(ascii: "[")?:
            var values: [FieldValue] = []
            try reader.array { reader throws(WireJSONError) in values.append(try FieldValue(reading: &reader)) }
            self = .array(values)
        case UInt8(ascii: "{")?:
            throw reader.refusal("a field that is an object (a field must be null, a boolean, a number, a string or a list)")
        default:
            self = .number(try reader.number())
        }
    }

    /// Writes the value as `JSONEncoder` does.
    public func write(to writer: inout WireWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let values): writer.array(values) { writer, value in value.write(to: &writer) }
        }
    }
}

extension Dictionary where Key == String, Value == FieldValue {
    /// Reads a record's fields: a JSON object of field values.
    public init(reading reader: inout WireReader) throws(WireJSONError) {
        var fields: RecordFields = [:]
        try reader.object { reader, key throws(WireJSONError) in fields[key] = try FieldValue(reading: &reader) }
        self = fields
    }

    /// Reads a record's fields from a whole JSON document (a stored record's text).
    public init(wireJSON utf8: some Collection<UInt8>) throws(WireJSONError) {
        self = try WireReader.read(Array(utf8)) { reader throws(WireJSONError) in try RecordFields(reading: &reader) }
    }

    /// Writes the fields as one JSON object, keys in byte order: the canonical text of a
    /// record's fields, as stored and compared on both sides.
    public func write(to writer: inout WireWriter) {
        writer.object { writer in
            for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                writer.key(key)
                self[key]?.write(to: &writer)
            }
        }
    }

    /// The canonical JSON text of the fields (see ``write(to:)``).
    public var wireJSON: String {
        var writer = WireWriter()
        write(to: &writer)
        return writer.text
    }
}
