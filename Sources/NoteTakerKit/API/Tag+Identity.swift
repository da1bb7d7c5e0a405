import Crypto
import Foundation

extension Tag {
    /// The id every device derives for a tag name: a name-based UUID (version 5 layout)
    /// from the SHA-256 of the normalized name, so `Work` made on two devices is one tag.
    /// A store of an end-to-end encrypted account keys it instead (``DerivedIdentity``).
    public static func id(forName name: String) -> UUID {
        UUID.nameBased(Array(SHA256.hash(data: Data(("notetaker.tag:" + normalizedName(name)).utf8))), version: 0x50)
    }
}
