import Foundation
import FoundationXML
import Testing
@testable import Batch

@Suite struct BatchSummaryTests {
    func shard(_ index: Int, of count: Int, _ jobs: [BatchSummary.JobResult], digest: String = "d1") throws -> BatchSummary {
        BatchSummary(manifest: "m.jsonl", manifestDigest: digest, shard: try BatchShard(index: index, count: count), jobs: jobs)
    }

    @Test func mergesShardsIntoOneSummaryInLineOrder() throws {
        let a = try shard(0, of: 2, [.init(id: "x", line: 3, status: .rendered, exitCode: 0, frames: 10, seconds: 1.5),
                                     .init(id: nil, line: 1, status: .invalid, error: "line 1: not a JSON object")])
        let b = try shard(1, of: 2, [.init(id: "y", line: 2, status: .failed, exitCode: 1, error: "boom")])
        let merged = try BatchSummary.merge([("a.json", a), ("b.json", b)])
        #expect(merged.jobs.map(\.line) == [1, 2, 3])
        #expect(merged.shard == nil)
        #expect(merged.mergedShards == [0, 1])
        #expect(merged.failures == 2)
        #expect(merged.counts[.rendered] == 1)
        // It survives a round trip through its JSON.
        let decoded = try JSONDecoder().decode(BatchSummary.self, from: merged.json())
        #expect(decoded == merged)
    }

    @Test func refusesMissingRepeatedOrForeignShards() throws {
        let a = try shard(0, of: 3, [])
        let b = try shard(1, of: 3, [])
        #expect(throws: BatchSummary.MergeProblem("shard 2/3 missing: its summary was not given")) {
            try BatchSummary.merge([("a", a), ("b", b)])
        }
        #expect(throws: BatchSummary.MergeProblem("b2 and a are both shard 0/3")) {
            try BatchSummary.merge([("a", a), ("b2", a)])
        }
        #expect(throws: BatchSummary.MergeProblem("c is a summary of another manifest (or another version of it) than a")) {
            try BatchSummary.merge([("a", a), ("c", try shard(2, of: 3, [], digest: "d2"))])
        }
        #expect(throws: BatchSummary.MergeProblem("d is shard 1/2 but a splits the manifest into 3")) {
            try BatchSummary.merge([("a", a), ("d", try shard(1, of: 2, []))])
        }
        let whole = BatchSummary(manifest: "m.jsonl", manifestDigest: "d1", shard: nil, jobs: [])
        #expect(throws: BatchSummary.MergeProblem.self) { try BatchSummary.merge([("w", whole)]) }
        let dup = try shard(2, of: 3, [.init(id: "x", line: 4, status: .rendered)])
        #expect(throws: BatchSummary.MergeProblem(#""x" is in both e and f"#)) {
            try BatchSummary.merge([("a", a), ("b", b), ("e", dup), ("f", try shard(1, of: 3, [.init(id: "x", line: 4, status: .rendered)]))].filter { $0.0 != "b" })
        }
    }

    @Test func theJUnitReportParsesAndCountsFailuresAndSkips() throws {
        let summary = BatchSummary(manifest: "titles.jsonl", manifestDigest: "d", shard: nil, jobs: [
            .init(id: "ok", line: 1, status: .rendered, exitCode: 0, seconds: 2),
            .init(id: "bad <&> \"q\"", line: 2, status: .failed, exitCode: 1, error: "c.mp4: no such file\u{1}"),
            .init(id: nil, line: 3, status: .invalid, error: "line 3: id: missing"),
            .init(id: "same", line: 4, status: .upToDate),
        ])
        let xml = JUnitReport.xml(summary)
        let document = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let cases = try document.nodes(forXPath: "//testcase") as! [XMLElement]
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["ok", "bad <&> \"q\"", "line 3", "same"])
        let failures = try document.nodes(forXPath: "//testcase/failure") as! [XMLElement]
        #expect(failures.map { $0.attribute(forName: "message")?.stringValue } == ["c.mp4: no such file\u{FFFD}", "line 3: id: missing"])
        #expect(failures.map { $0.attribute(forName: "type")?.stringValue } == ["render", "invalid"])
        #expect(try document.nodes(forXPath: "//testcase[@name='same']/skipped").count == 1)
    }
}
