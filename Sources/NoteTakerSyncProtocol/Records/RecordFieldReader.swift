import Foundation

/// A field of a sync record that is missing or not of its kind (a number where text belongs,
/// an id that is no UUID, a date outside the years 1 to 9999): the record cannot be read.
public struct RecordFieldError: Error, Equatable, Sendable {
    /// The field's name.
    public var field: String

    /// The error for the field named `field`.
    public init(field: String) {
        self.field = field
    }
}

/// Typed reading of a record's fields, each failure naming the field. The rules are the
/// protocol's, the same for every record type: what is outside data is checked, never trusted.
public struct RecordFieldReader: Sendable {
    /// The fields read.
    public let fields: RecordFields

    /// The seconds since 1970 that have a four-digit year, 0001-01-01 to 9999-12-31: a date
    /// in a record must fall in it.
    public static let representableDates: ClosedRange<Double> = -62_135_596_800 ... 253_402_300_799.999

    /// The most ids a list field may hold.
    public static let maximumIds = 10_000

    /// A reader of `fields`.
    public init(_ fields: RecordFields) {
        self.fields = fields
    }

    func invalid(_ name: String) -> RecordFieldError { RecordFieldError(field: name) }

    /// Text.
    public func string(_ name: String) throws(RecordFieldError) -> String {
        guard let value = fields[name]?.string else { throw invalid(name) }
        return value
    }

    /// A number.
    public func number(_ name: String) throws(RecordFieldError) -> Double {
        guard let value = fields[name]?.number else { throw invalid(name) }
        return value
    }

    /// A whole number that fits an `Int` (never a trapping conversion of outside data).
    public func integer(_ name: String) throws(RecordFieldError) -> Int {
        guard let value = Int(exactly: try number(name).rounded(.towardZero)) else { throw invalid(name) }
        return value
    }

    /// A whole number that fits an `Int` and is not negative.
    public func count(_ name: String) throws(RecordFieldError) -> Int {
        let value = try integer(name)
        guard value >= 0 else { throw invalid(name) }
        return value
    }

    /// A date, as seconds since 1970, within ``representableDates``.
    public func date(_ name: String) throws(RecordFieldError) -> Double {
        let value = try number(name)
        guard Self.representableDates.contains(value) else { throw invalid(name) }
        return value
    }

    /// A date, or none (missing or null).
    public func optionalDate(_ name: String) throws(RecordFieldError) -> Double? {
        guard let value = try optionalNumber(name) else { return nil }
        guard Self.representableDates.contains(value) else { throw invalid(name) }
        return value
    }

    /// A flag; missing or null is `false`.
    public func bool(_ name: String) throws(RecordFieldError) -> Bool {
        switch fields[name] {
        case .bool(let value)?: value
        case .null?, nil: false
        default: throw invalid(name)
        }
    }

    /// A record id, in its canonical spelling (``Foundation/UUID/key``).
    public func id(_ name: String) throws(RecordFieldError) -> String {
        guard let id = UUID(key: try string(name)) else { throw invalid(name) }
        return id.key
    }

    /// A record id, or none.
    public func optionalId(_ name: String) throws(RecordFieldError) -> String? {
        guard let text = try optionalString(name) else { return nil }
        guard let id = UUID(key: text) else { throw invalid(name) }
        return id.key
    }

    /// A list of record ids (missing: none), at most ``maximumIds``.
    public func ids(_ name: String) throws(RecordFieldError) -> [String] {
        switch fields[name] {
        case .array(let values)? where values.count <= Self.maximumIds:
            var ids: [String] = []
            for value in values {
                guard let text = value.string, let id = UUID(key: text) else { throw invalid(name) }
                ids.append(id.key)
            }
            return ids
        case .null?, nil: return []
        default: throw invalid(name)
        }
    }

    /// Text of at most `maxLength` bytes, or none.
    public func optionalString(_ name: String, maxLength: Int = .max) throws(RecordFieldError) -> String? {
        switch fields[name] {
        case .string(let value)? where value.utf8.count <= maxLength: value
        case .null?, nil: nil
        default: throw invalid(name)
        }
    }

    /// A number, or none.
    public func optionalNumber(_ name: String) throws(RecordFieldError) -> Double? {
        switch fields[name] {
        case .number(let value)?: value
        case .null?, nil: nil
        default: throw invalid(name)
        }
    }
}

extension FieldValue {
    /// Text, or null.
    static func optional(_ text: String?) -> FieldValue { text.map(FieldValue.string) ?? .null }

    /// A number, or null.
    static func optional(_ number: Double?) -> FieldValue { number.map(FieldValue.number) ?? .null }
}
