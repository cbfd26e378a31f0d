import CMicroHTTPD
import Foundation
import MediaCore

/// One request from its first callback to its access-log line: what was read, the answer, and what was sent.
final class Exchange: Sendable {
    private struct State {
        var body: [UInt8] = []
        var received = 0
        var bodyTooLarge = false
        var answering = false
        var response: HTTPServerResponse?
        var sentStatus = 0
        var sentBytes: UInt64 = 0
    }
    let method: String
    let rawPath: String
    let query: [(name: String, value: String)]?
    let headers: [String: String]
    let clientAddress: String
    let started: ContinuousClock.Instant
    let startedAt: Date
    private let state = LockedState(State())

    init(method: String, rawPath: String, query: [(name: String, value: String)]?, headers: [String: String], clientAddress: String) {
        self.method = method
        self.rawPath = rawPath
        self.query = query
        self.headers = headers
        self.clientAddress = clientAddress
        self.started = .now
        self.startedAt = Date()
    }

    var request: HTTPServerRequest {
        HTTPServerRequest(method: method, rawPath: rawPath, query: query, headers: headers, clientAddress: clientAddress,
                          body: state.withLock { $0.body })
    }

    enum Appended { case kept, dropped, overDiscardLimit }

    /// Adds a chunk of the body, or drops it (and all before it) once the body is over `limit`, counting what
    /// was dropped against `discardLimit`.
    func append(_ chunk: UnsafeBufferPointer<UInt8>, limit: Int, discardLimit: Int) -> Appended {
        state.withLock { s in
            s.received += chunk.count
            if !s.bodyTooLarge, s.received <= limit {
                s.body.append(contentsOf: chunk)
                return .kept
            }
            s.bodyTooLarge = true
            s.body = []
            return s.received > discardLimit ? .overDiscardLimit : .dropped
        }
    }

    var bodyTooLarge: Bool { state.withLock { $0.bodyTooLarge } }

    var response: HTTPServerResponse? { state.withLock { $0.response } }

    func setResponse(_ response: HTTPServerResponse) { state.withLock { $0.response = response } }

    /// True the first time: the caller starts the responder.
    func beginAnswering() -> Bool {
        state.withLock { s in defer { s.answering = true }; return !s.answering }
    }

    func sent(status: Int, bytes: UInt64) { state.withLock { $0.sentStatus = status; $0.sentBytes = bytes } }

    var sent: (status: Int, bytes: UInt64) { state.withLock { ($0.sentStatus, $0.sentBytes) } }
}

// MARK: - libmicrohttpd's callbacks

/// MHD_AccessHandlerCallback: called once with the headers, once per chunk of the body, and once at its end (and
/// again after a resume). The exchange lives in `*con_cls`, retained until `requestCompleted`.
let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, exchangeSlot in
    guard let context, let connection, let url, let method, let uploadSize, let exchangeSlot else { return .NO }
    let core = Unmanaged<HTTPServer.Core>.fromOpaque(context).takeUnretainedValue()
    guard let slot = exchangeSlot.pointee else {
        let exchange = Exchange(method: String(cString: method), rawPath: String(cString: url),
                                query: readQuery(connection), headers: readHeaders(connection),
                                clientAddress: clientAddress(connection))
        exchangeSlot.pointee = Unmanaged.passRetained(exchange).toOpaque()
        core.began()
        if let declared = exchange.headers["content-length"].flatMap({ UInt64($0) }), declared > UInt64(core.limits.bodyBytes) {
            return queue(.error(413, "the body is over \(core.limits.bodyBytes) bytes"), exchange, connection)
        }
        return .YES
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(slot).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        let chunk = UnsafeBufferPointer(start: UnsafeRawPointer(uploadData!).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
        uploadSize.pointee = 0
        // libmicrohttpd takes an answer only before the body or after it: a body found too long while it streams
        // (chunked) is read to its end and dropped, then answered 413, unless it goes on past `discardLimit`, when
        // the connection is closed unanswered.
        switch exchange.append(chunk, limit: core.limits.bodyBytes, discardLimit: 16 * core.limits.bodyBytes + 65536) {
        case .kept, .dropped: return .YES
        case .overDiscardLimit: return .NO
        }
    }
    if exchange.bodyTooLarge, exchange.beginAnswering() {
        return queue(.error(413, "the body is over \(core.limits.bodyBytes) bytes"), exchange, connection)
    }
    if let response = exchange.response { return queue(response, exchange, connection) }
    guard exchange.beginAnswering() else { return .YES }
    if let immediate = core.responder.immediateResponse(to: exchange.request) {
        exchange.setResponse(immediate)
        return queue(immediate, exchange, connection)
    }
    MHD_suspend_connection(connection)
    core.answer(exchange, on: ConnectionHandle(pointer: connection))
    return .YES
}

/// MHD_RequestCompletedCallback: the request's end, however it ended; writes its log line and releases it.
let requestCompleted: MHD_RequestCompletedCallback = { context, _, exchangeSlot, termination in
    guard let context, let exchangeSlot, let slot = exchangeSlot.pointee else { return }
    exchangeSlot.pointee = nil
    let core = Unmanaged<HTTPServer.Core>.fromOpaque(context).takeUnretainedValue()
    let exchange = Unmanaged<Exchange>.fromOpaque(slot).takeRetainedValue()
    // Counted as ended before its line is written: whoever reads the line sees the request no longer in flight
    // (the daemon's stop still waits for this callback to return).
    core.ended()
    let outcome = HTTPAccessLog.Outcome(termination)
    // The responder is told before the line is written: whoever reads the line finds the request counted.
    let sent = exchange.sent
    core.responder.completed(HTTPCompletedRequest(method: exchange.method, route: exchange.response?.route, status: sent.status,
                                                  bytes: sent.bytes, duration: ContinuousClock.now - exchange.started, outcome: outcome))
    core.log(HTTPAccessLog.line(exchange, outcome: outcome))
}

private func queue(_ response: HTTPServerResponse, _ exchange: Exchange, _ connection: OpaquePointer) -> MHD_Result {
    var response = response
    var length: UInt64 = 0
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        length = UInt64(bytes.count)
        made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let path):
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        if fd >= 0, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            length = UInt64(info.st_size)
            made = MHD_create_response_from_fd64(length, fd)  // MHD closes fd with the response
        } else {
            if fd >= 0 { close(fd) }
            response = .error(500, "a file of the answer could not be opened")
            let bytes = if case .bytes(let b) = response.body { b } else { [UInt8]() }
            length = UInt64(bytes.count)
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
    }
    guard let made else { return .NO }
    for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
    exchange.setResponse(response)
    exchange.sent(status: response.status, bytes: length)
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}

private func readHeaders(_ connection: OpaquePointer) -> [String: String] {
    final class Box { var headers: [String: String] = [:] }
    let box = Box()
    _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
        guard let context, let key else { return .YES }
        let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
        let name = String(cString: key).lowercased()
        let text = value.map { String(cString: $0) } ?? ""
        box.headers[name] = box.headers[name].map { "\($0), \(text)" } ?? text
        return .YES
    }, Unmanaged.passUnretained(box).toOpaque())
    return box.headers
}

private func readQuery(_ connection: OpaquePointer) -> [(name: String, value: String)]? {
    final class Box { var pairs: [(name: String, value: String)] = []; var valid = true }
    let box = Box()
    _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
        guard let context, let key else { return .YES }
        let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
        guard let name = PercentDecoding.decode(String(cString: key), plusIsSpace: true),
              let text = PercentDecoding.decode(value.map { String(cString: $0) } ?? "", plusIsSpace: true) else {
            box.valid = false
            return .NO
        }
        box.pairs.append((name, text))
        return .YES
    }, Unmanaged.passUnretained(box).toOpaque())
    return box.valid ? box.pairs : nil
}

private func clientAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    cmhd_client_address(connection, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
