import Foundation
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// An error the web API answers with: an HTTP status, a stable code and a message a
/// person can act on, as JSON `{"error": code, "message": text}`.
///
/// An error of the store, sync, import or export is worded in the language the request asks
/// for (`Accept-Language`, which the page sets to the language it speaks); the API's own
/// complaints about a malformed request are for programmers, in English.
public struct WebAPIError: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code (`not_found`, `invalid_input`, …).
    public var code: String
    /// What went wrong, in English.
    public var message: String
    /// What went wrong, to be worded in the reader's language; `nil` for the API's own errors.
    public var wording: Wording?

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// An error of `error`'s kind, worded from ``Catalog/errors``.
    init(_ status: HTTPResponse.Status, _ code: String, _ error: some WordedError) {
        self.init(status, code, wording: error.wording)
    }

    /// An error a person using the page may meet, worded from ``Catalog/errors``.
    init(_ status: HTTPResponse.Status, _ code: String, wording: Wording) {
        self.init(status, code, Catalog.errors.text(wording, in: .english))
        self.wording = wording
    }

    /// The message in `language`.
    public func message(in language: Language) -> String {
        wording.map { Catalog.errors.text($0, in: language) } ?? message
    }

    /// A 400 for input that cannot be accepted.
    static func invalid(_ message: String) -> WebAPIError {
        WebAPIError(.badRequest, "invalid_input", message)
    }

    /// The answer for an error of the store, by kind.
    init(_ error: NoteTakerError) {
        switch error {
        case .noteNotFound, .folderNotFound, .tagNotFound, .attachmentNotFound, .versionNotFound:
            self.init(.notFound, "not_found", error)
        case .ambiguousIdentifier, .invalidInput:
            self.init(.badRequest, "invalid_input", error)
        case .folderCycle, .folderNameTaken, .noteInTrash, .noteNotInTrash, .noConflict:
            self.init(.conflict, "conflict", error)
        case .attachmentTooLarge:
            self.init(.contentTooLarge, "too_large", error)
        case .fileUnreadable, .fileWriteFailed, .storeUnreadable, .notANoteTakerStore, .storeFromNewerVersion, .database:
            self.init(.internalServerError, "store_error", error)
        }
    }

    /// The answer for an error of sync, by kind.
    init(_ error: SyncError) {
        switch error {
        case .store(let storeError):
            self.init(storeError)
        case .notConfigured, .notLoggedIn:
            self.init(.conflict, "not_logged_in", error)
        case .unreachable:
            self.init(.badGateway, "server_unreachable", error)
        case .insecureServer:
            self.init(.badRequest, "insecure_server", error)
        case .untrustedCertificate:
            self.init(.badGateway, "untrusted_certificate", error)
        case .massDeletion:
            self.init(.conflict, "mass_deletion", error)
        case .busy:
            self.init(.conflict, "sync_busy", error)
        case .unencryptedAccount:
            self.init(.conflict, "unencrypted_account", error)
        case .keysMissing, .noIdentityKeys:
            self.init(.conflict, "keys_missing", error)
        case .noRecoveryCode, .noKeysToRotate, .notEncrypted, .identityNeedsEncryption:
            self.init(.conflict, "not_encrypted", error)
        case .wrongPassword:
            self.init(.forbidden, "wrong_password", error)
        case .pageTooLarge:
            self.init(.contentTooLarge, "too_large", error)
        case .notPublished:
            self.init(.notFound, "not_published", error)
        case .publishedElsewhere:
            self.init(.conflict, "published_elsewhere", error)
        case .cannotEncrypt:
            self.init(.conflict, "cannot_encrypt", error)
        case .badRecoveryCode:
            self.init(.badRequest, "invalid_input", error)
        case .noSuchShare:
            self.init(.notFound, "no_such_share", error)
        case .notShareOwner, .viewOnlyShare:
            self.init(.forbidden, "not_allowed", error)
        case .memberKeysChanged:
            self.init(.conflict, "keys_changed", error)
        case .sharedNoteItself, .intoSharedNote:
            self.init(.conflict, "not_movable", error)
        case .encryptionDowngraded, .keysRefused, .shareRefused:
            self.init(.badGateway, "server_refused", error)
        case .server(let code, let message) where code == "notFound":
            self.init(.notFound, "not_found", message)
        case .resyncRequired, .serverRestored, .tombstonesPurged, .server, .storageFull:
            self.init(.badGateway, "server_refused", error)
        }
    }
}

extension WebAPIError {
    /// The answer for an error of import or export.
    init(_ error: InterchangeError) {
        switch error {
        case .store(let storeError): self.init(storeError)
        case .pdfUnavailable: self.init(.serviceUnavailable, "pdf_unavailable", error)
        case .badExport, .unknownKind, .badArchive: self.init(.badRequest, "invalid_input", error)
        default: self.init(.internalServerError, "export_failed", error)
        }
    }
}

extension WebAPIError: HTTPResponseError {
    /// The error as a JSON response, in the language the request asks for.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSON.response(Body(error: code, message: message(in: request.language)), status: status)
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

extension Request {
    /// The language the request asks to be answered in (its `Accept-Language`).
    var language: Language {
        Language.of(acceptLanguage: headers[.acceptLanguage])
    }
}
