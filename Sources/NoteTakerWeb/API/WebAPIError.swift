import Foundation
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// An error the web API answers with: an HTTP status, a stable code and a message a
/// person can act on, as JSON `{"error": code, "message": text}`.
public struct WebAPIError: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code (`not_found`, `invalid_input`, …).
    public var code: String
    /// What went wrong, in words a user can act on.
    public var message: String

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A 400 for input that cannot be accepted.
    static func invalid(_ message: String) -> WebAPIError {
        WebAPIError(.badRequest, "invalid_input", message)
    }

    /// The answer for an error of the store, by kind.
    init(_ error: NoteTakerError) {
        switch error {
        case .noteNotFound, .folderNotFound, .tagNotFound, .attachmentNotFound, .versionNotFound:
            self.init(.notFound, "not_found", error.message)
        case .ambiguousIdentifier, .invalidInput:
            self.init(.badRequest, "invalid_input", error.message)
        case .folderCycle, .folderNameTaken, .noteInTrash, .noteNotInTrash, .noConflict:
            self.init(.conflict, "conflict", error.message)
        case .attachmentTooLarge:
            self.init(.contentTooLarge, "too_large", error.message)
        case .fileUnreadable, .fileWriteFailed, .storeUnreadable, .notANoteTakerStore, .storeFromNewerVersion, .database:
            self.init(.internalServerError, "store_error", error.message)
        }
    }

    /// The answer for an error of sync, by kind.
    init(_ error: SyncError) {
        switch error {
        case .store(let storeError):
            self.init(storeError)
        case .notConfigured, .notLoggedIn:
            self.init(.conflict, "not_logged_in", error.message)
        case .unreachable:
            self.init(.badGateway, "server_unreachable", error.message)
        case .insecureServer:
            self.init(.badRequest, "insecure_server", error.message)
        case .untrustedCertificate:
            self.init(.badGateway, "untrusted_certificate", error.message)
        case .massDeletion:
            self.init(.conflict, "mass_deletion", error.message)
        case .busy:
            self.init(.conflict, "sync_busy", error.message)
        case .server(let code, let message) where code == "notFound":
            self.init(.notFound, "not_found", message)
        case .resyncRequired, .serverRestored, .tombstonesPurged, .server, .storageFull:
            self.init(.badGateway, "server_refused", error.message)
        }
    }
}

extension WebAPIError {
    /// The answer for an error of import or export.
    init(_ error: InterchangeError) {
        switch error {
        case .store(let storeError): self.init(storeError)
        case .pdfUnavailable: self.init(.serviceUnavailable, "pdf_unavailable", error.message)
        case .badExport, .unknownKind: self.init(.badRequest, "invalid_input", error.message)
        default: self.init(.internalServerError, "export_failed", error.message)
        }
    }
}

extension WebAPIError: HTTPResponseError {
    /// The error as a JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSON.response(Body(error: code, message: message), status: status)
    }

    private struct Body: Encodable {
        var error: String
        var message: String
    }
}

/// Runs store work, turning its errors into API answers.
func storeCall<T>(_ work: () throws(NoteTakerError) -> T) throws(WebAPIError) -> T {
    do {
        return try work()
    } catch {
        throw WebAPIError(error)
    }
}
