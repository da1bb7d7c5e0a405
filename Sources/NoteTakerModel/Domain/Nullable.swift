import Foundation

/// An optional property that JSON writes as `null` when absent, instead of leaving the key
/// out (what synthesized `Encodable` does): readers of NoteTaker's JSON find every documented
/// key on every object.
///
/// ```swift
/// struct FolderJSON: Encodable {
///     @Nullable var parentId: String?
/// }
/// ```
@propertyWrapper
public struct Nullable<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    /// The value, or `nil` for `null`.
    public var wrappedValue: Wrapped?

    /// Wraps a value.
    public init(wrappedValue: Wrapped?) {
        self.wrappedValue = wrappedValue
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension Nullable: Equatable where Wrapped: Equatable {}

extension Nullable: Hashable where Wrapped: Hashable {}

extension Nullable: Decodable where Wrapped: Decodable {
    /// Reads the value, or `nil` for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Wrapped.self)
    }
}

extension KeyedDecodingContainer {
    /// Reads a ``Nullable`` property whose key may be missing (as `nil`).
    public func decode<T: Decodable & Sendable>(_ type: Nullable<T>.Type, forKey key: Key) throws -> Nullable<T> {
        Nullable(wrappedValue: try decodeIfPresent(T.self, forKey: key))
    }
}
