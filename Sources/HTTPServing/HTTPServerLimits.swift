/// What one `HTTPServer` allows, each enforced before the responder sees a request (docs/SERVE.md, "Limits").
public struct HTTPServerLimits: Sendable, Equatable {
    /// Open connections in all; a connection over it is closed as it is accepted.
    public var connections: Int
    /// Open connections from one client address; 0 for no limit per address.
    public var connectionsPerAddress: Int
    /// A connection that sends nothing for this long (or takes nothing of its answer) is closed.
    public var idleTimeoutSeconds: Int
    /// The request line and headers together (libmicrohttpd's per-connection memory, of which they take about half):
    /// more is answered 431 by libmicrohttpd itself.
    public var headerMemoryBytes: Int
    /// A request body over this is answered 413, without reading the rest of it.
    public var bodyBytes: Int
    /// Threads that accept, read and write (each with its own epoll set); the responders run on Swift's pool.
    public var threads: Int
    /// On shutdown, how long the requests in flight may take to finish before they are cancelled.
    public var drainSeconds: Int

    public init(connections: Int = 4096, connectionsPerAddress: Int = 0, idleTimeoutSeconds: Int = 30,
                headerMemoryBytes: Int = 32 * 1024, bodyBytes: Int = 64 * 1024, threads: Int = 2, drainSeconds: Int = 10) {
        self.connections = connections
        self.connectionsPerAddress = connectionsPerAddress
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.headerMemoryBytes = headerMemoryBytes
        self.bodyBytes = bodyBytes
        self.threads = threads
        self.drainSeconds = drainSeconds
    }
}
