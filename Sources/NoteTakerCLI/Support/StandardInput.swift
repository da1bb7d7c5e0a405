import Foundation

/// Text piped into the command.
enum StandardInput {
    /// Everything on standard input, as UTF-8 (invalid bytes replaced).
    static func readAll() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}
