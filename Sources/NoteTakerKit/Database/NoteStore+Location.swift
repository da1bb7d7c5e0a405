import Foundation

extension NoteStore {
    /// The name of the database file inside the data folder.
    public static let databaseFileName = "NoteTaker.sqlite"

    /// Where the store lives unless told otherwise: `NOTETAKER_STORE` when set, else
    /// `$XDG_DATA_HOME/notetaker/NoteTaker.sqlite`, else `~/.local/share/notetaker/NoteTaker.sqlite`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["NOTETAKER_STORE"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome
            .appendingPathComponent("notetaker", isDirectory: true)
            .appendingPathComponent(databaseFileName)
    }
}
