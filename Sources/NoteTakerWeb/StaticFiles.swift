import Foundation
import Hummingbird

/// The page, its scripts, styles and string catalog, shipped as the module's resources.
enum StaticFiles {
    /// The folder of the app's files.
    static var folder: URL? {
        Bundle.module.url(forResource: "Public", withExtension: nil)
    }

    /// Serves the files, `index.html` for `/`, revalidated on every load.
    static func middleware<Context: RequestContext>() -> FileMiddleware<Context, LocalFileSystem> {
        FileMiddleware(folder?.path ?? "Public", cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true)
    }

    /// The OpenAPI document of `/api/v1`.
    static func openAPIDocument() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw WebAPIError(.internalServerError, "missing_resource", "The API description is missing from this build.")
        }
        return try Data(contentsOf: url)
    }
}
