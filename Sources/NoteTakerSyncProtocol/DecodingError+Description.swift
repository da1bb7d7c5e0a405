import Foundation

extension DecodingError {
    /// What is wrong with the decoded JSON and where, in a short sentence for an API answer.
    public var readableDescription: String {
        func path(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at '\(path)'"
        }
        switch self {
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' is missing\(path(context))."
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong type\(path(context))."
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "unreadable."
        }
    }
}
