import CMicroHTTPD
import Foundation
import MediaCore

/// Answers requests; called once per request, concurrently, on Swift's pool (never on libmicrohttpd's threads).
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPServerRequest) async -> HTTPServerResponse
    /// The answer when it needs no waiting at all (a file found by its name), given on the server's own thread as
    /// the request is read, so that it is sent without the connection being suspended and handed to Swift's pool;
    /// nil sends the request to `respond(to:)`. It must be quick and must not block. By default, nil.
    func immediateResponse(to request: HTTPServerRequest) -> HTTPServerResponse?
    /// Told of each request once it has ended, however it ended (on one of the server's threads, so it must be
    /// quick and must not block): what `/metrics` counts. By default nothing is done.
    func completed(_ request: HTTPCompletedRequest)
}

extension HTTPResponder {
    public func immediateResponse(to request: HTTPServerRequest) -> HTTPServerResponse? { nil }
    public func completed(_ request: HTTPCompletedRequest) {}
}

/// A request that has ended, as its access-log line tells it.
public struct HTTPCompletedRequest: Sendable {
    public var method: String
    /// The responder's name for what was asked (`HTTPServerResponse.route`); nil when the server answered by itself
    /// (a body over the limit) or nothing was answered.
    public var route: String?
    /// The status sent (0 when nothing was).
    public var status: Int
    public var bytes: UInt64
    /// From the request's first byte read to its end.
    public var duration: Duration
    public var outcome: HTTPAccessLog.Outcome
}

/// Why a server could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(description: String) { self.description = description }
}

/// An HTTP/1.1 server on libmicrohttpd: its own threads accept, read and write (epoll, a pool of
/// `limits.threads`), and each request, once read and bounded, is handed to the responder as a value on Swift's pool
/// while its connection is suspended, so a slow answer never holds a thread that others need.
///
/// The one owner of the `MHD_Daemon`, from `MHD_start_daemon` to `MHD_stop_daemon` in `shutdown()` (or `deinit`).
/// Every request ends as one access-log line (`HTTPAccessLog`).
public final class HTTPServer: Sendable {
    /// The address it listens on, and its port (the system's choice when 0 was asked for).
    public let host: String
    public let port: Int
    private let core: Core
    private let daemon: LockedState<OpaquePointer?>

    /// Listens on `host` (an IPv4 or IPv6 literal) and `port` (0: any free one).
    public init(host: String, port: Int, limits: HTTPServerLimits = .init(), responder: any HTTPResponder,
                log: @escaping @Sendable (String) -> Void) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError(description: "port \(port) is not 0 to 65535") }
        let core = Core(limits: limits, responder: responder, log: log)
        var storage = sockaddr_storage()
        let family = try Self.address(host: host, port: UInt16(port), into: &storage)
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue) | UInt32(MHD_USE_EPOLL.rawValue)
            | UInt32(MHD_ALLOW_SUSPEND_RESUME.rawValue) | (family == AF_INET6 ? UInt32(MHD_USE_IPv6.rawValue) : 0)
        let cmhdLimits = cmhd_limits(connection_limit: UInt32(clamping: limits.connections),
                                     per_ip_limit: UInt32(clamping: limits.connectionsPerAddress),
                                     idle_timeout_seconds: UInt32(clamping: limits.idleTimeoutSeconds),
                                     memory_limit: limits.headerMemoryBytes, threads: UInt32(clamping: max(1, limits.threads)))
        let context = Unmanaged.passUnretained(core).toOpaque()
        let started = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                errno = 0
                return cmhd_start(flags, address, accessHandler, context, requestCompleted, context, cmhdLimits)
            }
        }
        guard let started else {
            let reason = errno == 0 ? "" : ": \(String(cString: strerror(errno)))"
            throw HTTPServerError(description: "MHD_start_daemon failed on \(host):\(port)\(reason)")
        }
        self.host = host
        self.core = core
        self.port = Int(cmhd_bound_port(started))
        self.daemon = LockedState(started)
    }

    deinit {
        shutdown()
    }

    /// Stops accepting, lets the requests in flight finish (cancelling them after `limits.drainSeconds`), then stops
    /// the daemon. Returns once every thread of it has ended; calling it again does nothing.
    public func shutdown() {
        guard let running = daemon.withLock({ value -> OpaquePointer? in defer { value = nil }; return value }) else { return }
        // The listening socket is ours from here: closed once the daemon's threads, which may still hold it, are gone.
        let listening = MHD_quiesce_daemon(running)
        if !core.drain(within: .seconds(core.limits.drainSeconds)) {
            core.cancelAll()
            _ = core.drain(within: .seconds(5))
        }
        core.stop { MHD_stop_daemon(running) }
        if listening >= 0 { close(listening) }
    }

    /// `shutdown()` on a thread of its own, so that waiting for the requests in flight never holds one of the
    /// threads their responders need.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { self.shutdown(); continuation.resume() }
            thread.start()
        }
    }

    /// Requests read and not yet logged.
    public var requestsInFlight: Int { core.inFlight }

    private static func address(host: String, port: UInt16, into storage: inout sockaddr_storage) throws(HTTPServerError) -> Int32 {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v4, as: sockaddr_in.self) }
            return AF_INET
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v6, as: sockaddr_in6.self) }
            return AF_INET6
        }
        throw HTTPServerError(description: "listen address \"\(host.prefix(64))\" is not an IPv4 or IPv6 address")
    }
}
