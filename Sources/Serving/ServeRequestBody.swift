import Foundation
import MediaCore

/// `POST /v1/sessions`'s body: `{"content": "PATH under the origin", "params": {"NAME": "VALUE", …}, "mode": "stitched"
/// or "guided"}` (`mode` is optional, `stitched` by default). Read
/// bounded: the HTTP layer caps its size, and its nesting is checked (at most `maximumDepth`) before it is parsed.
struct SessionRequestBody {
    static let maximumDepth = 4

    var content: [String]
    var parameters: [String: String]
    var mode: ServeMode = .stitched

    init(_ body: [UInt8]) throws(SessionRequestError) {
        guard !body.isEmpty else { throw SessionRequestError("the body is empty: send {\"content\": \"PATH\"}") }
        guard Self.depth(body) <= Self.maximumDepth else { throw SessionRequestError("the body nests deeper than \(Self.maximumDepth) levels") }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(body)) } catch {
            throw SessionRequestError("the body is not JSON")
        }
        guard let object = parsed as? [String: Any] else { throw SessionRequestError("$: not an object") }
        for key in object.keys where !["content", "params", "mode"].contains(key) {
            throw SessionRequestError("$.\(key.excerpt): not a field (content, params, mode)")
        }
        if let mode = object["mode"] {
            guard let text = mode as? String else { throw SessionRequestError("$.mode: not a string") }
            switch ServeMode.parsed(text, at: "$.mode") {
            case .success(let parsed): self.mode = parsed
            case .failure(let error): throw error
            }
        }
        guard let path = object["content"] else { throw SessionRequestError("$.content: is missing") }
        guard let text = path as? String else { throw SessionRequestError("$.content: not a string") }
        let components = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else { throw SessionRequestError("$.content: is empty") }
        content = components
        var pairs: [(name: String, value: String)] = []
        if let params = object["params"] {
            guard let dictionary = params as? [String: Any] else { throw SessionRequestError("$.params: not an object") }
            for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                guard let text = value as? String else { throw SessionRequestError("$.params.\(name.excerpt): not a string") }
                pairs.append((name, text))
            }
        }
        switch SessionParameters.validated(pairs, where: "$.params") {
        case .success(let parameters): self.parameters = parameters
        case .failure(let error): throw error
        }
    }

    /// The deepest nesting of arrays and objects, strings skipped, in one pass.
    static func depth(_ body: [UInt8]) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in body {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
