import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an ad response into a tree of `XMLElementNode`s with Foundation's `XMLParser`, safely and leniently.
///
/// Safety: documents over the size limit are refused unread; a DTD that declares entities (entity expansion,
/// external entities) is refused before parsing; external entities are never resolved. Leniency: a UTF-8 or
/// UTF-16 byte-order mark and white space before the XML declaration are dropped (line numbers still count
/// from the real first line); comments and processing instructions before the root are fine; undeclared
/// namespace prefixes are tolerated, since only local names are read.
///
/// Limits: at most `maximumDepth` (256) levels of nesting and `maximumElements` (1 000 000) elements, both counted
/// while parsing (skipped subtrees included) and refused with VAST 100 the moment they are passed. Real responses
/// nest about a dozen levels deep; the element limit leaves room for a VMAP of `AdsLoaderSettings.maximumBreaks`
/// (10 000) breaks with their VAST embedded (about 160 000 elements) while bounding what a 16 MiB document of
/// empty elements (four million) could cost. Neither parsing nor release recurses per level
/// (`XMLElementNode.deinit` is iterative), so a hostile 60 000-deep document is refused, never a crash.
///
/// Subtrees that decisioning never reads (`Extensions`, `AdVerifications`, `Icons`, …) are skipped while parsing,
/// so the tree stays close to the size of what is used.
struct XMLTreeReader {
    /// Elements whose content is never read; not kept in the tree.
    static let skippedElements: Set<String> = [
        "extensions", "creativeextensions", "adverifications", "icons", "viewableimpression", "pricing",
        "survey", "category", "closedcaptionfiles", "blockedadcategories",
    ]

    /// The deepest nesting accepted: the root is at depth 1.
    static let maximumDepth = 256
    /// The most elements accepted in one document, skipped ones included.
    static let maximumElements = 1_000_000

    var maximumBytes: Int
    var maximumDepth = XMLTreeReader.maximumDepth
    var maximumElements = XMLTreeReader.maximumElements

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Parses `data` and returns its root element.
    ///
    /// - Parameter source: the file or URL, for messages.
    /// - Throws: `.documentTooLarge`, `.forbiddenEntities`, `.xmlLimitExceeded`, `.malformedXML` (with the line where parsing stopped;
    ///   an empty document is malformed at line 1).
    func read(_ data: Data, source: String) throws(DecisioningError) -> XMLElementNode {
        guard data.count <= maximumBytes else {
            throw .documentTooLarge(source: source, bytes: data.count, limit: maximumBytes)
        }
        let (body, skippedLines) = XMLTreeReader.normalised(data)
        if XMLTreeReader.declaresEntities(body) { throw .forbiddenEntities(source: source) }
        if let construct = XMLTreeReader.crashingConstruct(body) {
            throw .malformedXML(source: source, line: 1 + skippedLines, reason: "refused: \(construct)")
        }
        if let encoding = XMLTreeReader.unsupportedEncoding(body) {
            throw .malformedXML(source: source, line: 1 + skippedLines, reason: "unsupported encoding '\(encoding)' (pipctl reads UTF-8, UTF-16, US-ASCII, ISO-8859-1, windows-1252)")
        }

        // A stream, not `XMLParser(data:)`: given all bytes at once, libxml2 refuses documents over 10 MB
        // ("huge input lookup"); fed in chunks it does not.
        let parser = XMLParser(stream: InputStream(data: body))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = TreeBuilder(lineOffset: skippedLines, maximumDepth: maximumDepth, maximumElements: maximumElements)
        parser.delegate = builder
        let finished = parser.parse()

        if builder.refusedEntity { throw .forbiddenEntities(source: source) }
        if let exceeded = builder.exceeded {
            throw .xmlLimitExceeded(source: source, limit: exceeded.limit, line: exceeded.line)
        }
        if let failure = builder.failure {
            throw .malformedXML(source: source, line: failure.line, reason: XMLTreeReader.reason(for: failure.code))
        }
        guard let root = builder.root else {
            if !finished, let error = parser.parserError as NSError? {
                throw .malformedXML(source: source, line: max(1, parser.lineNumber + skippedLines),
                                    reason: XMLTreeReader.reason(for: error.code))
            }
            throw .malformedXML(source: source, line: 1 + skippedLines, reason: "the document has no root element")
        }
        return root
    }

    /// The bytes to parse: UTF-16 turned into UTF-8 (without its XML declaration, which would name the old
    /// encoding), then a UTF-8 byte-order mark and leading white space removed. Also returns how many line
    /// breaks were removed, so that line numbers match the original.
    static func normalised(_ data: Data) -> (Data, Int) {
        var bytes = data
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]),
           let text = String(data: bytes, encoding: .utf16) {
            var s = Substring(text)
            if s.hasPrefix("\u{FEFF}") { s = s.dropFirst() }
            if s.hasPrefix("<?xml"), let end = s.range(of: "?>") { s = s[end.upperBound...] }
            bytes = Data(s.utf8)
        }
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        var lines = 0
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
            if bytes[start] == 0x0A { lines += 1 }
            start += 1
        }
        return (start == bytes.startIndex ? bytes : Data(bytes[start...]), lines)
    }

    /// True when the prolog has a `<!DOCTYPE` and the document declares an entity anywhere.
    ///
    /// Entities can only be declared inside a DTD, and the external DTD is never loaded, so "a DOCTYPE in the
    /// prolog and `<!ENTITY` somewhere" catches every declaration. Foundation on Linux does not call the entity
    /// declaration delegate methods, so this check is the one that counts.
    static func declaresEntities(_ data: Data) -> Bool {
        guard let doctype = prologDoctype(data) else { return false }
        return data[doctype...].range(of: Data("<!ENTITY".utf8)) != nil
    }

    /// Where `<!DOCTYPE` starts in the prolog (before the root element), if there is one.
    static func prologDoctype(_ data: Data) -> Data.Index? {
        var i = data.startIndex
        func at(_ s: String) -> Bool { data[i...].starts(with: Array(s.utf8)) }
        func skip(past terminator: String) -> Bool {
            guard let r = data[i...].range(of: Data(terminator.utf8)) else { return false }
            i = r.upperBound
            return true
        }
        while i < data.endIndex {
            let b = data[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1; continue }
            if at("<?") { guard skip(past: "?>") else { return nil }; continue }
            if at("<!--") { guard skip(past: "-->") else { return nil }; continue }
            if at("<!DOCTYPE") || at("<!doctype") { return i }
            return nil
        }
        return nil
    }

    /// Words for the libxml2 error numbers that real responses produce (`xmlParserErrors`).
    static func reason(for code: Int) -> String {
        switch code {
        case 3: "content before the root element"
        case 4: "no XML element found (the document is empty or not XML)"
        case 5: "extra content after the root element"
        case 9: "invalid character"
        case 22, 23, 68: "'&' not followed by an entity name and ';' (write &amp;)"
        case 26: "undeclared entity"
        case 31, 32, 79, 81: "unsupported or invalid encoding"
        case 38: "'<' inside an attribute value"
        case 39, 40: "attribute value not quoted or not closed"
        case 41: "attribute without a value"
        case 42: "attribute written twice"
        case 45: "comment not closed"
        case 63: "CDATA section not closed"
        case 64: "XML declaration not at the start of the document"
        case 73: "'>' expected"
        case 76: "closing tag does not match the open element"
        case 77: "element not closed at the end of the document"
        case 111: "parsing stopped"
        default: "XML error \(code)"
        }
    }

    /// libxml2 diagnostics that do not stop parsing and that a lenient reader ignores: namespace problems (only
    /// local names are read) and warnings.
    static func isFatal(_ code: Int) -> Bool {
        !((200..<300).contains(code) || [27, 93, 96, 97, 98, 99, 100, 101, 102, 106, 107].contains(code))
    }
}

/// The `XMLParser` delegate that builds the tree. Lives only inside one `read` call.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let lineOffset: Int
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    /// Depth inside a skipped subtree; 0 outside.
    var skipDepth = 0
    var failure: (code: Int, line: Int)?
    var refusedEntity = false
    let maximumDepth: Int
    let maximumElements: Int
    /// Open elements, skipped ones included.
    var depth = 0
    /// Elements started so far, skipped ones included.
    var elementCount = 0
    /// The limit passed and the line where it was, once parsing has been stopped for it.
    var exceeded: (limit: XMLLimit, line: Int)?

    init(lineOffset: Int, maximumDepth: Int, maximumElements: Int) {
        self.lineOffset = lineOffset
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
    }

    /// Local and lower-cased names by qualified name: names repeat, lower-casing each one again is slow.
    private var names: [String: (name: String, key: String)] = [:]

    func names(of qualified: String) -> (name: String, key: String) {
        if let known = names[qualified] { return known }
        var local = qualified
        if let colon = qualified.lastIndex(of: ":") { local = String(qualified[qualified.index(after: colon)...]) }
        let entry = (local, local.lowercased())
        names[qualified] = entry
        return entry
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard exceeded == nil else { return }
        depth += 1
        elementCount += 1
        if depth > maximumDepth || elementCount > maximumElements {
            let limit: XMLLimit = depth > maximumDepth ? .depth(maximumDepth) : .elements(maximumElements)
            exceeded = (limit, max(1, parser.lineNumber + lineOffset))
            parser.abortParsing()
            return
        }
        if skipDepth > 0 { skipDepth += 1; return }
        let (name, key) = names(of: elementName)
        if !stack.isEmpty && XMLTreeReader.skippedElements.contains(key) {
            skipDepth = 1
            return
        }
        var attributes: [(key: String, value: String)] = []
        if !attributeDict.isEmpty {
            attributes.reserveCapacity(attributeDict.count)
            // Dictionary order is random; sort for a reproducible "first of two equal local names wins".
            let pairs = attributeDict.count == 1 ? Array(attributeDict) : attributeDict.sorted { $0.key < $1.key }
            for (k, v) in pairs where !k.hasPrefix("xmlns") {
                let attributeKey = names(of: k).key
                if !attributes.contains(where: { $0.key == attributeKey }) { attributes.append((attributeKey, v)) }
            }
        }
        stack.append(XMLElementNode(name: name, key: key, attributes: attributes, line: parser.lineNumber + lineOffset))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard exceeded == nil else { return }
        depth -= 1
        if skipDepth > 0 { skipDepth -= 1; return }
        guard let node = stack.popLast() else { return }
        if !node.text.isEmpty, node.text.utf8.allSatisfy(XMLElementNode.isSpace) { node.text = "" }
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard skipDepth == 0, !stack.isEmpty else { return }
        // Indentation between elements would only be thrown away at the end tag; leading white space of any text
        // is trimmed by every reader, so it need not be kept either.
        if stack[stack.count - 1].text.isEmpty, string.utf8.allSatisfy(XMLElementNode.isSpace) { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard skipDepth == 0, !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let code = (parseError as NSError).code
        guard failure == nil, exceeded == nil, XMLTreeReader.isFatal(code) else { return }
        failure = (code, max(1, parser.lineNumber + lineOffset))
        parser.abortParsing()
    }

    // Second line of defence; the prolog check in `XMLTreeReader.declaresEntities` is what runs on Linux.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refusedEntity = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
                systemID: String?) {
        refusedEntity = true
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
                systemID: String?, notationName: String?) {
        refusedEntity = true
        parser.abortParsing()
    }
}
