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
        let trusted = ["10.0.0.5", "10.0.0.6"].compactMap(AddressRange.init)
        #expect(ViewerAddress.of(Self.request(from: client, forwardedFor: header), trusting: trusted) == viewer)
    }

    @Test func withoutTheHeaderOrWithAnOversizedOneItIsTheConnections() {
        #expect(ViewerAddress.of(Self.request(from: "10.0.0.5", forwardedFor: nil), trusting: [AddressRange("10.0.0.5")!]) == "10.0.0.5")
        let long = Array(repeating: "198.51.100.1", count: 100).joined(separator: ", ")
        #expect(ViewerAddress.of(Self.request(from: "10.0.0.5", forwardedFor: long), trusting: [AddressRange("10.0.0.5")!]) == "10.0.0.5")
    }

    @Test func onlyAddressesAreAddressesAndWrittenCanonically() {
        #expect(IPAddress("::ffff:192.0.2.1")?.text == "::ffff:192.0.2.1")
        #expect(IPAddress("0:0:0:0:0:0:0:1")?.text == "::1")
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        for bad in ["", "localhost", "192.0.2", "1.2.3.4.5", "::g", String(repeating: "1", count: 100)] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    @Test func aNetworkHoldsTheAddressesOfItsPrefix() throws {
        func address(_ text: String) throws -> IPAddress { try #require(IPAddress(text)) }
        let pods = try #require(AddressRange("10.244.0.0/16"))
        let (inside, outside, mapped) = (try address("10.244.3.7"), try address("10.245.0.1"), try address("::ffff:10.244.3.7"))
        #expect(pods.contains(inside) && !pods.contains(outside) && !pods.contains(mapped))
        let odd = try #require(AddressRange("192.168.1.128/25"))
        let (high, low) = (try address("192.168.1.200"), try address("192.168.1.127"))
        #expect(odd.contains(high) && !odd.contains(low))
        let six = try #require(AddressRange("fd00::/8"))
        let (local, link) = (try address("fd12:3456::1"), try address("fe80::1"))
        #expect(six.contains(local) && !six.contains(link))
        let anywhere = try address("203.0.113.1")
        #expect(AddressRange("0.0.0.0/0")?.contains(anywhere) == true)
        for bad in ["10.0.0.0/33", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/-1", "10.0.0.0/08", "fd00::/129", "x/8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
        // Through a network of proxies, the viewer is the first address outside it.
        let request = Self.request(from: "10.244.1.1", forwardedFor: "198.51.100.7, 10.244.9.9")
        #expect(ViewerAddress.of(request, trusting: [pods]) == "198.51.100.7")
    }
}
