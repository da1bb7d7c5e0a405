import Foundation
import Hummingbird
import HummingbirdTesting
import NoteTakerServer
import NoteTakerSyncProtocol
import Testing

@Suite("Metrics")
struct MetricsTests {
    @Test("/metrics counts requests by route and status, records, conflicts and attachment bytes, in Prometheus' format")
    func counts() async throws {
        try await TestServer().test { client in
            let token = try await client.register("ada")
            let id = UUID()
            _ = try await client.modify(token, [noteSave(id, title: "One")])
            _ = try await client.modify(token, [noteSave(id, title: "Stale", base: nil)])
            _ = try await client.changes(token)
            let content = Data("twelve bytes".utf8)
            _ = try await client.execute(uri: "/v1/assets/\(sha256Hex(content))", method: .put, headers: [.authorization: "Bearer \(token)"],
                                         body: ByteBuffer(bytes: content))
            _ = try await client.send(.get, "/v1/notes/\(UUID())", token: token)

            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: response.body)
            #expect(text.contains(#"notetaker_http_requests_total{method="POST",route="/v1/records/modify",status="200"} 2"#), "\(text)")
            #expect(text.contains(#"notetaker_http_requests_total{method="POST",route="/v1/accounts",status="201"} 1"#))
            #expect(text.contains(#"route="unmatched",status="404"} 1"#), "an unknown path counts once, under one label")
            #expect(text.contains("notetaker_records_saved_total 1"))
            #expect(text.contains("notetaker_record_conflicts_total 1"))
            #expect(text.contains("notetaker_records_sent_total 1"))
            #expect(text.contains(#"notetaker_asset_bytes_total{direction="in"} 12"#))
            #expect(text.contains("notetaker_http_request_duration_seconds_bucket"))
            #expect(text.contains("notetaker_push_streams 0"))
            // Storage operations: every one finished, each timed; none failed.
            #expect(text.contains("notetaker_storage_operations_in_flight 0"))
            #expect(text.contains("notetaker_storage_operation_duration_seconds_count"))
            #expect(text.contains("notetaker_storage_errors_total 0"))
        }
    }
}
