import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NoteTakerKit
import Synchronization

/// The HTTP clients every sync transport of the process shares (AsyncHTTPClient, on SwiftNIO's
/// event loops): connections are kept and reused between requests and transports. One goes
/// direct; the others through the proxies the environment names (see ``ProxyEnvironment``).
///
/// Not URLSession: on Linux, its libcurl driver keeps watching a connection for "writable"
/// once a request is sent, and a connection is nearly always writable. A device waiting for
/// an answer, or watching the push channel, then kept a core busy: a device watching an
/// idle server used 80 % of a core, and one sending a first sync spent about a third of its
/// time in that loop.
enum SyncHTTPClient {
    /// The client for requests to `server`, trusting `trusted` besides the system's roots.
    /// The clients live as long as the process, so they are never shut down.
    static func client(for server: URL, trusting trusted: TrustedCertificates? = nil) -> HTTPClient {
        let proxy: HTTPClient.Configuration.Proxy?
        if environment.proxy(for: server) == nil {
            proxy = nil
        } else {
            proxy = server.scheme?.lowercased() == "https" ? environment.https : environment.http
        }
        guard let trusted else {
            if proxy == nil { return direct }
            return server.scheme?.lowercased() == "https" ? viaHTTPSProxy : viaHTTPProxy
        }
        let key = TrustingKey(certificates: trusted, https: server.scheme?.lowercased() == "https", proxied: proxy != nil)
        return trustingClients.withLock { clients in
            if let client = clients[key] { return client }
            let client = makeClient(proxy: proxy, trusting: trusted)
            clients[key] = client
            return client
        }
    }

    /// The clients made for accounts with certificates of their own (one or two per process).
    private struct TrustingKey: Hashable {
        let certificates: TrustedCertificates
        let https: Bool
        let proxied: Bool
    }
    private static let trustingClients = Mutex<[TrustingKey: HTTPClient]>([:])

    /// Why requests to `server` cannot be sent through the environment's proxy, if they cannot.
    static func proxyRefusal(for server: URL) -> String? {
        environment.refusal(for: server)
    }

    private static let environment = ProxyEnvironment(ProcessInfo.processInfo.environment)
    private static let direct = makeClient(proxy: nil)
    private static let viaHTTPSProxy = makeClient(proxy: environment.https)
    private static let viaHTTPProxy = makeClient(proxy: environment.http)

    /// A connection that takes longer than this to open, or a request or answer that stays
    /// silent for longer than `idleTimeout`, fails; the push channel's heartbeat comes every 15 s.
    static let connectTimeout: TimeAmount = .seconds(15)
    static let idleTimeout: TimeAmount = .seconds(60)
    /// The longest a request other than the push channel and a file may take in all.
    static let requestTimeout: TimeAmount = .minutes(10)

    /// A client with the sync settings, through `proxy` if any, trusting the system's roots, the
    /// file `SSL_CERT_FILE` names (as OpenSSL and curl do), and `trusted`.
    static func makeClient(proxy: HTTPClient.Configuration.Proxy?, trusting trusted: TrustedCertificates? = nil) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = ProcessInfo.processInfo.environment["SSL_CERT_FILE"], FileManager.default.isReadableFile(atPath: file) {
            tls.additionalTrustRoots.append(.file(file))
        }
        if let trusted { tls.additionalTrustRoots.append(.certificates(trusted.certificates)) }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            // Never followed: a redirect would carry the session token (and a batch of notes)
            // to wherever it points. An answer of 3xx is an error that names the new address.
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout, read: idleTimeout), proxy: proxy)
        // The sync API never compresses; an answer is read as it is, up to its limit.
        configuration.decompression = .disabled
        // A server that refuses connections (it is down) fails the request at once, as
        // offline; the engine and the watcher retry on their own schedule.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The error a failed request is: a certificate that is not trusted, or a server out of reach.
    static func failure(_ error: any Error) -> SyncError {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .untrustedCertificate("no authority this device trusts signed it")
        }
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return .untrustedCertificate("it is for another name than the server's address")
        }
        return .unreachable(reason(error))
    }

    /// Why a request failed, in words for ``SyncError/unreachable(_:)``.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .connectTimeout:
            "the connection timed out"
        case let error as HTTPClientError where error == .readTimeout || error == .deadlineExceeded:
            "the server did not answer in time"
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            "the server closed the connection"
        case let error as HTTPClientError where error == .cancelled:
            "the request was cancelled"
        case let error as NIOConnectionError:
            error.connectionErrors.first.map { reason($0.error) } ?? "no address was found for \(error.host)"
        case let error as IOError:
            words(errno: error.errnoCode)
        case let error as NIOSSLError:
            "its certificate could not be checked (\(error))"
        case let error as BoringSSLError:
            "its certificate was refused (\(error))"
        default:
            String(describing: error)
        }
    }

    /// What a failed connection's error number means, in words (SwiftNIO's own description
    /// reads "connection reset (error set): Connection refused (errno: 111)").
    static func words(errno code: CInt) -> String {
        switch code {
        case ECONNREFUSED: "nothing answered at its address: is the server running, and is the address right?"
        case ECONNRESET: "the connection was cut"
        case ETIMEDOUT: "the connection timed out"
        case EHOSTUNREACH, ENETUNREACH: "this machine has no way to it: is the network up?"
        case ENETDOWN: "the network is down"
        default: String(cString: strerror(code))
        }
    }
}
