import Foundation
import HTTPServing
import MediaCore

/// What `GET /metrics` answers, in Prometheus' text format (version 0.0.4): requests by route and status and their
/// latency, sessions, server-side beacons, the stitch cache (hits, misses, builds and their time, evictions), and
/// the process's CPU time and resident memory. Counted as requests end (`completed`), never by scanning.
///
/// Route labels are the responder's fixed names (`HTTPServerResponse.route`), never a path, so the series stay few
/// whatever clients ask.
public final class ServeMetrics: Sendable {
    /// Latency buckets, in seconds: a warm playlist answers in well under a millisecond, a cold break in seconds.
    static let latencyBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
    ]
    /// Build-time buckets, in seconds: a cut takes under a second, an ad's conditioning several.
    static let buildBuckets: [Duration] = [.milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
                                           .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120)]

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }
    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var beaconsSent = 0
        var beaconsFailed = 0
    }
    private let state = LockedState(State())

    public init() {}

    /// Counts a request that has ended.
    func record(_ request: HTTPCompletedRequest) {
        let route = request.route ?? "other"
        state.withLock { s in
            s.requests[RequestKey(route: route, status: request.status), default: 0] += 1
            s.latency[route, default: Histogram(buckets: Self.latencyBuckets)].observe(request.duration)
        }
    }

    /// Counts a server-side beacon's outcome.
    func beacon(sent: Bool) {
        state.withLock { s in
            if sent { s.beaconsSent += 1 } else { s.beaconsFailed += 1 }
        }
    }

    /// The exposition: this server's counters, `sessions`' and `cache`'s.
    func text(sessions: SessionStore, cache: StitchCache?) -> String {
        let s = state.withLock { $0 }
        var out = PrometheusText()
        out.family("pipctl_http_requests_total", "counter", "Requests answered, by route and status.")
        for (key, count) in s.requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            out.sample("pipctl_http_requests_total", ["route": key.route, "status": String(key.status)], count)
        }
        out.family("pipctl_http_request_duration_seconds", "histogram", "From a request's first byte read to its end, by route.")
        for (route, histogram) in s.latency.sorted(by: { $0.key < $1.key }) {
            out.histogram("pipctl_http_request_duration_seconds", ["route": route], histogram)
        }
        out.family("pipctl_sessions", "gauge", "Sessions held.")
        out.sample("pipctl_sessions", [:], sessions.count)
        out.family("pipctl_sessions_created_total", "counter", "Sessions made since the server started.")
        out.sample("pipctl_sessions_created_total", [:], sessions.created)
        out.family("pipctl_beacons_sent_total", "counter", "Server-side beacons the tracking server accepted.")
        out.sample("pipctl_beacons_sent_total", [:], s.beaconsSent)
        out.family("pipctl_beacons_failed_total", "counter", "Server-side beacons that failed (refused, timed out, unreachable).")
        out.sample("pipctl_beacons_failed_total", [:], s.beaconsFailed)
        if let cache {
            let counts = cache.counts
            for (name, help, value) in [("hits", "Entries read back whole.", \StitchCache.KindCounts.hits),
                                        ("misses", "Entries not found whole, so waited for or built.", \.misses),
                                        ("builds", "Entries built by this server.", \.builds),
                                        ("build_failures", "Builds that failed (the viewer got the content there).", \.failures)] {
                out.family("pipctl_cache_\(name)_total", "counter", help + " By kind: cuts, ads (conditioning), packaged.")
                for (kind, c) in counts.kinds.sorted(by: { $0.key < $1.key }) {
                    out.sample("pipctl_cache_\(name)_total", ["kind": kind], c[keyPath: value])
                }
            }
            out.family("pipctl_cache_build_seconds", "histogram", "Time to build an entry (an ad's conditioning for kind ads), by kind.")
            for (kind, c) in counts.kinds.sorted(by: { $0.key < $1.key }) {
                out.histogram("pipctl_cache_build_seconds", ["kind": kind], c.buildTime)
            }
            out.family("pipctl_cache_evictions_total", "counter", "Entries removed to keep the cache within --cache-size.")
            out.sample("pipctl_cache_evictions_total", [:], counts.evictions)
        }
        if let usage = ProcessUsage.read() {
            out.family("process_cpu_seconds_total", "counter", "User and system CPU time of the process.")
            out.sample("process_cpu_seconds_total", [:], seconds: usage.cpu)
            out.family("process_resident_memory_bytes", "gauge", "Resident memory of the process.")
            out.sample("process_resident_memory_bytes", [:], usage.residentBytes)
        }
        return out.text
    }
}

/// A Prometheus histogram: cumulative counts at fixed upper bounds, the sum (in nanoseconds, exact) and the count.
package struct Histogram: Sendable {
    package let buckets: [Duration]
    package private(set) var counts: [Int]
    package private(set) var sumNanoseconds: Int64 = 0
    package private(set) var count = 0

    package init(buckets: [Duration]) {
        self.buckets = buckets
        counts = Array(repeating: 0, count: buckets.count)
    }

    package mutating func observe(_ value: Duration) {
        // Bounded: a handful of buckets, searched once.
        if let i = buckets.firstIndex(where: { value <= $0 }) { counts[i] += 1 }
        let (seconds, attoseconds) = value.components
        sumNanoseconds &+= seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        count += 1
    }
}

/// Prometheus' text exposition, written line by line.
struct PrometheusText {
    private(set) var text = ""

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [String: String], _ value: Int) {
        text += "\(name)\(Self.labels(labels)) \(value)\n"
    }

    mutating func sample(_ name: String, _ labels: [String: String], seconds: Duration) {
        text += "\(name)\(Self.labels(labels)) \(Self.seconds(seconds))\n"
    }

    mutating func histogram(_ name: String, _ labels: [String: String], _ h: Histogram) {
        var cumulative = 0
        for (bound, n) in zip(h.buckets, h.counts) {
            cumulative += n
            text += "\(name)_bucket\(Self.labels(labels.merging(["le": Self.seconds(bound)]) { a, _ in a })) \(cumulative)\n"
        }
        text += "\(name)_bucket\(Self.labels(labels.merging(["le": "+Inf"]) { a, _ in a })) \(h.count)\n"
        text += "\(name)_sum\(Self.labels(labels)) \(Self.seconds(.nanoseconds(h.sumNanoseconds)))\n"
        text += "\(name)_count\(Self.labels(labels)) \(h.count)\n"
    }

    /// `{a="x",b="y"}` in name order, values escaped as the format asks (backslash, quote, newline).
    static func labels(_ labels: [String: String]) -> String {
        guard !labels.isEmpty else { return "" }
        let pairs = labels.sorted { $0.key < $1.key }.map { key, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(key)=\"\(escaped)\""
        }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// A duration in seconds, to the nanosecond, without a trailing zero.
    static func seconds(_ d: Duration) -> String {
        let (s, atto) = d.components
        let nanos = atto / 1_000_000_000
        guard nanos != 0 else { return String(s) }
        var fraction = String(nanos)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(s).\(fraction)"
    }
}

/// The process's CPU time and resident memory, from `/proc/self/stat` and `/proc/self/statm` (Linux).
struct ProcessUsage {
    var cpu: Duration
    var residentBytes: Int

    static func read() -> ProcessUsage? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's name (which may hold spaces) in parentheses: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let pages = statm.split(separator: " ")
        guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]),
              pages.count > 1, let resident = Int(pages[1]) else { return nil }
        let ticks = Int64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        let cpu = Duration.nanoseconds((user + system) * 1_000_000_000 / ticks)
        return ProcessUsage(cpu: cpu, residentBytes: resident * Int(sysconf(Int32(_SC_PAGESIZE))))
    }
}
