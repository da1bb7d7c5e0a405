import Foundation
import Hummingbird
import NoteTakerKit
import NoteTakerSyncProtocol

/// Reading and writing the API's JSON bodies, with limits and clear errors.
enum JSON {
    /// The largest JSON request body: a long note with room to spare.
    static let maximumRequestBytes = 8 << 20

    /// The API's encoder: ISO 8601 dates, sorted keys, explicit nulls where the wire type says so.
    static let encoder = makeEncoder()

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

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
    /// `value` as a JSON response; what it words (an import's reasons) in `language`.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, language: Language = .english) throws -> Response {
        let data: Data
        if language == .english {
            data = try encoder.encode(value)
        } else {
            let worded = makeEncoder()
            worded.userInfo[Language.codingKey] = language
            data = try worded.encode(value)
        }
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
