import Foundation
import HTTPServing

/// Whose request it is: the viewer's address for `[session.client_ip]` and the beacons' `X-Device-IP`.
///
/// The connection's own address, unless it comes from a trusted proxy (`--trusted-proxy`: a load balancer, nginx or a
/// CDN's edge in front): then `X-Forwarded-For` is read from its right end, past every trusted proxy, and the first
/// other address is the viewer's. An entry that is not an IP address (or a header over 1 KiB) is not believed: the
/// address before it stays. A client that sends its own `X-Forwarded-For` straight to pipctl is never believed.
public enum ViewerAddress {
    static let maximumHeaderBytes = 1024

    public static func of(_ request: HTTPServerRequest, trusting trusted: [AddressRange]) -> String {
        guard var address = IPAddress(request.clientAddress) else { return request.clientAddress }
        guard trusted.contains(where: { $0.contains(address) }), let header = request.headers["x-forwarded-for"],
              header.utf8.count <= maximumHeaderBytes else { return address.text }
        for entry in header.split(separator: ",").reversed() {
            guard let next = IPAddress(entry.trimmingCharacters(in: .whitespaces)) else { break }
            address = next
            if !trusted.contains(where: { $0.contains(next) }) { break }
        }
        return address.text
    }
}

/// An IPv4 or IPv6 address: its bytes (4 or 16) and its canonical text (`inet_ntop`'s).
public struct IPAddress: Hashable, Sendable {
    public let bytes: [UInt8]
    public let text: String

    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr(), v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &v4) == 1, inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1, inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
        self.text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `--trusted-proxy`'s value: one address, or a network in CIDR notation (`10.0.0.0/8`, `fd00::/8`).
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), String(length) == parts[1], (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        network = address
    }

    /// Whether `address` is of the same family and its first `prefixLength` bits are the network's.
    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        for (i, (a, b)) in zip(address.bytes, network.bytes).enumerated() {
            let bits = min(8, max(0, prefixLength - i * 8))
            let mask = bits == 0 ? UInt8(0) : UInt8(0xFF) << (8 - bits)
            if a & mask != b & mask { return false }
        }
        return true
    }

    public var description: String { prefixLength == network.bytes.count * 8 ? network.text : "\(network.text)/\(prefixLength)" }
}
