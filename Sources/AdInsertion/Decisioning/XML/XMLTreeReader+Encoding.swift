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
