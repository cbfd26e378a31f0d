import Foundation
import LoopbackServer
import Testing

/// `/metrics` and `/healthz`: what the server counts (requests by route and status and their latency, sessions,
/// beacons sent and failed, the cache's hits, misses and builds), read by an independent parser: PyPI's
/// `prometheus_client`, the Prometheus project's own Python client.
@Suite struct ServeMetricsTests {
    static var canParse: Bool { (try? PythonScript.run("import prometheus_client.parser")) != nil }

    /// Parses the exposition on standard input with prometheus_client and prints every sample as JSON
    /// (`name{label=value,…}` sorted → value), failing on anything the format does not allow.
    static let script = #"""
    import json, sys
    from prometheus_client.parser import text_string_to_metric_families
    out = {"types": {}, "samples": {}}
    for family in text_string_to_metric_families(open(sys.argv[1]).read()):
        out["types"][family.name] = family.type
        for s in family.samples:
            key = s.name + "{" + ",".join(f"{k}={v}" for k, v in sorted(s.labels.items())) + "}"
            if key in out["samples"]: raise SystemExit("repeated sample " + key)
            out["samples"][key] = s.value
    print(json.dumps(out))
    """#

    static func parsed(_ harness: ServeHarness) async throws -> (types: [String: String], samples: [String: Double]) {
        let response = try await harness.request("GET", "/metrics")
        try #require(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let files = try TemporaryDirectory()
        let output = try PythonScript.run(script, arguments: [try files.write("metrics.txt", response.text)])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (json["types"] as? [String: String] ?? [:], json["samples"] as? [String: Double] ?? [:])
    }

    /// `/metrics`, parsed by prometheus_client, once `done` holds of its raw lines: what the server counts after a
    /// request's answer was read lands when the request ends on the server, and a beacon's outcome when the
    /// tracking server has answered.
    static func metrics(_ harness: ServeHarness, until done: ([Substring]) -> Bool) async throws -> (types: [String: String], samples: [String: Double]) {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            let text = try await harness.request("GET", "/metrics").text
            if done(text.split(separator: "\n")) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await parsed(harness)
    }

    @Test(.enabled(if: canParse, "needs python3's prometheus_client (scripts/setup --for-tests)"))
    func metricsCountRequestsSessionsBeaconsAndTheCacheInPrometheusFormat() async throws {
        let cache = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let harness = try ServeStitchTests.harness(cache: cache)
        // Four of the six beacons are accepted; thirdQuartile and complete get the tracking server's 404.
        for event in ["impression", "start", "firstQuartile", "midpoint"] {
            harness.adServer.route("/beacon/red/\(event)", .init(status: 204, contentType: "text/plain"))
        }
        let first = try await harness.session()
        for rendition in 0..<2 { #expect(try await harness.request("GET", "/v1/sessions/\(first)/\(rendition).m3u8").status == 200) }
        #expect(try await harness.request("GET", "/v1/sessions/\(first)/7.m3u8").status == 404)
        let playlist = try await harness.request("GET", "/v1/sessions/\(first)/0.m3u8")
        let adSegments = ServeStitchTests.segments(playlist.text).map(\.uri).filter { $0.contains("/ads/") }
        for uri in adSegments { #expect(try await harness.request("GET", uri).status == 302) }
        // A second viewer of the same break: its cut and ad are read back, not built.
        let second = try await harness.session()
        for rendition in 0..<2 { #expect(try await harness.request("GET", "/v1/sessions/\(second)/\(rendition).m3u8").status == 200) }
        #expect(try await harness.request("GET", "/healthz").text == "{\"status\":\"ok\",\"sessions\":2}\n")

        let (types, samples) = try await Self.metrics(harness) { lines in
            func value(_ name: String) -> Int { lines.first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0 }
            return value("pipctl_beacons_sent_total") + value("pipctl_beacons_failed_total") >= 6
                && value("pipctl_http_requests_total{route=\"healthz\",status=\"200\"}") == 1
        }
        #expect(types["pipctl_http_requests"] == "counter" && types["pipctl_http_request_duration_seconds"] == "histogram")
        #expect(types["pipctl_sessions"] == "gauge" && types["pipctl_cache_build_seconds"] == "histogram")
        // Requests by route and status, as they were made.
        #expect(samples["pipctl_http_requests_total{route=session,status=201}"] == 2)
        #expect(samples["pipctl_http_requests_total{route=media_playlist,status=200}"] == 5)
        #expect(samples["pipctl_http_requests_total{route=media_playlist,status=404}"] == 1)
        #expect(samples["pipctl_http_requests_total{route=ad_segment,status=302}"] == Double(adSegments.count))
        // The latency histogram: cumulative buckets ending in the count, which is every media playlist request.
        let buckets = samples.filter { $0.key.hasPrefix("pipctl_http_request_duration_seconds_bucket{le=") && $0.key.hasSuffix(",route=media_playlist}") }
        #expect(buckets.count == 17)
        #expect(samples["pipctl_http_request_duration_seconds_bucket{le=+Inf,route=media_playlist}"] == 6)
        #expect(samples["pipctl_http_request_duration_seconds_count{route=media_playlist}"] == 6)
        #expect((samples["pipctl_http_request_duration_seconds_sum{route=media_playlist}"] ?? 0) > 0)
        #expect(samples["pipctl_sessions{}"] == 2 && samples["pipctl_sessions_created_total{}"] == 2)
        #expect(samples["pipctl_beacons_sent_total{}"] == 4 && samples["pipctl_beacons_failed_total{}"] == 2)
        // The cache: each entry on disk built once, by the first viewer; the second viewer's read back.
        for kind in ["ads", "cuts"] {
            let entries = try FileManager.default.contentsOfDirectory(atPath: "\(cache)/\(kind)").filter { !$0.hasPrefix(".") }
            #expect(entries.count == 2, "\(kind): \(entries)")
            #expect(samples["pipctl_cache_builds_total{kind=\(kind)}"] == Double(entries.count))
            #expect(samples["pipctl_cache_build_seconds_count{kind=\(kind)}"] == Double(entries.count))
            #expect(samples["pipctl_cache_build_failures_total{kind=\(kind)}"] == 0)
            #expect((samples["pipctl_cache_hits_total{kind=\(kind)}"] ?? 0) >= 2, "\(kind)")
        }
        #expect(samples["pipctl_cache_evictions_total{}"] == 0)
        #expect((samples["process_resident_memory_bytes{}"] ?? 0) > 1_000_000 && (samples["process_cpu_seconds_total{}"] ?? 0) > 0)
    }

    @Test func healthzAndMetricsAnswerOnlyGET() async throws {
        let harness = try ServeHarness()
        let health = try await harness.request("GET", "/healthz")
        #expect(health.status == 200 && harness.json(health)["status"] as? String == "ok")
        #expect(try await harness.request("POST", "/metrics", body: "{}").status == 405)
        #expect(try await harness.request("GET", "/metrics/x").status == 404)
    }
}
