import Foundation

extension XMLTreeReader {
    /// The encodings an XML declaration may name (compared without case); UTF-16 documents arrive here already
    /// turned into UTF-8.
    static let supportedEncodings: Set<String> = ["utf-8", "utf8", "utf-16", "us-ascii", "ascii", "iso-8859-1", "latin1",
                                                  "windows-1252"]

    /// The encoding named by the XML declaration at the start of `body` when it is not one of
    /// `supportedEncodings`, else `nil`.
    ///
    /// Why: libxml2 2.9 (Debian 12, under FoundationXML's `XMLParser`) dereferences NULL in
    /// `xmlSwitchToEncoding` when an ASCII document declares `encoding="UTF-32"` (found by `scripts/fuzz vast`),
    /// so one ad response could kill the process; ad servers send UTF-8, so the rest is refused before parsing.
    static func unsupportedEncoding(_ body: Data) -> String? {
        guard body.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = body.prefix(while: { $0 != UInt8(ascii: ">") }).prefix(256)
        let text = String(decoding: declaration, as: UTF8.self)
        guard let key = text.range(of: "encoding") else { return nil }
        var rest = text[key.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let name = rest.dropFirst().prefix(while: { $0 != quote })
        return supportedEncodings.contains(name.lowercased()) ? nil : String(name)
    }
}

extension XMLTreeReader {
    /// Why `body` would crash FoundationXML or libxml2 rather than be parsed, or `nil` when it is safe to parse.
    ///
    /// Found by `scripts/fuzz`: a NUL byte makes libxml2 guess UCS-4 from the first bytes (`00 00 00 3C`) and
    /// crash in `xmlParseChunk`; a processing instruction without data (`<?h?>`) makes FoundationXML call
    /// `strlen(NULL)`. No text encoding pipctl reads (UTF-16 arrives here as UTF-8) has a NUL byte, and a
    /// processing instruction carries nothing an ad response needs. A UTF-16 byte-order mark still here means the
    /// text after it was not UTF-16 (`normalised` converts what is), which also crashes `xmlParseChunk`.
    static func crashingConstruct(_ body: Data) -> String? {
        if body.contains(0) { return "a NUL byte (pipctl reads UTF-8, or UTF-16 with a byte-order mark)" }
        if body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE]) {
            return "a UTF-16 byte-order mark before text that is not UTF-16"
        }
        let bytes = [UInt8](body)
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") {
                var j = i + 2
                while j < bytes.count, !isXMLSpace(bytes[j]), bytes[j] != UInt8(ascii: "?") { j += 1 }
                while j < bytes.count, isXMLSpace(bytes[j]) { j += 1 }
                if j + 1 < bytes.count, bytes[j] == UInt8(ascii: "?"), bytes[j + 1] == UInt8(ascii: ">") {
                    return "a processing instruction without data"
                }
            }
            i += 1
        }
        return nil
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
