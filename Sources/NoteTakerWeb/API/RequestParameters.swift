import Foundation
import Hummingbird
import HummingbirdCore

/// Query parameters as browsers encode them: a form or `URLSearchParams` writes a space as `+`
/// (a `+` itself as `%2B`), and every other reserved character as a percent escape.
extension URI {
    /// The query parameter `name`, decoded; `nil` when absent, `""` when given empty.
    func form(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.formDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? Self.formDecoded(parts[1]) : ""
        }
        return nil
    }

    /// `+` as a space, then percent escapes decoded (a stray `%` left as it is).
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// Reading path and query parameters with clear 400s.
extension Request {
    /// A query parameter as a whole number between `range`'s bounds.
    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(WebAPIError) -> Int {
        guard let text = uri.form(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .invalid("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// A query parameter that is `true` or `false` (absent: `false`).
    func flag(_ name: String) throws(WebAPIError) -> Bool {
        switch uri.form(name) {
        case nil, "false", "0": return false
        case "true", "1": return true
        default: throw .invalid("'\(name)' must be true or false.")
        }
    }

    /// A query parameter that is an id, if present (given empty, it is not an id).
    func identifier(_ name: String) throws(WebAPIError) -> UUID? {
        guard let text = uri.form(name) else { return nil }
        guard let id = UUID(uuidString: text) else { throw .invalid("'\(name)' must be an id like 3f2a…, given '\(text)'.") }
        return id
    }
}

extension RequestContext {
    /// The `:id` path parameter as an id; a 404 when it is not one, since no such thing exists.
    func identifier(_ name: String = "id") throws(WebAPIError) -> UUID {
        let text = parameters.get(name) ?? ""
        guard let id = UUID(uuidString: text) else {
            throw WebAPIError(.notFound, "not_found", "Nothing has the id '\(text)'.")
        }
        return id
    }
}
