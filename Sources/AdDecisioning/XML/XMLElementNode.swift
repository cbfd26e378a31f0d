import Foundation

/// One element of a parsed ad response, reduced to what decisioning reads: its local name, attributes, child
/// elements and text.
///
/// Names are matched by local name (prefix and namespace dropped) and case-insensitively, because real responses
/// write `vmap:AdBreak`, `AdBreak` and `Inline` for `InLine` alike.
///
/// A class so that its release can be iterative (`deinit`): freed the ordinary way, each node releases its
/// children from inside its own release, one stack frame per level, and a deep enough tree overflows the stack.
/// `XMLTreeReader` already refuses trees deeper than 256 levels; this keeps the release flat whatever the depth.
/// Only `XMLTreeReader`'s builder mutates a node, before `read` returns it; the parsers only read.
final class XMLElementNode {
    /// The local name as written (`AdBreak` for `vmap:AdBreak`).
    var name: String
    /// The local name in lower case, for matching.
    var key: String
    /// Attributes by lower-cased local name, in document order; the first of two equal names wins.
    var attributes: [(key: String, value: String)]
    var children: [XMLElementNode]
    /// Character data and CDATA of the element itself (not of its children), as written.
    var text: String
    /// The line of the start tag, 1-based.
    var line: Int

    init(name: String, key: String, attributes: [(key: String, value: String)], line: Int) {
        self.name = name
        self.key = key
        self.attributes = attributes
        self.children = []
        self.text = ""
        self.line = line
    }

    deinit {
        // Take the descendants apart on an explicit stack: a node is emptied before its last reference goes, so
        // its own deinit has nothing left to release. A node still referenced elsewhere is left whole.
        var pending = children
        children = []
        while var node = pending.popLast() {
            guard isKnownUniquelyReferenced(&node) else { continue }
            pending.append(contentsOf: node.children)
            node.children = []
        }
    }

    // Lookups take the lower-cased local name (`"inline"`, `"skipoffset"`), written so at the call site: reading
    // a large document calls them millions of times.

    /// The value of the attribute with this lower-cased local name.
    func attribute(_ key: String) -> String? {
        attributes.first { $0.key == key }?.value
    }

    /// The first child element with this lower-cased local name.
    func child(_ key: String) -> XMLElementNode? {
        children.first { $0.key == key }
    }

    /// Every child element with this lower-cased local name, in document order.
    func children(_ key: String) -> [XMLElementNode] {
        children.filter { $0.key == key }
    }

    /// The text with surrounding white space removed; `nil` when nothing is left.
    var trimmedText: String? {
        // Most text has no surrounding space: check the ends' bytes before doing the full Unicode trim.
        guard let first = text.utf8.first, let last = text.utf8.last else { return nil }
        if first < 0x80, last < 0x80, !XMLElementNode.isSpace(first), !XMLElementNode.isSpace(last) { return text }
        let t = text.trimmingSpaces
        return t.isEmpty ? nil : t
    }

    /// The text as a URL: every white-space character removed (real responses break URLs over lines, inside
    /// CDATA or not); `nil` when nothing is left.
    var urlText: String? {
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 < 0x80 && !XMLElementNode.isSpace($0) }) { return text }
        let t = String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
        return t.isEmpty ? nil : t
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
}

extension StringProtocol {
    /// The string without leading and trailing white space and line breaks.
    package var trimmingSpaces: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
