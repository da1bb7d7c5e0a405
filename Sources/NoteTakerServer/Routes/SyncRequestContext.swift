import Hummingbird
import NIOCore

/// The context of a sync API request: Hummingbird's, and the address it came from (login
/// throttling is per address as well as per name).
public struct SyncRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's request state.
    public var coreContext: CoreRequestContextStorage
    /// The peer's address, when the connection has one.
    public let remoteAddress: SocketAddress?
    /// The account the request is logged in as, once a route has checked its token.
    public let account = RequestAccount()

    /// Creates the context for a request on a channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
