import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct LoopbackHTTPServerTests {
    @Test func servesRoutesAndRecordsRequests() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/vast.xml", .xml("<VAST/>"))
        let (data, response) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("vast.xml"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "<VAST/>")
        let (_, missing) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("nope"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect(server.requests.map(\.target) == ["/vast.xml", "/nope"])
    }
}
