import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Random bytes from the operating system's generator, the one swift-crypto and the standard
/// library draw from: on Linux read from `/dev/urandom` (the kernel's generator, as
/// `getrandom(2)`; it never blocks once the kernel's pool is ready at boot) in one go, where
/// `SymmetricKey(size:)` asks the standard library's generator for 8 bytes at a time, a system
/// call each. Elsewhere, or if the device cannot be read, through `SymmetricKey(size:)`.
enum SystemRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> Data {
        guard count > 0 else { return Data() }
        #if canImport(Glibc)
        if let bytes = urandom(count) { return bytes }
        #endif
        return SymmetricKey(size: SymmetricKeySize(bitCount: 8 * count)).withUnsafeBytes { Data($0) }
    }

    #if canImport(Glibc)
    private static func urandom(_ count: Int) -> Data? {
        let file = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var bytes = Data(count: count)
        let filled = bytes.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var done = 0
            while done < count {
                // A large read may be cut short (by a signal): it goes on from there.
                let got = read(file, base + done, count - done)
                if got > 0 {
                    done += got
                } else if got == 0 || errno != EINTR {
                    return false
                }
            }
            return true
        }
        return filled ? bytes : nil
    }
    #endif
}
