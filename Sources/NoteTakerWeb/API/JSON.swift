import Foundation
import Hummingbird
import NoteTakerSyncProtocol

/// Reading and writing the API's JSON bodies, with limits and clear errors.
enum JSON {
    /// The largest JSON request body: a long note with room to spare.
    static let maximumRequestBytes = 8 << 20

    /// The API's encoder: ISO 8601 dates, sorted keys, explicit nulls where the wire type says so.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(APIDate.string(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Decodes a request body as `T`; a wrong, missing or oversized body is a 400 or 413 naming the problem.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(WebAPIError) -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumRequestBytes)
        } catch {
            throw WebAPIError(.contentTooLarge, "too_large", "The request body is over \(maximumRequestBytes >> 20) MB. Nothing was changed.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw .invalid("The request body is not valid JSON for this endpoint: \(error.readableDescription) Nothing was changed.")
        } catch {
            throw .invalid("The request body is not valid JSON. Nothing was changed.")
        }
    }

    /// A JSON response.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Dates as the API writes them: ISO 8601 in UTC with milliseconds (`2026-11-22T06:04:52.538Z`),
/// formatted by hand — Foundation's formatters cost more than the rest of a list page.
enum APIDate {
    static func string(_ date: Date) -> String {
        let milliseconds = ((date.timeIntervalSince1970 * 1_000_000).rounded() / 1000).rounded(.down)
        var seconds = time_t((milliseconds / 1000).rounded(.down))
        let fraction = Int(milliseconds - Double(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(fraction, width: 3))Z"
    }

    private static func pad(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
