import CCurl
import Foundation
import MediaCore

/// HTTP(S) GETs on libcurl, bounded in size while they stream and in time, cancelled with their task.
///
/// Why not URLSession: on Linux, FoundationNetworking spins while a request waits (a silent server costs most of
/// a core for as long as the timeout runs). Here one thread drives every transfer through a libcurl multi handle
/// and sleeps in `curl_multi_poll` until a socket is ready, a deadline is due or a caller wakes it, so a hanging
/// request costs no CPU, and a cancelled one stops at once.
///
/// Only `http` and `https` are fetched, and redirects are followed only to them. The time limit is libcurl's own
/// (milliseconds, whole exchange); the size limit is checked on every chunk, so an endless body stops at the
/// limit. Connections are reused between requests to the same server.
public final class HTTPClient: Sendable {
    /// The process's client (its thread starts on first use).
    public static let shared = HTTPClient()

    private let loop: TransferLoop

    public init() {
        loop = TransferLoop()
    }

    /// The body of `request`, collected in memory (within `maximumBytes`).
    public func data(_ request: HTTPRequest) async -> Result<(response: HTTPResponse, body: Data), HTTPFailure> {
        await perform(request, sink: .collect).map { (response: $0.0, body: $0.1) }
    }

    /// Sends `request` and drops the body: for beacons, where only the answer's status matters.
    public func send(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPFailure> {
        await perform(request, sink: .discard).map(\.0)
    }

    /// Streams the body of `request` into the open file `descriptor` (at its current offset), calling
    /// `progress` with the byte count so far after each chunk (on the client's thread: keep it short).
    ///
    /// `head` receives the final response's status and headers (names in lower case) before the first body byte
    /// is written, so that a transfer that breaks off later can still be resumed with the validators it had.
    public func download(_ request: HTTPRequest, to descriptor: Int32,
                         progress: (@Sendable (Int64) -> Void)? = nil,
                         head: (@Sendable (Int, [String: String]) -> Void)? = nil) async -> Result<HTTPResponse, HTTPFailure> {
        await perform(request, sink: .file(descriptor: descriptor, progress: progress, head: head)).map(\.0)
    }

    private func perform(_ request: HTTPRequest, sink: BodySink) async -> Result<(HTTPResponse, Data), HTTPFailure> {
        let transfer = Transfer(request: request, sink: sink)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.setContinuation(continuation)
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }
}

/// The thread that owns the libcurl multi handle and every transfer in it.
///
/// `@unchecked Sendable`: the multi handle and `active` are touched only by the loop's own thread; callers reach
/// it through `inbox` (behind a lock) and `curl_multi_wakeup`, which libcurl documents as callable from any thread.
private final class TransferLoop: @unchecked Sendable {
    private struct Inbox {
        var added: [Transfer] = []
        var cancelled: [Transfer] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = LockedState(Inbox())
    private var active: [ObjectIdentifier: Transfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: Transfer] = [:]

    init() {
        _ = TransferLoop.globalInit
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "pipctl-http"
        thread.start()
    }

    /// libcurl's process-wide set-up, once, before the first handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    func submit(_ transfer: Transfer) {
        inbox.withLock { $0.added.append(transfer) }
        curl_multi_wakeup(multi)
    }

    func cancel(_ transfer: Transfer) {
        transfer.cancelled.store(true, ordering: .relaxed)
        inbox.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            let (added, cancelled) = inbox.withLock { inbox in
                defer { inbox = Inbox() }
                return (inbox.added, inbox.cancelled)
            }
            for transfer in added { start(transfer) }
            for transfer in cancelled { stop(transfer) }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                let code = ccurl_message_result(message)
                guard let transfer = byHandle.removeValue(forKey: handle) else { continue }
                active[ObjectIdentifier(transfer)] = nil
                curl_multi_remove_handle(multi, handle)
                transfer.complete(transfer.outcome(code))
            }
            // Sleeps until a socket is ready, libcurl's next deadline is due, or submit/cancel wakes it.
            _ = curl_multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : 1_000, nil)
        }
    }

    private func start(_ transfer: Transfer) {
        if transfer.cancelled.load(ordering: .relaxed) {
            transfer.complete(.failure(.cancelled))
            return
        }
        if let failure = transfer.prepare() {
            transfer.complete(.failure(failure))
            return
        }
        guard let handle = transfer.easy else { return }
        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            transfer.complete(.failure(.transport("curl_multi_add_handle: \(String(cString: curl_multi_strerror(added)))")))
            return
        }
        active[ObjectIdentifier(transfer)] = transfer
        byHandle[handle] = transfer
    }

    private func stop(_ transfer: Transfer) {
        guard active.removeValue(forKey: ObjectIdentifier(transfer)) != nil, let handle = transfer.easy else {
            // Not started yet (it will be refused when it is) or already finished.
            return
        }
        byHandle[handle] = nil
        curl_multi_remove_handle(multi, handle)
        transfer.complete(.failure(.cancelled))
    }
}
