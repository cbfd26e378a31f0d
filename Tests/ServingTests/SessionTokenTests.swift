import AdDecisioning
import Foundation
import MediaCore
import Serving
import Testing

private func hexOf(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// What shares a session between instances, without a server: HMAC-SHA256, the signed token, the signed decision
/// record, the secret file.
@Suite struct SessionTokenTests {
    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    static func hex(_ bytes: [UInt8]) -> String { hexOf(bytes) }

    /// RFC 4231, section 4: test cases 1 to 7 (case 5's code is truncated to 128 bits there).
    @Test(arguments: [
        (String(repeating: "0b", count: 20), hexOf(Array("Hi There".utf8)),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (hexOf(Array("Jefe".utf8)), hexOf(Array("what do ya want for nothing?".utf8)),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (hexOf(Array(1...25)), String(repeating: "cd", count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (String(repeating: "0c", count: 20), hexOf(Array("Test With Truncation".utf8)),
         "a3b6167473100ee06e0c796c2955552b"),
        (String(repeating: "aa", count: 131), hexOf(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         hexOf(Array(("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
                    + "hashed before being used by the HMAC algorithm.").utf8)),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func hmacSHA256MatchesRFC4231(key: String, data: String, code: String) {
        let made = Self.hex(HMACSHA256.code(Self.bytes(data), key: Self.bytes(key)))
        #expect(made.prefix(code.count) == code)
    }

    @Test func sameComparesEveryByte() {
        let a: [UInt8] = Array(0..<32)
        #expect(HMACSHA256.same(a, a))
        for i in [0, 17, 31] {
            var b = a
            b[i] ^= 0x01
            #expect(!HMACSHA256.same(a, b))
        }
        #expect(!HMACSHA256.same(a, Array(a.dropLast())))
    }

    static let secret = ServeSecret(key: Array(repeating: 7, count: 64))
    static let token = SessionToken(content: ["show", "master.m3u8"], mode: .guided, parameters: ["genre": "news & sport", "x": "a/b?c"],
                                    userAgent: "TestPlayer/2.0 (é)", clientIP: "::1", nonce: String(repeating: "0123456789abcdef", count: 2),
                                    created: 1_780_000_000)

    @Test func aTokenRoundTripsAndIsURLSafe() throws {
        let text = Self.token.signed(with: Self.secret)
        #expect(text.utf8.allSatisfy { Base64URL.isDigit($0) || $0 == UInt8(ascii: ".") })
        #expect(text.utf8.count < 400, "\(text.utf8.count) bytes")
        #expect(SessionToken(verifying: text, with: Self.secret) == Self.token)
        // The same session signs to the same token (sorted keys), so every instance names it alike.
        #expect(Self.token.signed(with: Self.secret) == text)
    }

    @Test func aTokenFromAnotherSecretTamperedOrTruncatedIsRefused() throws {
        let text = Self.token.signed(with: Self.secret)
        let other = ServeSecret(key: Array(repeating: 8, count: 64))
        #expect(SessionToken(verifying: text, with: other) == nil)
        #expect(SessionToken(verifying: Self.token.signed(with: other), with: Self.secret) == nil)
        // Every single character changed, in the payload and in the code.
        var characters = Array(text)
        for i in characters.indices where characters[i] != "." {
            let kept = characters[i]
            characters[i] = kept == "A" ? "B" : "A"
            #expect(SessionToken(verifying: String(characters), with: Self.secret) == nil, "character \(i)")
            characters[i] = kept
        }
        for cut in [1, 2, 10, text.count / 2, text.count - 1] {
            #expect(SessionToken(verifying: String(text.prefix(cut)), with: Self.secret) == nil)
            #expect(SessionToken(verifying: String(text.dropFirst(cut)), with: Self.secret) == nil)
        }
        // A payload with another's code, and characters outside base64url.
        let payload = text.split(separator: ".")[0], code = text.split(separator: ".")[1]
        let second = SessionToken(content: ["other.m3u8"], mode: .stitched, parameters: [:], userAgent: "", clientIP: "",
                                  nonce: String(repeating: "f", count: 32), created: 0).signed(with: Self.secret)
        #expect(SessionToken(verifying: payload + "." + second.split(separator: ".")[1], with: Self.secret) == nil)
        #expect(SessionToken(verifying: payload + "+." + code, with: Self.secret) == nil)
        #expect(SessionToken(verifying: "", with: Self.secret) == nil)
        #expect(SessionToken(verifying: ".", with: Self.secret) == nil)
    }

    @Test func anOversizedTokenIsRefusedEvenWhenSigned() {
        var big = Self.token
        big.parameters = ["long": String(repeating: "v", count: 4000)]
        let text = big.signed(with: Self.secret)
        #expect(text.utf8.count > SessionToken.maximumBytes)
        #expect(SessionToken(verifying: text, with: Self.secret) == nil)
    }

    @Test func aSignedTokenThatIsNotASessionIsRefused() {
        // Signed, so it passes the code: what it holds is checked all the same.
        for payload in [#"{"c":[],"m":"stitched","p":{},"u":"","i":"","n":"0123456789abcdef0123456789abcdef","t":0}"#,
                        #"{"c":["a"],"m":"stitched","p":{},"u":"","i":"","n":"../../etc","t":0}"#,
                        #"{"c":["a"],"m":"sideways","p":{},"u":"","i":"","n":"0123456789abcdef0123456789abcdef","t":0}"#, "[]"] {
            let encoded = Base64URL.encode(Array(payload.utf8))
            let text = encoded + "." + Base64URL.encode(Self.secret.sign(SessionToken.domain, Array(encoded.utf8)))
            #expect(SessionToken(verifying: text, with: Self.secret) == nil, "\(payload)")
        }
    }

    static func sharedSessions(idleTimeout: Duration = .seconds(3600)) throws -> (SharedSessions, String) {
        let cache = try ServeStitchTests.temporaryCache()
        return (SharedSessions(try SessionSharing(secret: secret, cacheDirectory: cache), idleTimeout: idleTimeout), cache)
    }

    /// A decision as a record holds it: a pre-roll of 30030/1001 s with its beacons, a mid-roll at 11/2 s, a post-roll.
    static let decisionJSON = #"""
    {"breaks":[{"ads":[{"beacons":[{"event":"impression","urls":["http://t/i?x=[ADPLAYHEAD]"]},{"event":"start","urls":["http://t/s"]}],
    "duration":"30030/1001","id":"a","media":"http://ads/a.mp4","title":"A"}],"position":"preroll"},
    {"ads":[{"beacons":[],"localMedia":"/m/b.mp4"}],"position":"midroll","time":"11/2"},{"ads":[],"position":"postroll"}],
    "errors":["303: no ads"],"outcome":{"decided":{"kind":"vmap"}}}
    """#
    static let decision = try! JSONDecoder().decode(SessionAds.self, from: Data(decisionJSON.utf8))

    static func same(_ a: SessionAds, _ b: SessionAds) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(a)) == (try? encoder.encode(b)) && a.breaks.map(\.position) == b.breaks.map(\.position)
    }

    @Test func aDecisionIsRecordedOnceAndReadBackExactly() async throws {
        let (shared, cache) = try Self.sharedSessions()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let nonce = String(repeating: "ab", count: 16)
        let asked = LockedState(0)
        let first = await shared.decision(nonce, wait: .seconds(60)) {
            asked.withLock { $0 += 1 }
            return Self.decision
        }
        #expect(Self.same(first, Self.decision))
        let read = try #require(shared.record(nonce))
        #expect(Self.same(read, Self.decision))
        #expect(read.breaks[0].ads[0].duration == MediaDuration(seconds: Rational(30030, 1001)))
        #expect(read.breaks[1].position == .midroll(MediaTime(seconds: Rational(11, 2))))
        #expect(read.breaks[0].ads[0].beacons.map(\.event) == ["impression", "start"])
        #expect(read.breaks[0].ads[0].beacons.map(\.urls) == [["http://t/i?x=[ADPLAYHEAD]"], ["http://t/s"]])
        #expect(read.breaks[1].ads[0].localMedia == "/m/b.mp4" && read.breaks[1].ads[0].duration == nil)
        #expect(read.breaks[2].position == .postroll && read.errors == ["303: no ads"] && read.outcome == .decided(kind: "vmap"))
        // Another instance (the same folder) reads it instead of deciding.
        let again = await SharedSessions(try SessionSharing(secret: Self.secret, cacheDirectory: cache), idleTimeout: .seconds(3600))
            .decision(nonce, wait: .seconds(60)) {
                asked.withLock { $0 += 1 }
                return .none("asked twice")
            }
        #expect(Self.same(again, Self.decision))
        #expect(asked.withLock { $0 } == 1)
    }

    @Test func decidersAtTheSameTimeAgreeOnOneDecision() async throws {
        let (shared, cache) = try Self.sharedSessions()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let nonce = String(repeating: "cd", count: 16)
        let asked = LockedState(0)
        let answers = await withTaskGroup(of: SessionAds.self) { group in
            for n in 0..<8 {
                group.addTask {
                    await shared.decision(nonce, wait: .seconds(60)) {
                        asked.withLock { $0 += 1 }
                        return .none("decider \(n)")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(asked.withLock { $0 } == 1)
        #expect(Set(answers.map { "\($0.outcome)" }).count == 1)
    }

    @Test func aRecordThatIsTamperedMovedSignedByAnotherOrOversizedIsNotTrusted() async throws {
        let (shared, cache) = try Self.sharedSessions()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let nonce = String(repeating: "12", count: 16), other = String(repeating: "34", count: 16)
        _ = await shared.decision(nonce, wait: .seconds(60)) { Self.decision }
        let file = shared.folder(nonce) + "/decision"
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(shared.record(nonce) != nil)
        // Another session's folder: the code names the session.
        try FileManager.default.createDirectory(atPath: shared.folder(other), withIntermediateDirectories: true)
        try original.write(to: URL(fileURLWithPath: shared.folder(other) + "/decision"))
        #expect(shared.record(other) == nil)
        // One byte of the JSON changed.
        var tampered = original
        tampered[tampered.count - 3] ^= 0x01
        try tampered.write(to: URL(fileURLWithPath: file))
        #expect(shared.record(nonce) == nil)
        // Signed with another secret.
        let stranger = SharedSessions(try SessionSharing(secret: ServeSecret(key: Array(repeating: 9, count: 64)), cacheDirectory: cache), idleTimeout: .seconds(3600))
        try Data(try #require(stranger.recordBytes(Self.decision, nonce))).write(to: URL(fileURLWithPath: file))
        #expect(shared.record(nonce) == nil)
        // Over the bound, even when signed.
        try (original + Data(count: SharedSessions.maximumRecordBytes)).write(to: URL(fileURLWithPath: file))
        #expect(shared.record(nonce) == nil)
        // Truncated.
        try original.prefix(70).write(to: URL(fileURLWithPath: file))
        #expect(shared.record(nonce) == nil)
        // An untrusted record is decided again, under the lock, and replaced.
        let decided = await shared.decision(nonce, wait: .seconds(60)) { .none("decided again") }
        #expect(decided.outcome == .noAds(reason: "decided again"))
        #expect(shared.record(nonce)?.outcome == .noAds(reason: "decided again"))
    }

    @Test func eachBeaconIsClaimedOnceAcrossInstances() throws {
        let (shared, cache) = try Self.sharedSessions()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let other = SharedSessions(try SessionSharing(secret: Self.secret, cacheDirectory: cache), idleTimeout: .seconds(3600))
        let nonce = String(repeating: "56", count: 16)
        let here = SessionBeacons(shared: shared, nonce: nonce), there = SessionBeacons(shared: other, nonce: nonce)
        #expect(here.claim(["impression", "start"], break: 0, ad: 0) == ["impression", "start"])
        #expect(there.claim(["impression", "start", "midpoint"], break: 0, ad: 0) == ["midpoint"])
        #expect(there.claim(["impression"], break: 1, ad: 0) == ["impression"])
        #expect(here.claim(["impression", "start", "midpoint"], break: 0, ad: 0).isEmpty)
        // Sessions in memory keep their own.
        let memory = SessionBeacons(nonce: nonce)
        #expect(memory.claim(["impression"], break: 0, ad: 0) == ["impression"])
    }

    @Test func sessionsUnusedForTheIdleTimeoutExpireAndAreSwept() async throws {
        let (shared, cache) = try Self.sharedSessions(idleTimeout: .seconds(600))
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let now = Int64(time(nil))
        let old = String(repeating: "77", count: 16), recent = String(repeating: "88", count: 16)
        for nonce in [old, recent] { _ = await shared.decision(nonce, wait: .seconds(60)) { Self.decision } }
        #expect(shared.isLive(old, created: now))
        // Last used 11 minutes ago: expired, whenever it was made.
        var times = [timeval(tv_sec: time_t(now - 660), tv_usec: 0), timeval(tv_sec: time_t(now - 660), tv_usec: 0)]
        #expect(utimes(shared.folder(old) + "/decision", &times) == 0)
        #expect(!shared.isLive(old, created: now))
        #expect(shared.isLive(recent, created: now - 100_000))
        // Touched (served by some instance): live again.
        shared.touch(old)
        #expect(shared.isLive(old, created: now))
        #expect(utimes(shared.folder(old) + "/decision", &times) == 0)
        // A token without a record is live while it is younger than the timeout.
        #expect(shared.isLive(String(repeating: "99", count: 16), created: now - 60))
        #expect(!shared.isLive(String(repeating: "99", count: 16), created: now - 660))
        #expect(shared.sweep(now: now) == 1)
        #expect(!FileManager.default.fileExists(atPath: shared.folder(old)))
        #expect(FileManager.default.fileExists(atPath: shared.folder(recent) + "/decision"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.directory).filter { !$0.hasPrefix(".sweep") } == [recent])
    }

    /// One file of `contents` (nil: none) with `mode`, and the error `ServeSecret` gives for it.
    static func secretError(_ contents: Data?, mode: Int = 0o600) throws -> String? {
        let directory = try ServeStitchTests.temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/secret"
        if let contents {
            #expect(FileManager.default.createFile(atPath: file, contents: contents))
            #expect(chmod(file, mode_t(mode)) == 0)
        }
        do {
            _ = try ServeSecret(file: file)
            return nil
        } catch {
            return error.description.replacingOccurrences(of: file, with: "FILE")
        }
    }

    @Test func aSecretFileMustBeOwnersOnlyAndLongEnough() throws {
        #expect(try Self.secretError(Data(count: 64)) == nil)
        #expect(try Self.secretError(Data(count: 32)) == nil)
        #expect(try Self.secretError(nil) == "--secret-file FILE: No such file or directory")
        #expect(try Self.secretError(Data()) == "--secret-file FILE: empty (head -c 64 /dev/urandom > FILE; chmod 600 FILE)")
        #expect(try Self.secretError(Data(count: 31)) == "--secret-file FILE: 31 bytes; a secret has 32 to 4096 (head -c 64 /dev/urandom > FILE)")
        #expect(try Self.secretError(Data(count: 64), mode: 0o644) == "--secret-file FILE: readable by others (mode 644); chmod 600 it")
        #expect(try Self.secretError(Data(count: 64), mode: 0o660) == "--secret-file FILE: readable by others (mode 660); chmod 600 it")
        #expect(try Self.secretError(Data(count: 64), mode: 0o604) == "--secret-file FILE: readable by others (mode 604); chmod 600 it")
        #expect(try Self.secretError(Data(count: 64), mode: 0o400) == nil)
        // A Kubernetes Secret in a pod with an fsGroup: readable by the pod's group.
        #expect(try Self.secretError(Data(count: 64), mode: 0o440) == nil)
        #expect(try Self.secretError(Data(count: 64), mode: 0o640) == nil)
    }
}
