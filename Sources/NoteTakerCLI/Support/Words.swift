import ArgumentParser
import Foundation
import NoteTakerKit

/// The command line's words, in the language its environment asks for (`LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`, as gettext reads them): its own catalog (`Strings/`) for what it
/// prints, ``Catalog/errors`` for the errors of the store, sync, import and export.
///
/// Help text (`--help`) stays in English, as the help of git and most command-line tools does.
package enum Words {
    /// The language this process speaks.
    package static let language = Language.of(environment: ProcessInfo.processInfo.environment)

    private static let catalog = Catalog(files: EmbeddedFiles.files, folder: "Strings", languages: [language, .english])

    /// The command line's string for `key`, its placeholders filled from `values`.
    package static func text(_ key: String, _ values: [String: any WordingArgument] = [:]) -> String {
        catalog.text(Wording(key, values), in: language)
    }

    /// A wording of ``Catalog/errors`` (a reason an import gives, an error's), for the reader.
    package static func text(of wording: Wording) -> String {
        Catalog.errors.text(wording, in: language)
    }

    /// A count as the reader's language writes it (`12,345`, `12.345`, `12 345`).
    package static func number(_ value: Int) -> String {
        language.write(Int64(value))
    }

    /// The message of an error the user can act on (the store's, sync's, import's, the web
    /// app's, the command line's own), worded for the reader; `nil` for one ArgumentParser
    /// words (bad usage, help).
    package static func message(for error: any Error) -> String? {
        switch error {
        case let error as any WordedError: error.message(in: language)
        case let error as CommandError: error.description
        default: nil
        }
    }

    /// Bad usage (ArgumentParser prints it with the command's usage) in the reader's language.
    package static func usage(_ key: String, _ values: [String: any WordingArgument] = [:]) -> ValidationError {
        ValidationError(text(key, values))
    }
}

/// An error of the command line itself (an editor that would not start, a companion
/// executable missing), already worded in the reader's language.
package struct CommandError: Error, CustomStringConvertible {
    /// The message.
    package let description: String

    /// The error of `key` in the command line's catalog.
    package init(_ key: String, _ values: [String: any WordingArgument] = [:]) {
        description = Words.text(key, values)
    }
}
