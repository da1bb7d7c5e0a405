/// A message chosen but not yet worded: a key of a ``Catalog`` and the values its
/// placeholders take. Errors say what happened as a wording; the edge (the command line, the
/// web API) words it in the language of the person reading.
public struct Wording: Sendable, Hashable, Codable {
    /// A value for a placeholder: text as it is, or a number written as the language writes
    /// numbers (and choosing the plural form, as `count`).
    public enum Value: Sendable, Hashable, Codable {
        /// Text, put in as it is.
        case text(String)
        /// A whole number.
        case number(Int64)
        /// Another wording, worded in the same language (a reason inside a message).
        indirect case wording(Wording)
    }

    /// The catalog key.
    public var key: String
    /// The placeholders' values, by name.
    public var values: [String: Value]

    /// A wording of `key` with `values` for its placeholders.
    public init(_ key: String, _ values: [String: any WordingArgument] = [:]) {
        self.key = key
        self.values = values.mapValues(\.wordingValue)
    }

    /// Text that has no translation (the operating system's or a library's own words), as it is.
    public static func verbatim(_ text: String) -> Wording {
        Wording("verbatim", ["text": text])
    }
}

/// A value that can fill a placeholder of a ``Wording``.
public protocol WordingArgument: Sendable {
    /// The value as a placeholder takes it.
    var wordingValue: Wording.Value { get }
}

extension String: WordingArgument {
    /// The text itself.
    public var wordingValue: Wording.Value { .text(self) }
}

extension Substring: WordingArgument {
    /// The text itself.
    public var wordingValue: Wording.Value { .text(String(self)) }
}

extension Int: WordingArgument {
    /// The number, written as the language writes numbers.
    public var wordingValue: Wording.Value { .number(Int64(self)) }
}

extension Wording: WordingArgument {
    /// The wording, to be worded in the same language as the message it is part of.
    public var wordingValue: Wording.Value { .wording(self) }
}

extension Int64: WordingArgument {
    /// The number, written as the language writes numbers.
    public var wordingValue: Wording.Value { .number(self) }
}

/// An error that says what happened as a ``Wording`` of ``Catalog/errors``.
public protocol WordedError: Error {
    /// What happened, to be worded in the reader's language.
    var wording: Wording { get }
}

extension WordedError {
    /// The message in `language`.
    public func message(in language: Language) -> String {
        Catalog.errors.text(wording, in: language)
    }

    /// The message in English: for logs, and for readers whose language is not known.
    public var message: String { message(in: .english) }
}
