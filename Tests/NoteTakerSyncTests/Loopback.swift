import Foundation
import Glibc

/// Plain sockets on loopback for the tests' own small servers (a proxy, a redirecting server).
enum Loopback {
    /// A socket listening on a free loopback port: its descriptor and the port.
    static func listen() throws -> (Int32, Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && Glibc.listen(listener, 4) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "cannot listen on a loopback port"]) }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts one connection, whose reads then give up after 30 s; `nil` when none comes.
    static func acceptOne(_ listener: Int32) -> Int32? {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return nil }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return connection
    }

    /// Reads up to the end of a request's head, a byte at a time (nothing of the body).
    static func readHead(_ connection: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !bytes.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)), recv(connection, &byte, 1, 0) == 1 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Sends `text`.
    static func write(_ connection: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
    }
}
