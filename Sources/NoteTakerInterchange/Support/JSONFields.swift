import Foundation

/// One JSON object of another app's export, read leniently: a field of the wrong type reads as
/// missing, numbers may be written as strings (as Google writes its microsecond times), and the
/// fields nobody asked for can be listed, so that an importer keeps or names every one.
struct JSONFields {
    private let object: [String: Any]
    private var asked: Set<String> = []

    /// The object `data` holds, or `nil` when it is not a JSON object.
    init?(data: Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) as? [String: Any] else {
            return nil
        }
        self.object = object
    }

    /// An object with no fields.
    init() {
        object = [:]
    }

    /// An object found inside another; `nil` when `value` is not one.
    init?(_ value: Any) {
        guard let object = value as? [String: Any] else { return nil }
        self.object = object
    }

    /// The string at `key`.
    mutating func string(_ key: String) -> String? {
        asked.insert(key)
        return object[key] as? String
    }

    /// The boolean at `key` (`true`/`false`, or `1`/`0`).
    mutating func bool(_ key: String) -> Bool? {
        asked.insert(key)
        switch object[key] {
        case let value as Bool: return value
        case let number as NSNumber: return number.boolValue
        default: return nil
        }
    }

    /// The whole number at `key`, written as a number or as a string of digits; `nil` when it
    /// is neither or does not fit in 64 bits.
    mutating func integer(_ key: String) -> Int64? {
        asked.insert(key)
        switch object[key] {
        case let text as String: return Int64(text)
        case let number as NSNumber:
            let value = number.doubleValue
            return value.isFinite && abs(value) < 9.2e18 ? number.int64Value : nil
        default: return nil
        }
    }

    /// The object at `key`.
    mutating func nested(_ key: String) -> JSONFields? {
        asked.insert(key)
        return object[key].flatMap { JSONFields($0) }
    }

    /// Whether the object has a field `key`, whatever its value.
    func holds(_ key: String) -> Bool {
        object[key] != nil
    }

    /// Whether the field at `key` is a string.
    func holdsText(_ key: String) -> Bool {
        object[key] is String
    }

    /// Whether the field at `key` is a list (an empty one included).
    func holdsList(_ key: String) -> Bool {
        object[key] is [Any]
    }

    /// The array of objects at `key` (elements that are not objects are left out).
    mutating func objects(_ key: String) -> [JSONFields] {
        asked.insert(key)
        return (object[key] as? [Any] ?? []).compactMap(JSONFields.init)
    }

    /// The array of strings at `key` (elements that are not strings are left out).
    mutating func strings(_ key: String) -> [String] {
        asked.insert(key)
        return (object[key] as? [Any] ?? []).compactMap { $0 as? String }
    }

    /// Marks `keys` as read without reading them (fields an importer knows it does not need).
    mutating func ignore(_ keys: String...) {
        asked.formUnion(keys)
    }

    /// The fields not asked for, by name: each written as text when it is a string, a number
    /// or a boolean, `nil` when it is a list or an object (which a property cannot hold).
    var leftovers: [(name: String, text: String?)] {
        object.keys.filter { !asked.contains($0) }.sorted().map { key in
            switch object[key] {
            case let text as String: (key, text)
            case let value as Bool: (key, value ? "true" : "false")
            case let number as NSNumber: (key, number.stringValue)
            case is NSNull: (key, "")
            default: (key, nil)
            }
        }
    }
}
