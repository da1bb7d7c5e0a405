import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import NoteTakerHTTP

/// The router of the sync API over a service: what tests drive with `app.test(.router)`.
///
/// Requests through `trustedProxies` are counted (for log-in throttling) by the address the
/// proxy forwarded for; see ``ClientAddressRule``. `/metrics` is served here unless
/// `servesMetrics` is off (it is then on its own address: ``buildMetricsRouter(service:)``).
public func buildRouter(service: SyncService, trustedProxies: [AddressBlock] = [], servesMetrics: Bool = true) -> Router<SyncRequestContext> {
    let router = Router(context: SyncRequestContext.self)
    router.add(middleware: RequestMetrics(metrics: service.metrics))
    router.add(middleware: RequestLog())
    SyncRoutes(service: service, clients: ClientAddressRule(trustedProxies: trustedProxies)).register(on: router)
    if servesMetrics { addMetricsRoute(to: router, service: service) }
    router.add(middleware: MethodNotAllowed(routes: router.routes) { allowed in
        SyncServerError(.methodNotAllowed, "This address takes \(allowed) only. Nothing was changed.")
    })
    return router
}

/// A router with `/metrics` alone, for ``ServerConfiguration/metricsHost``.
public func buildMetricsRouter(service: SyncService) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    addMetricsRoute(to: router, service: service)
    return router
}

/// Prometheus' scrape: keep it off the public side of a reverse proxy (see the README).
private func addMetricsRoute<Context: RequestContext>(to router: Router<Context>, service: SyncService) {
    router.get("/metrics") { _, _ in
        // Counted from the storage at each scrape, so every node tells the same.
        try? await service.countShares()
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: service.metrics.text())))
    }
}

/// Builds the sync server: the storage opened (when `backend` is not given), routes
/// registered, TLS when configured, and what runs beside the server: what the storage needs,
/// and the hourly purge of old tombstones (``TombstoneRetention``).
/// With ``ServerConfiguration/metricsHost``, `/metrics` answers there only, over plain HTTP.
///
/// `onServerRunning` receives the port actually bound (useful with port 0); `logger` is the
/// one requests log to (a line each, at `info`).
public func buildApplication(
    _ configuration: ServerConfiguration,
    backend: ServerBackend? = nil,
    logger: Logger = Logger(label: "notetaker-server"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    var opened = backend
    if opened == nil { opened = try await configuration.openBackend() }
    guard let backend = opened else { throw SyncServerError(.internalError, "The server's storage could not be opened.") }
    let address = ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port), serverName: "notetaker-server")
    var services = backend.services
    services.append(TombstonePurging(service: backend.service))
    if let metricsHost = configuration.metricsHost {
        services.append(Application(
            router: buildMetricsRouter(service: backend.service),
            configuration: ApplicationConfiguration(address: .hostname(metricsHost, port: configuration.metricsPort), serverName: "notetaker-server-metrics")))
    }
    return Application(
        router: buildRouter(service: backend.service, trustedProxies: configuration.trustedProxies, servesMetrics: configuration.metricsHost == nil),
        server: try serverBuilder(configuration),
        configuration: address,
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}

/// Plain HTTP/1.1, or HTTPS (TLS 1.2 at least) when a certificate and key are configured.
func serverBuilder(_ configuration: ServerConfiguration) throws -> HTTPServerBuilder {
    let headerTimeout = TimeAmount.seconds(configuration.headerTimeoutSeconds)
    let counts = ConnectionCounts(limit: configuration.connectionsPerAddress, trustedProxies: configuration.trustedProxies)
    let http = HTTP1Channel.Configuration(
        additionalChannelHandlers: [
            ConnectionLimit(counts: counts),
            RequestDeadline(limit: headerTimeout, minimumBodyRate: configuration.minimumBodyBytesPerSecond),
        ],
        idleTimeout: .seconds(configuration.idleTimeoutSeconds))
    switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
    case (nil, nil):
        return .http1(configuration: http)
    case let (certificate?, key?):
        let tls = try TLSFiles(certificatePath: certificate, keyPath: key).serverConfiguration()
        return try .tls(.http1(configuration: http), tlsConfiguration: tls)
    default:
        throw SyncServerError(.badRequest, "HTTPS needs both --tls-cert and --tls-key.")
    }
}
