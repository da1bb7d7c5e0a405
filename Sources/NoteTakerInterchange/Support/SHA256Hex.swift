import Crypto
import Foundation

/// Hex SHA-256 of some bytes.
func sha256Hex(_ data: some DataProtocol) -> String {
    SHA256.hash(data: data).lowercaseHex
}
