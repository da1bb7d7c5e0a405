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
/// Every request must carry `configuration`'s key (see ``LocalAccessKey``), unless
/// `requiresKey` is off: the router of the owner's Unix socket (`LocalSocket`).
public func buildWebRouter(store: NoteStore, configuration: WebConfiguration, requiresKey: Bool = true) -> Router<BasicRequestContext> {
    buildWebRouter(store: store, configuration: configuration, sync: WebSync(store: store), requiresKey: requiresKey)
}

func buildWebRouter(store: NoteStore, configuration: WebConfiguration, sync: WebSync, requiresKey: Bool = true) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    let stores = sync.stores
    router.add(middleware: SecurityHeaders())
    router.add(middleware: OriginGuard(configuration: configuration))
    if requiresKey {
        router.add(middleware: AccessGuard(key: configuration.key, secure: configuration.tls != nil, keyFile: configuration.keyFile))
    }
    router.add(middleware: StaticFiles.middleware())
    NoteRoutes(stores: stores).register(on: router)
    HistoryRoutes(stores: stores).register(on: router)
    LinkRoutes(stores: stores).register(on: router)
    FolderRoutes(stores: stores).register(on: router)
    TagRoutes(stores: stores).register(on: router)
    SearchRoutes(stores: stores).register(on: router)
    PreferenceRoutes(store: store).register(on: router)
    AttachmentRoutes(stores: stores).register(on: router)
    ExportRoutes(stores: stores).register(on: router)
    ImportRoutes(store: store).register(on: router)
    SyncRoutes(store: store, sync: sync).register(on: router)
    PublishRoutes(store: store).register(on: router)
    ShareRoutes(store: store, sync: sync).register(on: router)
    EventRoutes(stores: stores, sync: sync).register(on: router)
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
/// Automatic sync (when the store has an account and it is on) runs beside it and stops with
/// it, and so does the Unix socket when one is configured.
public func buildWebApplication(
    store: NoteStore,
    configuration: WebConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    onSocketReady: @escaping @Sendable (String) async -> Void = { _ in }
) throws(WebConfigurationError) -> some ApplicationProtocol {
    try configuration.validate()
    let sync = WebSync(store: store)
    let server: HTTPServerBuilder
    if let tls = configuration.tls {
        do {
            server = try .tls(.http1(), tlsConfiguration: try tls.serverConfiguration())
        } catch let error as TLSFilesError {
            throw .unusableTLS(path: error.path, reason: error.reason)
        } catch {
            throw .unusableTLS(path: tls.certificatePath, reason: "\(error)")
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
    if let path = configuration.socketPath {
        let socket = try LocalSocket.prepare(path)
        let logger = application.logger
        application.addServices(
            Application(
                router: buildWebRouter(store: store, configuration: configuration, sync: sync, requiresKey: false),
                configuration: ApplicationConfiguration(address: .unixDomainSocket(path: socket.bindPath), serverName: "notetaker"),
                onServerRunning: { _ in
                    do throws(WebConfigurationError) {
                        try socket.publish()
                        await onSocketReady(socket.path)
                    } catch {
                        logger.error("\(error.message)")
                    }
                }),
            SocketRemoval(socket: socket))
    }
    return application
}

/// Runs the web app until the process is interrupted (SIGINT or SIGTERM end it gracefully).
///
/// - Throws: ``WebConfigurationError`` when the configuration cannot be served, the port is
///   taken among them.
public func serveWebApp(
    store: NoteStore, configuration: WebConfiguration, onServerRunning: @escaping @Sendable (Int) async -> Void,
    onSocketReady: @escaping @Sendable (String) async -> Void = { _ in }
) async throws {
    do {
        try await buildWebApplication(
            store: store, configuration: configuration, onServerRunning: onServerRunning, onSocketReady: onSocketReady
        ).runService()
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
        throw WebConfigurationError.portInUse(configuration.port)
    }
}

/// Removes the Unix socket when the application shuts down.
private struct SocketRemoval: Service {
    let socket: LocalSocket

    func run() async throws {
        try? await gracefulShutdown()
        socket.remove()
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
