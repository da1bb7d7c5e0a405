import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import HummingbirdCore
import HummingbirdTLS
import NoteTakerHTTP
import NoteTakerKit

/// The web app's router over a store: the JSON API under `/api/v1`, the page and its
/// assets, and the guards and headers on every answer. Tests drive it with `app.test(.router)`.
///
/// Every request must carry `configuration`'s key (see ``LocalAccessKey``).
public func buildWebRouter(store: NoteStore, configuration: WebConfiguration) -> Router<BasicRequestContext> {
    buildWebRouter(store: store, configuration: configuration, sync: WebSync(store: store))
}

func buildWebRouter(store: NoteStore, configuration: WebConfiguration, sync: WebSync) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: SecurityHeaders())
    router.add(middleware: OriginGuard(configuration: configuration))
    router.add(middleware: AccessGuard(key: configuration.key, secure: configuration.tls != nil, keyFile: configuration.keyFile))
    router.add(middleware: StaticFiles.middleware())
    NoteRoutes(store: store).register(on: router)
    HistoryRoutes(store: store).register(on: router)
    LinkRoutes(store: store).register(on: router)
    FolderRoutes(store: store).register(on: router)
    TagRoutes(store: store).register(on: router)
    SearchRoutes(store: store).register(on: router)
    AttachmentRoutes(store: store).register(on: router)
    ExportRoutes(store: store).register(on: router)
    ImportRoutes(store: store).register(on: router)
    SyncRoutes(store: store, sync: sync).register(on: router)
    EventRoutes(store: store, sync: sync).register(on: router)
    router.get("/api/v1/openapi.json") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try StaticFiles.openAPIDocument())))
    }
    router.add(middleware: MethodNotAllowed(routes: router.routes) { allowed in
        WebAPIError(.methodNotAllowed, "method_not_allowed", "This address takes \(allowed) only. Nothing was changed.")
    })
    return router
}

/// The web app, ready to run: `notetaker serve` runs it until interrupted.
///
/// Automatic sync (when the store has an account and it is on) runs beside it and stops with it.
public func buildWebApplication(
    store: NoteStore,
    configuration: WebConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws(WebConfigurationError) -> some ApplicationProtocol {
    try configuration.validate()
    let sync = WebSync(store: store)
    let server: HTTPServerBuilder
    if let tls = configuration.tls {
        do {
            server = try .tls(.http1(), tlsConfiguration: try tls.serverConfiguration())
        } catch let error as TLSFilesError {
            throw .unusableTLS(error.description)
        } catch {
            throw .unusableTLS("\(error)")
        }
    } else {
        server = .http1()
    }
    var application = Application(
        router: buildWebRouter(store: store, configuration: configuration, sync: sync),
        server: server,
        configuration: ApplicationConfiguration(address: configuration.address, serverName: "notetaker"),
        onServerRunning: { channel in
            await sync.refresh()
            await onServerRunning(channel.localAddress?.port ?? configuration.port)
        })
    application.addServices(SyncService(sync: sync))
    return application
}

/// Runs the web app until the process is interrupted (SIGINT or SIGTERM end it gracefully).
///
/// - Throws: ``WebConfigurationError`` when the configuration cannot be served, the port is
///   taken among them.
public func serveWebApp(
    store: NoteStore, configuration: WebConfiguration, onServerRunning: @escaping @Sendable (Int) async -> Void
) async throws {
    do {
        try await buildWebApplication(store: store, configuration: configuration, onServerRunning: onServerRunning).runService()
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
        throw WebConfigurationError.portInUse(configuration.port)
    }
}

/// Stops automatic sync when the application shuts down.
private struct SyncService: Service {
    let sync: WebSync

    func run() async throws {
        try? await gracefulShutdown()
        await sync.stopWatching()
    }
}
