import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive whole in time, so that a client
/// trickling bytes (which an idle timeout never notices) cannot hold one of the server's
/// files for long, however many connections it opens.
///
/// - The head must arrive within `limit` of the connection opening or of the previous
///   answer's end. It is passed on only once its last header line is in.
/// - The body must then keep coming: it has `limit`, plus a second for every
///   `minimumBodyRate` bytes received so far. A client sending at that rate or faster never
///   meets the deadline, whatever the body's size; one that stalls meets it `limit` after it
///   last kept pace. (The rule counts what arrived, not what the head declared: a declared
///   250 MB earns nothing until it is sent.)
/// - An answer still being written (a push stream) is never cut: the clock starts when it ends.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private let minimumBodyRate: Int
    /// When the connection is closed unless the deadline moves first.
    private var deadline: NIODeadline?
    private var timer: Scheduled<Void>?
    private var bodyStart = NIODeadline.now()
    private var received = 0

    init(limit: TimeAmount, minimumBodyRate: Int) {
        self.limit = limit
        self.minimumBodyRate = max(1, minimumBodyRate)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, at: .now() + limit) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, at: .now() + limit)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyStart = .now()
            received = 0
            arm(context, at: bodyStart + limit)
        case .body(let buffer):
            received += buffer.readableBytes
            deadline = bodyStart + limit + .seconds(Int64(min(received / minimumBodyRate, 1 << 32)))
        case .end:
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(context, at: .now() + limit) }
        context.write(data, promise: promise)
    }

    /// Sets the deadline and a timer for it; the timer, when the deadline has moved on
    /// meanwhile, waits for the new one instead of closing.
    private func arm(_ context: ChannelHandlerContext, at moment: NIODeadline) {
        timer?.cancel()
        deadline = moment
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: moment) { [weak self] in
            guard let self, let deadline = self.deadline else { return }
            if deadline <= .now() {
                context.close(promise: nil)
            } else {
                self.arm(context, at: deadline)
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }
}
