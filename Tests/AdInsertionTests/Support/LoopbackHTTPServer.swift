import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests: each test starts its own on a free port, registers routes and
/// reads back the requests it received. One thread accepts; each connection is served on its own thread, so a
/// slow route does not hold up the others.
final class LoopbackHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int = 200
        var contentType: String = "application/xml"
        var body: Data = Data()
        /// Wait this long before answering (to provoke client timeouts).
        var delay: Duration = .zero

        static func xml(_ text: String, delay: Duration = .zero) -> Response {
            Response(status: 200, contentType: "application/xml", body: Data(text.utf8), delay: delay)
        }
        static func file(_ url: URL, contentType: String = "application/octet-stream") -> Response {
            Response(status: 200, contentType: contentType, body: (try? Data(contentsOf: url)) ?? Data())
        }
        static let notFound = Response(status: 404, contentType: "text/plain", body: Data("not found".utf8))
    }

    struct Request: Sendable, Hashable {
        var method: String
        /// Path and query, as sent.
        var target: String
    }

    private let listener: Int32
    /// The port the server listens on.
    let port: UInt16
    private let routes = Mutex<[String: Response]>([:])
    private let log = Mutex<[Request]>([])
    private let arrivalLog = Mutex<[(request: Request, at: ContinuousClock.Instant)]>([])
    private let stopped = Atomic<Bool>(false)

    /// `http://127.0.0.1:PORT`
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init() throws {
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
    func route(_ path: String, _ response: Response) {
        routes.withLock { $0[path] = response }
    }

    /// Every request received so far, in arrival order.
    var requests: [Request] { log.withLock { $0 } }

    /// Every request received so far with the monotonic instant its head was read, in arrival order.
    var arrivals: [(request: Request, at: ContinuousClock.Instant)] { arrivalLog.withLock { $0 } }

    func stop() {
        if stopped.exchange(true, ordering: .relaxed) { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 { if stopped.load(ordering: .relaxed) { return } else { continue } }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var received = Data()
        while !received.contains(Data("\r\n\r\n".utf8)) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return }
            received.append(contentsOf: buffer[0..<n])
        }
        guard let head = String(data: received, encoding: .utf8)?.components(separatedBy: "\r\n").first else { return }
        let parts = head.split(separator: " ")
        guard parts.count >= 2 else { return }
        let request = Request(method: String(parts[0]), target: String(parts[1]))
        let now = ContinuousClock.now
        log.withLock { $0.append(request) }
        arrivalLog.withLock { $0.append((request, now)) }
        let path = String(request.target.split(separator: "?", maxSplits: 1).first ?? "")
        let response = routes.withLock { $0[path] } ?? .notFound
        if response.delay > .zero { Thread.sleep(forTimeInterval: response.delay.seconds) }
        let reason = response.status == 200 ? "OK" : response.status == 404 ? "Not Found" : "Status"
        var out = Data("HTTP/1.1 \(response.status) \(reason)\r\nContent-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n\r\n".utf8)
        out.append(response.body)
        out.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // send(MSG_NOSIGNAL), not write: a client that gave up (a timeout test) must not SIGPIPE the run.
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
