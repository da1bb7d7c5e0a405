import NIOCore
import Synchronization

/// How many connections each client address holds at once, so that no one address can take
/// the server's files (its open-file limit) from everyone else: the connection over the limit
/// is closed as it opens. Trusted proxies, which carry many people's connections, are not
/// limited; an IPv6 address counts with the rest of its /64.
final class ConnectionCounts: Sendable {
    /// The most connections one address may hold.
    let limit: Int
    private let exempt: ClientAddressRule
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int, trustedProxies: [AddressBlock]) {
        self.limit = limit
        self.exempt = ClientAddressRule(trustedProxies: trustedProxies)
    }

    /// What becomes of a new connection.
    enum Admission: Equatable {
        /// It may stay; `key` (when it was counted) releases it.
        case admitted(key: String?)
        /// Its address holds its limit already: it must close.
        case refused
    }

    /// Counts a new connection from `peer` (a proxy's and one without an address uncounted).
    func admit(_ peer: SocketAddress?) -> Admission {
        guard let text = peer?.ipAddress, !exempt.isTrusted(text) else { return .admitted(key: nil) }
        let key = ClientAddressRule.direct.client(peer: text, forwarded: [], forwardedFor: [])
        return counts.withLock { counts in
            let held = counts[key, default: 0]
            guard held < limit else { return .refused }
            counts[key] = held + 1
            return .admitted(key: key)
        }
    }

    /// Forgets a connection that `admit` counted.
    func release(_ key: String) {
        counts.withLock { counts in
            let held = counts[key, default: 1] - 1
            counts[key] = held > 0 ? held : nil
        }
    }

    /// Connections held by each address (for tests).
    var held: [String: Int] { counts.withLock { $0 } }
}

/// The per-connection side of ``ConnectionCounts``: counts the connection when it opens and
/// closes it at once when its address holds too many.
final class ConnectionLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let counts: ConnectionCounts
    private var key: String?
    private var counted = false

    init(counts: ConnectionCounts) {
        self.counts = counts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func count(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        switch counts.admit(context.channel.remoteAddress) {
        case .refused: context.close(promise: nil)
        case .admitted(let admitted): key = admitted
        }
    }

    private func release() {
        if let key { counts.release(key) }
        key = nil
    }
}
