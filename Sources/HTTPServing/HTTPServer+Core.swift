import CMicroHTTPD
import Foundation
import MediaCore

/// A connection pointer handed to the task that answers it; only `resume` uses it, under the core's lock.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

extension HTTPServer {
    /// What libmicrohttpd's callbacks reach through their context pointer: the responder, the exchanges in flight,
    /// and the lock that orders a task's resume against the daemon's stop.
    final class Core: Sendable {
        let limits: HTTPServerLimits
        let responder: any HTTPResponder
        let log: @Sendable (String) -> Void
        private struct State {
            var inFlight = 0
            /// Set by `drain`: the last request to end signals `drained`.
            var draining = false
            /// Cleared by `stop`, under the lock, before MHD_stop_daemon: no resume may reach a stopped daemon.
            var running = true
            var tasks: [ObjectIdentifier: Task<Void, Never>] = [:]
        }
        private let state = LockedState(State())
        private let drained = DispatchSemaphore(value: 0)

        init(limits: HTTPServerLimits, responder: any HTTPResponder, log: @escaping @Sendable (String) -> Void) {
            self.limits = limits
            self.responder = responder
            self.log = log
        }

        var inFlight: Int { state.withLock { $0.inFlight } }

        func began() { state.withLock { $0.inFlight += 1 } }

        func ended() {
            let idle = state.withLock { s -> Bool in s.inFlight -= 1; return s.inFlight == 0 && s.draining }
            if idle { drained.signal() }
        }

        /// Runs the responder for `exchange` and resumes its connection with the answer (unless the daemon stopped).
        func answer(_ exchange: Exchange, on connection: ConnectionHandle) {
            let key = ObjectIdentifier(exchange)
            let request = exchange.request
            let responder = self.responder
            let task = Task {
                let response = await responder.respond(to: request)
                exchange.setResponse(response)
                self.state.withLock { s in
                    s.tasks[key] = nil
                    if s.running { MHD_resume_connection(connection.pointer) }
                }
            }
            state.withLock { s in if exchange.response == nil { s.tasks[key] = task } }
        }

        /// Waits until no request is in flight, or `timeout` passes; true when none is.
        func drain(within timeout: Duration) -> Bool {
            let pending = state.withLock { s -> Int in s.draining = true; return s.inFlight }
            if pending == 0 { return true }
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            return drained.wait(timeout: .now() + seconds) == .success
        }

        func cancelAll() {
            for task in state.withLock({ Array($0.tasks.values) }) { task.cancel() }
        }

        /// Runs `stop` (MHD_stop_daemon) with no task able to resume a connection meanwhile.
        func stop(_ stop: () -> Void) {
            state.withLock { $0.running = false }
            stop()
        }
    }
}
