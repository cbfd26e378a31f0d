import CCurl
import Foundation
import Synchronization
import MediaCore

/// Where a transfer's body goes, as it arrives.
enum BodySink {
    /// Kept in memory and returned.
    case collect
    /// Dropped (beacons): only the status matters.
    case discard
    /// Written to an open file descriptor, with a callback after each write (bytes so far), and one with the
    /// final response's status and headers before its first body byte is written.
    case file(descriptor: Int32, progress: (@Sendable (Int64) -> Void)?,
              head: (@Sendable (Int, [String: String]) -> Void)? = nil)
}

/// One request in flight: owns its libcurl easy handle, header list and error buffer from the moment they are
/// allocated, and receives libcurl's callbacks.
///
/// `@unchecked Sendable`: it is created by the caller and then touched only by the transfer loop's thread (the
/// callbacks run there), except `cancelled`, which is atomic, and the continuation, which is behind a lock.
final class Transfer: @unchecked Sendable {
    let request: HTTPRequest
    private let sink: BodySink
    let cancelled = Atomic<Bool>(false)
    private let continuation = LockedState<CheckedContinuation<Result<(HTTPResponse, Data), HTTPFailure>, Never>?>(nil)

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private var body = Data()
    private var received: Int64 = 0
    private var headers: [String: String] = [:]
    private var statusChecked = false
    /// Set by a callback that stopped the transfer, so that libcurl's generic write error can be explained.
    private var stoppedBecause: HTTPFailure?

    init(request: HTTPRequest, sink: BodySink) {
        self.request = request
        self.sink = sink
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    func setContinuation(_ c: CheckedContinuation<Result<(HTTPResponse, Data), HTTPFailure>, Never>) {
        continuation.withLock { $0 = c }
    }

    /// Resumes the waiting caller; only the first call counts.
    func complete(_ result: Result<(HTTPResponse, Data), HTTPFailure>) {
        let c = continuation.withLock { c -> CheckedContinuation<Result<(HTTPResponse, Data), HTTPFailure>, Never>? in
            defer { c = nil }
            return c
        }
        c?.resume(returning: result)
    }

    /// Creates and configures the easy handle.
    func prepare() -> HTTPFailure? {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .unsupportedURL(request.url.absoluteString)
        }
        guard let handle = curl_easy_init() else { return .transport("curl_easy_init failed") }
        easy = handle
        let context = Unmanaged.passUnretained(self).toOpaque()
        let ms = { (d: Duration) -> Int in max(1, Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)) }
        let timeoutMs = ms(request.timeout)
        let connectMs = min(timeoutMs, request.connectTimeout.map(ms) ?? timeoutMs)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        var failed: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if failed == CURLE_OK { failed = code } }
        set(ccurl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString))
        set(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(ccurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, request.maximumRedirects > 0 ? 1 : 0))
        set(ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, request.maximumRedirects))
        set(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMs))
        set(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connectMs))
        set(ccurl_setopt_string(handle, CURLOPT_USERAGENT, "pipctl"))
        set(ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        set(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        if let headerList { set(ccurl_setopt_list(handle, CURLOPT_HTTPHEADER, headerList)) }
        if let limit = request.maximumBytes { set(ccurl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))) }
        set(ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, transferWriteCallback))
        set(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        set(ccurl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, transferHeaderCallback))
        set(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        guard failed == CURLE_OK else { return .transport("curl_easy_setopt: \(String(cString: curl_easy_strerror(failed)))") }
        return nil
    }

    /// A header line: a status line starts a new response (a redirect's or the final one).
    func receiveHeader(_ line: String) {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        headers[name] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// Body bytes of the final response; false stops the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !statusChecked {
            statusChecked = true
            let status = responseCode
            guard request.acceptsStatus(status) else {
                stoppedBecause = .status(status)
                return false
            }
            if case .file(_, _, let head?) = sink { head(status, headers) }
        }
        received += Int64(bytes.count)
        if let limit = request.maximumBytes, received > limit {
            stoppedBecause = .tooLarge(limit: limit)
            return false
        }
        switch sink {
        case .collect:
            body.append(contentsOf: bytes)
        case .discard:
            break
        case .file(let fd, let progress, _):
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    stoppedBecause = .storage(String(cString: strerror(errno)))
                    return false
                }
                offset += n
            }
            progress?(received)
        }
        return true
    }

    private var responseCode: Int {
        var code = 0
        guard let easy else { return 0 }
        _ = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// What the finished transfer amounts to, given libcurl's result code.
    func outcome(_ code: CURLcode) -> Result<(HTTPResponse, Data), HTTPFailure> {
        guard let easy else { return .failure(.transport("no handle")) }
        if let stoppedBecause { return .failure(stoppedBecause) }
        let detail = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OK:
            break
        case CURLE_COULDNT_CONNECT:
            return .failure(.couldNotConnect("connection refused"))
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .failure(.couldNotConnect("host not found"))
        case CURLE_OPERATION_TIMEDOUT:
            var connected: curl_off_t = 0
            _ = ccurl_getinfo_offset(easy, CURLINFO_CONNECT_TIME_T, &connected)
            return .failure(connected > 0 ? .timedOut(request.timeout)
                                          : .connectTimedOut(min(request.timeout, request.connectTimeout ?? request.timeout)))
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge(limit: request.maximumBytes ?? 0))
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .failure(.unsupportedURL(detail))
        case CURLE_TOO_MANY_REDIRECTS:
            return .failure(.transport("more than \(request.maximumRedirects) redirects"))
        case CURLE_PARTIAL_FILE:
            return .failure(.transport("the connection closed before the whole body arrived"))
        case CURLE_GOT_NOTHING:
            return .failure(.transport("the server closed the connection without answering"))
        default:
            return .failure(.transport(detail))
        }
        let status = responseCode
        guard request.acceptsStatus(status) else { return .failure(.status(status)) }
        var effective: UnsafeMutablePointer<CChar>?
        _ = ccurl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url
        return .success((HTTPResponse(status: status, headers: headers, url: url, bodyBytes: received), body))
    }
}

private let transferWriteCallback: ccurl_data_callback = { data, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    let total = size * count
    let ok = transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: total))
    return ok ? total : ccurl_write_error()
}

private let transferHeaderCallback: ccurl_data_callback = { data, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    let total = size * count
    if let data {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: total), as: UTF8.self)
        transfer.receiveHeader(line)
    }
    return total
}
