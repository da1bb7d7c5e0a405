import Foundation
import GRDB
import PostgresNIO

/// What kind of failure a storage error is, for the answer a device gets and the line the
/// operator reads: the database out of reach, the disk full, or anything else.
public enum StorageFailure: Sendable, Equatable {
    /// The database cannot be reached (PostgreSQL down, restarting, or off the network).
    case unreachable(String)
    /// No room is left (SQLite's `SQLITE_FULL`, PostgreSQL's `disk_full`, a file write's `ENOSPC`).
    case full(String)
    /// Any other failure.
    case other(String)

    /// The failure `error` is. Linear in nothing: it looks at the error alone.
    public static func classify(_ error: any Error) -> StorageFailure {
        if let unreachable = error as? DatabaseUnreachable { return .unreachable(unreachable.reason) }
        if let error = error as? PSQLError {
            let reason = PostgresDatabase.reason(error) ?? "PostgreSQL failed"
            if error.serverInfo?[.sqlState] == "53100" { return .full(reason) }
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .poolClosed:
                return .unreachable(reason)
            default:
                return .other(reason)
            }
        }
        if let error = error as? DatabaseError {
            return error.resultCode == .SQLITE_FULL
                ? .full("SQLite: \(error.message ?? "database or disk is full")") : .other("SQLite: \(error.message ?? "\(error.resultCode)")")
        }
        let nsError = error as NSError
        if (nsError.domain == NSPOSIXErrorDomain && nsError.code == Int(ENOSPC))
            || (nsError.domain == NSCocoaErrorDomain && nsError.code == CocoaError.fileWriteOutOfSpace.rawValue)
            || (nsError.userInfo[NSUnderlyingErrorKey] as? NSError).map({ $0.domain == NSPOSIXErrorDomain && $0.code == Int(ENOSPC) }) == true {
            return .full("no space left on the device")
        }
        return .other("\(error)")
    }

    /// The error a device is answered with: what happened and that nothing was changed, never
    /// the internals.
    public var answer: SyncServerError {
        switch self {
        case .unreachable:
            SyncServerError(.unavailable, "The sync server cannot reach its database. Nothing was changed; your changes wait on your device until it is back.")
        case .full:
            SyncServerError(.serverFull, "The sync server has no room left on its disk. Nothing was changed; tell whoever runs the server.")
        case .other:
            SyncServerError(.internalError, "The server could not read or write its storage; nothing was changed. Try again later.")
        }
    }
}

/// The database did not hand out a connection in time: it is down or out of reach.
public struct DatabaseUnreachable: Error, Sendable {
    /// What was waited for.
    public let reason: String
}
