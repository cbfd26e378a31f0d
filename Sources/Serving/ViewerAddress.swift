import Foundation
import HTTPServing

/// Whose request it is: the viewer's address for `[session.client_ip]` and the beacons' `X-Device-IP`.
///
/// The connection's own address, unless it comes from one of the `trusted` proxies (`--trusted-proxy`, a load
/// balancer or CDN in front): then `X-Forwarded-For` is read from its right end, past every trusted proxy, and the
/// first other address is the viewer's. An entry that is not an IP address (or a header over 1 KiB) is not believed:
/// the address before it stays. A client that sends its own `X-Forwarded-For` straight to pipctl is never believed.
public enum ViewerAddress {
    static let maximumHeaderBytes = 1024

    public static func of(_ request: HTTPServerRequest, trusting trusted: Set<String>) -> String {
        var address = canonical(request.clientAddress) ?? request.clientAddress
        guard trusted.contains(address), let header = request.headers["x-forwarded-for"],
              header.utf8.count <= maximumHeaderBytes else { return address }
        for entry in header.split(separator: ",").reversed() {
            guard let next = canonical(entry.trimmingCharacters(in: .whitespaces)) else { break }
            address = next
            if !trusted.contains(next) { break }
        }
        return address
    }

    /// An IPv4 or IPv6 address literal in its canonical text (`inet_ntop`'s), or nil when it is not one.
    public static func canonical(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr(), v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        func written(_ ok: Bool) -> String? {
            guard ok else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if inet_pton(AF_INET, text, &v4) == 1 { return written(inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil) }
        if inet_pton(AF_INET6, text, &v6) == 1 { return written(inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil) }
        return nil
    }
}
