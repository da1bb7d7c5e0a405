import Foundation
import Prometheus

/// What the server counts, for `/metrics` in Prometheus' text format: requests and their
/// latencies by route and status, records saved, sent and in conflict, attachment bytes in
/// and out, open push streams, shares and their members (how many, never which), and the storage's work: operations in flight (each holds a
/// database connection, or SQLite's writer), their latencies and failures. One registry per
/// service; nothing global.
public struct ServerMetrics: Sendable {
    /// The registry `/metrics` reads.
    public let registry = PrometheusCollectorRegistry()

    /// Latency buckets, from a millisecond to ten seconds.
    private static let buckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000].map { .milliseconds($0) }

    /// Creates the metrics, every series at zero.
    public init() {
        for name in ["records_saved", "records_sent", "record_conflicts"] { _ = counter("notetaker_\(name)_total") }
        _ = registry.makeGauge(name: "notetaker_push_streams", help: "Push streams (/v1/events) open on this node.")
        _ = storageInFlight
        _ = counter("notetaker_storage_errors_total")
    }

    /// Counts a request that was answered, with its latency.
    func request(method: String, route: String, status: Int, duration: Duration) {
        let labels = [("method", method), ("route", route), ("status", String(status))]
        registry.makeCounter(name: "notetaker_http_requests_total", labels: labels, help: "HTTP requests answered.").increment()
        registry.makeDurationHistogram(
            name: "notetaker_http_request_duration_seconds", labels: [("method", method), ("route", route)], buckets: Self.buckets,
            help: "Time from a request's head to its answer's head.").record(duration)
    }

    /// Counts what a batch did.
    func batch(saved: Int, conflicts: Int) {
        counter("notetaker_records_saved_total").increment(by: Int64(saved))
        counter("notetaker_record_conflicts_total").increment(by: Int64(conflicts))
    }

    /// Counts records sent to devices.
    func sent(records: Int) {
        counter("notetaker_records_sent_total").increment(by: Int64(records))
    }

    /// Counts attachment bytes received (`incoming`) or sent.
    func assetBytes(_ bytes: Int64, incoming: Bool) {
        registry.makeCounter(name: "notetaker_asset_bytes_total", labels: [("direction", incoming ? "in" : "out")],
                             help: "Attachment file bytes stored and served.").increment(by: bytes)
    }

    /// How many shares there are, and members in them (owners included), across every node.
    func shares(_ shares: Int, members: Int) {
        registry.makeGauge(name: "notetaker_shares", help: "Shared folders and notes (zones) on this server.").set(Double(shares))
        registry.makeGauge(name: "notetaker_share_members", help: "Members of shares, owners included.").set(Double(members))
    }

    /// A push stream opened (+1) or closed (-1).
    func pushStreams(_ change: Double) {
        registry.makeGauge(name: "notetaker_push_streams", help: "Push streams (/v1/events) open on this node.").increment(by: change)
    }

    /// Times one storage operation (a transaction on one connection), counting it in flight
    /// meanwhile, and as an error when the storage fails (not when it refuses a request with
    /// a ``SyncServerError``, a full account say).
    func storage<T>(_ body: () async throws -> T) async throws -> T {
        storageInFlight.increment()
        let start = ContinuousClock.now
        defer {
            storageInFlight.decrement()
            registry.makeDurationHistogram(
                name: "notetaker_storage_operation_duration_seconds", buckets: Self.buckets,
                help: "Time a storage operation took, waiting for a connection included.").record(ContinuousClock.now - start)
        }
        do {
            return try await body()
        } catch {
            if !(error is SyncServerError) { counter("notetaker_storage_errors_total").increment() }
            throw error
        }
    }

    private var storageInFlight: Gauge {
        registry.makeGauge(name: "notetaker_storage_operations_in_flight", help: "Storage operations running on this node: connections in use or awaited.")
    }

    private func counter(_ name: String) -> Counter {
        registry.makeCounter(name: name, help: name.replacingOccurrences(of: "_", with: " "))
    }

    /// The metrics in Prometheus' text format.
    public func text() -> [UInt8] {
        registry.emitToBuffer()
    }
}
