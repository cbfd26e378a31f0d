import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests: each test starts its own on a free port, registers routes and
/// reads back the requests it received. One thread accepts; each connection is served on its own thread, so a
/// slow route does not hold up the others.
///
/// Besides plain answers it misbehaves on request, as real servers do: it hangs, drips the body, closes in the
/// middle of it, redirects, answers byte ranges (`Range: bytes=N-`) and conditional requests (`If-None-Match`).
public final class LoopbackHTTPServer: Sendable {
    public struct Response: Sendable {
        /// How the answer is delivered.
        public enum Delivery: Sendable, Hashable {
            /// All at once.
            case normal
            /// Never answers; the connection stays open until the server stops.
            case hang
            /// The headers at once (without a length: the body ends when the connection closes), then the body
            /// `chunk` bytes at a time, one chunk per `interval`.
            case drip(chunk: Int, interval: Duration)
            /// Announces the whole body, sends its first `bytes` bytes and closes the connection.
            case closeAfter(bytes: Int)
        }

        public var status: Int = 200
        public var contentType: String = "application/xml"
        public var body: Data = Data()
        /// Wait this long before answering (to provoke client timeouts).
        public var delay: Duration = .zero
        public var delivery: Delivery = .normal
        /// Extra response headers (`Location`, `Cache-Control`, …).
        public var headers: [String: String] = [:]
        /// Sent as `ETag`; a request whose `If-None-Match` matches gets 304 with no body.
        public var etag: String?
        /// Answer `Range: bytes=N-` with 206 and the rest of the body (unless an `If-Range` names another ETag).
        public var acceptsRanges = false
        /// Hold the answer until the test opens this gate (or the server stops): a test that needs a request still
        /// in flight holds it there instead of hoping a delay is long enough.
        public var gate: Gate?

        public init(status: Int = 200, contentType: String = "application/xml", body: Data = Data(),
                    delay: Duration = .zero, delivery: Delivery = .normal, headers: [String: String] = [:],
                    etag: String? = nil, acceptsRanges: Bool = false) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delay = delay
            self.delivery = delivery
            self.headers = headers
            self.etag = etag
            self.acceptsRanges = acceptsRanges
        }

        public static func xml(_ text: String, delay: Duration = .zero) -> Response {
            Response(status: 200, contentType: "application/xml", body: Data(text.utf8), delay: delay)
        }
        public static func file(_ url: URL, contentType: String = "application/octet-stream") -> Response {
            Response(status: 200, contentType: contentType, body: (try? Data(contentsOf: url)) ?? Data())
        }
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, contentType: "text/plain", headers: ["Location": location])
        }
        public static let notFound = Response(status: 404, contentType: "text/plain", body: Data("not found".utf8))
        public static let hang = Response(delivery: .hang)
    }

    /// A request as received. Two requests are equal when their method and target are (headers and arrival
    /// time are for the tests that look at them).
    public struct Request: Sendable, Hashable {
        public var method: String
        /// Path and query, as sent.
        public var target: String
        /// Header names in lower case.
        public var headers: [String: String] = [:]
        /// When it arrived, on the monotonic clock.
        public var arrival: ContinuousClock.Instant = .now

        public init(method: String, target: String, headers: [String: String] = [:], arrival: ContinuousClock.Instant = .now) {
            self.method = method
            self.target = target
            self.headers = headers
            self.arrival = arrival
        }

        public static func == (a: Request, b: Request) -> Bool { a.method == b.method && a.target == b.target }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            hasher.combine(target)
        }
    }

    private let listener: Int32
    /// The port the server listens on.
    public let port: UInt16
    private let routes = LockedState<[String: Response]>([:])
    private let log = LockedState<[Request]>([])
    private let connections = LockedState<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)

    /// `http://127.0.0.1:PORT`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        listener = fd
        port = UInt16(bigEndian: addr.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Serves `response` for requests whose path (without query) is `path`.
    public func route(_ path: String, _ response: Response) {
        routes.withLock { $0[path] = response }
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { log.withLock { $0 } }

    /// Every request received so far with the monotonic instant its head was read, in arrival order.
    public var arrivals: [(request: Request, at: ContinuousClock.Instant)] { requests.map { ($0, $0.arrival) } }

    /// The requests for `path` (without query).
    public func requests(for path: String) -> [Request] {
        requests.filter { $0.target.split(separator: "?", maxSplits: 1).first.map(String.init) == path }
    }

    /// Stops listening and closes every open connection (hanging ones included).
    public func stop() {
        if stopped.exchange(true, ordering: .relaxed) { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in connections.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 { if stopped.load(ordering: .relaxed) { return } else { continue } }
            connections.withLock { _ = $0.insert(client) }
            let thread = Thread { [self] in
                serve(client)
                connections.withLock { _ = $0.remove(client) }
                close(client)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var received = Data()
        while !received.contains(Data("\r\n\r\n".utf8)) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return }
            received.append(contentsOf: buffer[0..<n])
        }
        guard let headText = String(data: received, encoding: .utf8)?.components(separatedBy: "\r\n\r\n").first else { return }
        let lines = headText.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(method: String(parts[0]), target: String(parts[1]), headers: headers)
        log.withLock { $0.append(request) }
        let path = String(request.target.split(separator: "?", maxSplits: 1).first ?? "")
        let response = routes.withLock { $0[path] } ?? .notFound
        if response.delay > .zero { Thread.sleep(forTimeInterval: response.delay.seconds) }
        if let gate = response.gate, !gate.wait(unless: { stopped.load(ordering: .relaxed) }) { return }
        if response.delivery == .hang {
            while !stopped.load(ordering: .relaxed) {
                // Returns when the client goes away or the server stops (stop() shuts the socket down).
                if read(fd, &buffer, buffer.count) <= 0 { return }
            }
            return
        }

        var status = response.status
        var body = response.body
        var extra = response.headers
        if let etag = response.etag {
            extra["ETag"] = etag
            if request.headers["if-none-match"] == etag {
                status = 304
                body = Data()
            }
        }
        if response.acceptsRanges {
            extra["Accept-Ranges"] = "bytes"
            // `If-Range` with another ETag than the current one: the file changed, so the whole of it is sent.
            let rangeStillValid = request.headers["if-range"].map { $0 == response.etag } ?? true
            if status == 200, rangeStillValid, let range = request.headers["range"], range.hasPrefix("bytes="),
               let start = Int(range.dropFirst(6).split(separator: "-").first ?? ""), start < body.count {
                status = 206
                extra["Content-Range"] = "bytes \(start)-\(body.count - 1)/\(body.count)"
                body = body.subdata(in: start..<body.count)
            }
        }
        let reason = [200: "OK", 206: "Partial Content", 302: "Found", 304: "Not Modified", 404: "Not Found"][status] ?? "Status"
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(response.contentType)\r\n"
        if case .drip = response.delivery {} else { head += "Content-Length: \(body.count)\r\n" }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        guard sendAll(fd, Data(head.utf8)) else { return }
        switch response.delivery {
        case .normal, .hang:
            _ = sendAll(fd, body)
        case .closeAfter(let bytes):
            _ = sendAll(fd, body.prefix(bytes))
        case .drip(let chunk, let interval):
            var offset = 0
            while offset < body.count, !stopped.load(ordering: .relaxed) {
                let end = min(body.count, offset + max(1, chunk))
                guard sendAll(fd, body.subdata(in: offset..<end)) else { return }
                offset = end
                if offset < body.count { Thread.sleep(forTimeInterval: interval.seconds) }
            }
        }
    }

    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // send(MSG_NOSIGNAL), not write: a client that gave up (a timeout test) must not SIGPIPE the run.
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}

extension LoopbackHTTPServer {
    /// Holds the answers of the routes given it until `open()`: requests are read and logged as they arrive, and
    /// each waits for the gate before its answer is written. Opening is once and for all.
    public final class Gate: Sendable {
        private let opened = DispatchSemaphore(value: 0)
        private let isOpen = Atomic<Bool>(false)

        public init() {}

        /// Lets every held answer, and every later one, through.
        public func open() {
            if !isOpen.exchange(true, ordering: .sequentiallyConsistent) { opened.signal() }
        }

        /// Waits until the gate opens (true) or `stopped()` is true (false). A woken waiter passes the signal on.
        fileprivate func wait(unless stopped: () -> Bool) -> Bool {
            // The semaphore wakes a waiter at once on open(); the timeout only notices a server that stopped.
            while opened.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if stopped() { return false }
            }
            opened.signal()
            return true
        }
    }
}

extension Duration {
    /// The duration in seconds, for sleeps and reports in tests.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
