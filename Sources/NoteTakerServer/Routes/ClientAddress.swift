import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16); an IPv4 address mapped into IPv6
/// (`::ffff:192.0.2.1`) is read as the IPv4 address it carries.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// Parses an address written as text: dotted IPv4, or IPv6 with or without brackets.
    init?(_ text: some StringProtocol) {
        var trimmed = String(text)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { trimmed = String(trimmed.dropFirst().dropLast()) }
        guard trimmed.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, trimmed, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes = all.prefix(10).allSatisfy { $0 == 0 } && all[10] == 0xff && all[11] == 0xff ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether this is an IPv6 address (not one mapping IPv4).
    var isIPv6: Bool { bytes.count == 16 }

    /// The address with every bit past the first `bits` cleared.
    func masked(to bits: Int) -> IPAddress {
        IPAddress(bytes: bytes.enumerated().map { index, byte in
            let kept = min(max(bits - index * 8, 0), 8)
            return kept == 8 ? byte : byte & ~(UInt8(0xff) >> kept)
        })
    }

    /// The address as `inet_ntop` writes it.
    var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = copy.withUnsafeMutableBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses (`10.0.0.0/8`, `2001:db8::/32`, or one address): what
/// `--trusted-proxy` takes.
public struct AddressBlock: Hashable, Sendable {
    let network: IPAddress
    let bits: Int

    /// Parses `ADDRESS[/BITS]`; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.bytes.count * 8
        var bits = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given) else { return nil }
            bits = given
        }
        self.network = address.masked(to: bits)
        self.bits = bits
    }

    /// Whether `address` is inside the block.
    func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && address.masked(to: bits) == network
    }
}

/// Who a request comes from, for throttling: the connection's peer, or — when the peer is a
/// trusted reverse proxy — the address that proxy says it forwarded for.
///
/// The rule: the hops are the addresses in `Forwarded` (`for=`), else in `X-Forwarded-For`,
/// followed by the peer. From the right, each hop that is a trusted proxy hands over to the
/// one before it; the first hop that is not trusted is the client (a client cannot forge its
/// way past a proxy, which appends the address it saw). Headers from an untrusted peer are
/// never read. An IPv6 client is counted by its /64, the block one network is given, so
/// rotating through one network's addresses earns no more guesses.
struct ClientAddressRule: Sendable {
    /// The proxies whose forwarding headers are believed.
    let trustedProxies: [AddressBlock]

    /// Believes no header: every client is its connection's peer.
    static let direct = ClientAddressRule(trustedProxies: [])

    /// The client's address (an IPv6 one as its /64) as text; `unknown` without a peer.
    func client(peer: String?, forwarded: [String], forwardedFor: [String]) -> String {
        guard let peerText = peer, let peerAddress = IPAddress(peerText) else { return peer ?? "unknown" }
        var client = peerAddress
        if isTrusted(peerAddress) {
            let hops = forwarded.isEmpty ? Self.forwardedForHops(forwardedFor) : Self.forwardedHops(forwarded)
            for hop in hops.reversed() {
                guard let address = hop else { break }
                client = address
                if !isTrusted(address) { break }
            }
        }
        return client.isIPv6 ? "\(client.masked(to: 64))/64" : client.description
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// Whether the address written as `text` is a trusted proxy's.
    func isTrusted(_ text: String) -> Bool {
        IPAddress(text).map(isTrusted) ?? false
    }

    /// `X-Forwarded-For: client, proxy1, proxy2` (each header's list, in order).
    static func forwardedForHops(_ headers: [String]) -> [IPAddress?] {
        headers.flatMap { $0.split(separator: ",") }.map { IPAddress($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// RFC 7239's `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`; a hop
    /// without a readable address (`for=unknown`, an obfuscated name) is `nil`.
    static func forwardedHops(_ headers: [String]) -> [IPAddress?] {
        headers.flatMap { $0.split(separator: ",") }.map { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
                var value = parts[1].trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
                    return IPAddress(value[value.index(after: value.startIndex)..<close])
                }
                return IPAddress(value.split(separator: ":", maxSplits: 1).first ?? "")
            }
            return nil
        }
    }
}
