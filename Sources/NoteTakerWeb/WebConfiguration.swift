import Foundation
import Hummingbird
import NoteTakerHTTP
import NoteTakerKit

/// Where and how `notetaker serve` listens, and the key every request must carry.
public struct WebConfiguration: Sendable {
    /// The key that lets a request in.
    public var key: LocalAccessKey
    /// Where the key is kept (shown on the page that asks for it); `nil` when nowhere.
    public var keyFile: String?
    /// The port; 0 picks a free one (reported to `onServerRunning`).
    public var port: Int
    /// The address to listen on: loopback unless TLS is configured.
    public var host: String
    /// The certificate and key to answer over HTTPS with; required for any host but loopback.
    public var tls: TLSFiles?
    /// A Unix socket to answer on as well, the owner's alone, where no key is asked for
    /// (`serve --socket`; see `LocalSocket`).
    public var socketPath: String?

    /// The default port of `notetaker serve`.
    public static let defaultPort = 8080

    /// Creates a configuration, by default plain HTTP on 127.0.0.1.
    public init(
        key: LocalAccessKey, keyFile: String? = nil, port: Int = WebConfiguration.defaultPort,
        host: String = "127.0.0.1", tls: TLSFiles? = nil
    ) {
        self.key = key
        self.keyFile = keyFile
        self.port = port
        self.host = host
        self.tls = tls
    }

    /// `http` or `https`.
    public var scheme: String { tls == nil ? "http" : "https" }

    /// Whether the app listens on this machine's loopback interface only.
    public var isLoopbackOnly: Bool { Self.isLoopback(host) }

    /// Whether the app accepts every `Host` name (it listens on every interface).
    var listensEverywhere: Bool { ["0.0.0.0", "::", "[::]"].contains(host) }

    /// Whether `name` (an address or `localhost`) is this machine's loopback interface.
    static func isLoopback(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered == "[::1]" || lowered.hasPrefix("127.")
    }

    var address: BindAddress {
        .hostname(host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host, port: port)
    }

    /// Refuses what would expose the notes: any host but loopback without TLS.
    func validate() throws(WebConfigurationError) {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        if !isLoopbackOnly && tls == nil { throw .exposedWithoutTLS(host) }
    }
}

/// Why the web app cannot start as configured.
public enum WebConfigurationError: Error, Sendable, Equatable {
    /// A port outside 0–65535.
    case invalidPort(Int)
    /// The port is taken by another program.
    case portInUse(Int)
    /// A host other than loopback without a certificate: every note would cross the network
    /// in the clear.
    case exposedWithoutTLS(String)
    /// The certificate or its key (the file at `path`) could not be used, for the reason given.
    case unusableTLS(path: String, reason: String)
    /// The Unix socket cannot be made at this path, for the reason given.
    case unusableSocket(String, String)

}

extension WebConfigurationError: WordedError {
    /// What went wrong, to be worded in the reader's language (``Catalog/errors``).
    public var wording: Wording {
        switch self {
        case .invalidPort(let port): Wording("webInvalidPort", ["port": String(port)])
        case .portInUse(let port): Wording("webPortInUse", ["port": String(port)])
        case .exposedWithoutTLS(let host): Wording("webExposedWithoutTLS", ["host": host])
        case .unusableTLS(let path, let reason): Wording("webUnusableTLS", ["path": path, "reason": reason])
        case .unusableSocket(let path, let reason): Wording("webUnusableSocket", ["path": path, "reason": reason])
        }
    }
}
