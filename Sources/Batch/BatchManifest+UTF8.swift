import Foundation

extension BatchManifest {
    /// The error of a line that is not valid UTF-8, naming the JSON path of the string that holds the first bad
    /// byte (`options.font: not valid UTF-8 (byte 0xFF at byte 57 of the line)`); nil for a valid line.
    ///
    /// JSON text is UTF-8 (RFC 8259), and Foundation's decoder reports a bad string as a value of another type,
    /// so the bytes are checked first, and the line's structure is scanned up to the bad byte for its path.
    static func utf8Problem(_ line: Data, number: Int) -> BatchLineError? {
        guard let offset = firstInvalidUTF8(line) else { return nil }
        let where_ = "byte 0x" + String(line[line.startIndex + offset], radix: 16, uppercase: true) + " at byte \(offset + 1) of the line"
        guard let (path, isKey) = jsonPath(line, at: offset) else {
            return BatchLineError(line: number, message: "not valid UTF-8 (\(where_))")
        }
        return BatchLineError(line: number, path: path.isEmpty ? nil : path,
                              message: (isKey ? "a field name is " : "") + "not valid UTF-8 (\(where_))")
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ bytes: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// The JSON path (`options.cue-points[1]`) of the string that holds byte `offset`, and whether that string is a
    /// field name; nil when the byte is outside any string.
    static func jsonPath(_ bytes: Data, at offset: Int) -> (String, Bool)? {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        var stack: [Frame] = []
        var string: [UInt8]?
        var stringIsKey = false
        var escaped = false
        func path() -> String {
            stack.map { frame in
                switch frame {
                case .object(let key?, false): "." + key
                case .object: ""
                case .array(let index): "[\(index)]"
                }
            }.joined().drop { $0 == "." }.description
        }
        for (index, byte) in bytes.enumerated() {
            if index == offset { return string == nil ? nil : (path(), stringIsKey) }
            if string != nil {
                if escaped { escaped = false; string!.append(byte); continue }
                switch byte {
                case UInt8(ascii: "\\"): escaped = true
                case UInt8(ascii: "\""):
                    if stringIsKey, case .object = stack.last {
                        stack[stack.count - 1] = .object(key: String(decoding: string!, as: UTF8.self), expectingKey: false)
                    }
                    string = nil
                default: string!.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "{"): stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["): stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .object?: stack[stack.count - 1] = .object(key: nil, expectingKey: true)
                case .array(let i)?: stack[stack.count - 1] = .array(index: i + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                string = []
                if case .object(_, true) = stack.last { stringIsKey = true } else { stringIsKey = false }
            default: break
            }
        }
        return nil
    }
}
