/// A request's path as the router sees it, so that every guard decides on the same path the
/// router will answer.
///
/// Hummingbird's router splits the raw path on `/`, skips empty segments, and compares the
/// rest byte for byte: `//api/v1/notes` and `/api//v1/notes/` reach the same route as
/// `/api/v1/notes`, while `/API/v1/notes`, `/%61pi/v1/notes` and `/api/v1/../v1/notes` reach
/// none (the files middleware answers those, and finds no such file). A guard that tested the
/// raw text would let the first kind past it; this type is the one place that folds a path.
struct RoutedPath: Equatable, CustomStringConvertible {
    /// The segments the router matches, in order.
    let segments: [Substring]

    /// Folds a raw request path (without its query) as the router does.
    init(_ raw: String) {
        segments = raw.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Whether the router sends this path to the JSON API (`/api/…`).
    var isAPI: Bool { segments.first == "api" }

    /// The path written canonically: `/` and the segments joined by single slashes.
    var description: String { "/" + segments.joined(separator: "/") }
}
