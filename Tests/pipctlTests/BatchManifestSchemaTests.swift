import Foundation
import Testing

/// docs/batch-manifest.schema.json says what the manifest parser accepts: lines that `pipctl batch --dry-run` reads
/// as jobs are valid against the schema (checked by Python's jsonschema, an independent validator), and lines it
/// refuses for their shape are not.
@Suite struct BatchManifestSchemaTests {
    static let schema = PipctlProcess.repositoryRoot.appendingPathComponent("docs/batch-manifest.schema.json").path

    static let valid = [
        #"{"id": "a", "content": "c.mp4", "ads": "s.xml", "output": "a.mp4"}"#,
        #"{"id": "b", "content": "c.mp4", "breaks": ["pre=x.mp4", "50%=y.mp4,z.mp4"], "output": "b.mp4", "options": {"fps": 30, "size": "640x360", "no-preroll": true, "passthrough": true, "cue-points": "10,20"}}"#,
        #"{"id": "s", "session": "s.session.json", "output": "s.mp4", "options": {"fps": 25}}"#,
    ]
    static let invalid = [
        #"{"id": "c", "content": "c.mp4", "output": "c.mp4"}"#,
        #"{"id": "d", "content": "c.mp4", "ads": "s.xml", "breaks": ["pre=x.mp4"], "output": "d.mp4"}"#,
        #"{"id": "e", "content": "c.mp4", "ads": "s.xml", "output": "e.mp4", "extra": 1}"#,
        #"{"id": "", "content": "c.mp4", "ads": "s.xml", "output": "f.mp4"}"#,
        #"{"id": "g", "content": "c.mp4", "breaks": [], "output": "g.mp4"}"#,
        #"{"id": "h", "content": "c.mp4", "ads": "s.xml", "output": "h.mp4", "options": {"fps": {"n": 1}}}"#,
        #"{"id": "i", "content": "c.mp4", "ads": "s.xml", "output": "i.mp4", "options": {"output": "x.mp4"}}"#,
        #"{"id": 7, "content": "c.mp4", "ads": "s.xml", "output": "j.mp4"}"#,
        #"{"id": "k", "session": "s.session.json", "content": "c.mp4", "output": "k.mp4"}"#,
        #"{"id": "l", "session": "s.session.json", "breaks": ["pre=x.mp4"], "output": "l.mp4"}"#,
        #"{"id": "m", "ads": "s.xml", "output": "m.mp4"}"#,
        #"{"id": "n", "content": "c.mp4", "ads": "s.xml", "output": "n.mp4", "options": {"session": "s.session.json"}}"#,
    ]

    /// The schema's verdict on each line, by Python's jsonschema.
    func schemaVerdicts(_ lines: [String]) throws -> [Bool] {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            v = jsonschema.Draft202012Validator(schema)
            for line in sys.stdin.read().splitlines():
                print("valid" if v.is_valid(json.loads(line)) else "invalid")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, Self.schema]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(lines.joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.split(separator: "\n").map { $0 == "valid" }
    }

    /// What `pipctl batch --dry-run` makes of each line: a job to render, or invalid.
    func parserVerdicts(_ lines: [String]) async throws -> [Bool] {
        let dir = try ScratchDirectory()
        let manifest = try dir.write(lines.joined(separator: "\n"), to: "m.jsonl")
        let result = try await PipctlProcess.run(["batch", manifest, "--dry-run"])
        #expect(result.exitStatus == 0)
        // The inputs do not exist: a job the parser accepts would render, or fail for its missing input.
        return result.standardOutput.split(separator: "\n").map { $0.hasPrefix("to render") || $0.hasPrefix("would fail") }
    }

    @Test func theSchemaAndTheParserAgreeOnEveryLine() async throws {
        let lines = Self.valid + Self.invalid
        let expected = Self.valid.map { _ in true } + Self.invalid.map { _ in false }
        #expect(try schemaVerdicts(lines) == expected)
        #expect(try await parserVerdicts(lines) == expected)
    }
}
