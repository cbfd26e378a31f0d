import Foundation

/// A TCP connection to a server under test that sends exactly the bytes a test gives it: for what a well-behaved
/// client never sends (oversized heads, bodies cut short, one byte at a time). Blocking reads, bounded by a
/// receive timeout only as a safety net against a hung test.
public final class RawHTTPConnection {
    private let fd: Int32

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: a class whose init throws once every property is set runs its deinit, which closes `fd`.
        // Closing it here too closed it twice, the second time whatever socket had taken its number meanwhile (a
        // server's connection in a test running beside this one: answered with nothing, and libmicrohttpd aborted
        // when its epoll set lost the descriptor).
        guard connected == 0 else { throw Failure("connect: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// One request on a new connection (`Connection: close`), and its response; the blocking reads run on a
    /// thread of their own, so that the server's responders keep Swift's pool.
    public static func request(port: Int, _ method: String, _ target: String, headers: [String: String] = [:],
                               body: String? = nil) async throws -> RawResponse {
        try await offPool { try requestBlocking(port: port, method, target, headers: headers, body: body) }
    }

    private static func requestBlocking(port: Int, _ method: String, _ target: String, headers: [String: String],
                                        body: String?) throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        connection.send(head + "\r\n" + (body ?? ""))
        return try connection.readResponseBlocking()
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Reads until the server closes the connection, on a thread of its own.
    public func readToEnd() async -> [UInt8] {
        let box = UncheckedBox(self)
        return (try? await offPool { box.value.readToEndBlocking() }) ?? []
    }

    /// Reads one response, on a thread of its own.
    public func readResponse() async throws -> RawResponse {
        let box = UncheckedBox(self)
        return try await offPool { try box.value.readResponseBlocking() }
    }

    /// Reads until the server closes the connection (or the safety timeout).
    func readToEndBlocking() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return all }
            all.append(contentsOf: buffer[..<n])
        }
    }

    /// Reads one response with a Content-Length body (the head up to its blank line, then the body).
    func readResponseBlocking() throws -> RawResponse {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let response = RawResponse(data), response.isComplete { return response }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                if let response = RawResponse(data) { return response }
                throw Failure("the connection closed after \(data.count) bytes, before a whole response")
            }
            data.append(contentsOf: buffer[..<n])
        }
    }
}

public struct RawResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var isComplete: Bool

    public init?(_ data: [UInt8]) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard data.count >= 4, let end = (0...(data.count - 4)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        self.status = status
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        body = Array(data[(end + 4)...])
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        isComplete = body.count >= length
        if body.count > length { body = Array(body[..<length]) }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs blocking work (socket reads) on a thread of its own and awaits it: a test that blocks one of Swift's pool
/// threads (two on a 2-core machine) can starve the very server it waits for.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
