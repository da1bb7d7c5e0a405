import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import NoteTakerKit

/// Where `notetaker serve` listens.
public struct WebConfiguration: Sendable {
    /// The port; 0 picks a free one (reported to `onServerRunning`).
    public var port: Int
    /// The address: loopback only, so no other machine can reach the app.
    public var host: String

    /// The default port of `notetaker serve`.
    public static let defaultPort = 8080

    /// Creates a configuration on 127.0.0.1.
    public init(port: Int = WebConfiguration.defaultPort, host: String = "127.0.0.1") {
        self.port = port
        self.host = host
    }
}

/// The web app's router over a store: the JSON API under `/api/v1`, the page and its
/// assets, and the guards and headers on every answer. Tests drive it with `app.test(.router)`.
public func buildWebRouter(store: NoteStore) -> Router<BasicRequestContext> {
    buildWebRouter(store: store, sync: WebSync(store: store))
}

func buildWebRouter(store: NoteStore, sync: WebSync) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: SecurityHeaders())
    router.add(middleware: OriginGuard())
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
    return router
}

/// The web app, ready to run: `notetaker serve` runs it until interrupted.
///
/// Automatic sync (when the store has an account and it is on) runs beside it and stops with it.
public func buildWebApplication(
    store: NoteStore,
    configuration: WebConfiguration = WebConfiguration(),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let sync = WebSync(store: store)
    var application = Application(
        router: buildWebRouter(store: store, sync: sync),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port), serverName: "notetaker"),
        onServerRunning: { channel in
            await sync.refresh()
            await onServerRunning(channel.localAddress?.port ?? configuration.port)
        })
    application.addServices(SyncService(sync: sync))
    return application
}

/// Runs the web app until the process is interrupted (SIGINT or SIGTERM end it gracefully).
///
/// - Throws: ``NoteTakerError/invalidInput(_:)`` when the port is taken.
public func serveWebApp(
    store: NoteStore, configuration: WebConfiguration, onServerRunning: @escaping @Sendable (Int) async -> Void
) async throws {
    do {
        try await buildWebApplication(store: store, configuration: configuration, onServerRunning: onServerRunning).runService()
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
        throw NoteTakerError.invalidInput("Port \(configuration.port) is already in use; choose another with --port.")
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
