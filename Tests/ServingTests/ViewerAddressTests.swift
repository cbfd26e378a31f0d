import HTTPServing
import Serving
import Testing

/// `--trusted-proxy`: whose address a request is, for `[session.client_ip]` and the beacons' `X-Device-IP`.
@Suite struct ViewerAddressTests {
    static func request(from client: String, forwardedFor: String?) -> HTTPServerRequest {
        HTTPServerRequest(method: "GET", rawPath: "/", query: [], headers: forwardedFor.map { ["x-forwarded-for": $0] } ?? [:],
                          clientAddress: client, body: [])
    }

    @Test(arguments: [
        // A client straight to pipctl: its own address, whatever header it sends.
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),
        // From the trusted proxy: the header's last address.
        ("10.0.0.5", "198.51.100.1", "198.51.100.1"),
        // Past every trusted proxy, from the right: a client's own forged entries on the left are not reached.
        ("10.0.0.5", "1.2.3.4, 198.51.100.1, 10.0.0.6", "198.51.100.1"),
        // IPv6, written canonically.
        ("10.0.0.5", "2001:DB8:0:0::1", "2001:db8::1"),
        // Not an address: the proxy's own is kept rather than believe the rest.
        ("10.0.0.5", "unknown", "10.0.0.5"),
        ("10.0.0.5", "198.51.100.1, <script>", "10.0.0.5"),
        // Every entry a trusted proxy: the leftmost.
        ("10.0.0.5", "10.0.0.6", "10.0.0.6"),
    ])
    func theViewersAddressIsReadPastTrustedProxiesOnly(client: String, header: String, viewer: String) {
        let trusted: Set<String> = ["10.0.0.5", "10.0.0.6"]
        #expect(ViewerAddress.of(Self.request(from: client, forwardedFor: header), trusting: trusted) == viewer)
    }

    @Test func withoutTheHeaderOrWithAnOversizedOneItIsTheConnections() {
        #expect(ViewerAddress.of(Self.request(from: "10.0.0.5", forwardedFor: nil), trusting: ["10.0.0.5"]) == "10.0.0.5")
        let long = Array(repeating: "198.51.100.1", count: 100).joined(separator: ", ")
        #expect(ViewerAddress.of(Self.request(from: "10.0.0.5", forwardedFor: long), trusting: ["10.0.0.5"]) == "10.0.0.5")
    }

    @Test func onlyAddressesAreCanonical() {
        #expect(ViewerAddress.canonical("::ffff:192.0.2.1") == "::ffff:192.0.2.1")
        #expect(ViewerAddress.canonical("0:0:0:0:0:0:0:1") == "::1")
        #expect(ViewerAddress.canonical("192.0.2.1") == "192.0.2.1")
        for bad in ["", "localhost", "192.0.2", "1.2.3.4.5", "::g", String(repeating: "1", count: 100)] {
            #expect(ViewerAddress.canonical(bad) == nil, "\(bad)")
        }
    }
}
