import Foundation

/// One property of a synced record, as JSON carries it.
///
/// Records travel as dictionaries of these values so that the server stores and compares
/// them without knowing what a note or a folder is, as CloudKit does with record fields.
public enum FieldValue: Sendable, Hashable, Codable {
    /// No value (an optional property that is not set).
    case null
    /// A true/false property.
    case bool(Bool)
    /// A number; dates travel as seconds since 1970.
    case number(Double)
    /// A text property.
    case string(String)
    /// A list, for example a note's tag ids.
    case array([FieldValue])

    /// Decodes any JSON scalar or array; objects are refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: most fields are text, and every failed attempt throws.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([FieldValue].self) {
            self = .array(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A field must be null, a boolean, a number, a string or a list.")
        }
    }

    /// Encodes the value as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        }
    }

    /// The text, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The flag, when this is a boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The strings of a list of strings (other elements are skipped).
    public var strings: [String] {
        if case .array(let values) = self { return values.compactMap(\.string) }
        return []
    }
}

/// A record's properties by name.
public typealias RecordFields = [String: FieldValue]
