import Foundation
import FuzzSupport
import Serving

/// Fuzz target `serveshared`: what `pipctl serve --secret-file` reads back from URLs and from the shared folder
/// (docs/SERVE.md, "Several instances"). The input is three pieces cut at NUL bytes:
/// 1. a session id as a URL carries it: `SessionToken(verifying:)` must refuse it or give a token, never crash;
/// 2. a token's payload (JSON), signed here with the fuzz secret as an instance would (or as one whose secret leaked
///    could): a payload that verifies gives a well-formed token, which signs and verifies again to itself;
/// 3. a decision record's JSON, signed for a session here: `SharedSessions.decodeRecord` refuses it or gives a
///    decision that records and reads back the same, and the same record read for another session is refused.
let secret = ServeSecret(key: Array(repeating: 0x5A, count: ServeSecret.minimumBytes))
let nonce = "0123456789abcdef0123456789abcdef"

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzServeShared(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let pieces = FuzzInput.pieces(UnsafeRawBufferPointer(start: data, count: size), limit: 3)
    if let token = SessionToken(verifying: String(decoding: pieces[0], as: UTF8.self), with: secret) {
        _ = token.signed(with: secret)
    }
    if pieces.count > 1 {
        let payload = Base64URL.encode(Array(pieces[1]))
        let text = payload + "." + Base64URL.encode(secret.sign(SessionToken.domain, Array(payload.utf8)))
        if let token = SessionToken(verifying: text, with: secret) {
            let again = token.signed(with: secret)
            guard again.utf8.count > SessionToken.maximumBytes || SessionToken(verifying: again, with: secret) == token else {
                fatalError("a verified token does not sign and verify to itself: \(text.prefix(200))")
            }
        }
    }
    if pieces.count > 2 {
        let json = Array(pieces[2])
        let code = secret.sign(SharedSessions.recordDomain, Array(nonce.utf8) + [0] + json)
        let record = Array(code.map { String(format: "%02x", $0) }.joined().utf8) + [0x0A] + json
        if let decision = SharedSessions.decodeRecord(record, nonce: nonce, secret: secret) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let first = try? encoder.encode(decision) else { fatalError("a decision read back does not encode") }
            let recode = secret.sign(SharedSessions.recordDomain, Array(nonce.utf8) + [0] + Array(first))
            let rerecord = Array(recode.map { String(format: "%02x", $0) }.joined().utf8) + [0x0A] + Array(first)
            guard let again = SharedSessions.decodeRecord(rerecord, nonce: nonce, secret: secret),
                  (try? encoder.encode(again)) == first else {
                fatalError("a decision read back does not record and read back the same: \(String(decoding: json.prefix(200), as: UTF8.self))")
            }
            guard SharedSessions.decodeRecord(record, nonce: String(nonce.reversed()), secret: secret) == nil else {
                fatalError("another session's record was accepted")
            }
        }
    }
    return 0
}

FuzzDriver.run { fuzzServeShared($0, $1) }
