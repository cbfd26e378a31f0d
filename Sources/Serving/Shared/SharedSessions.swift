import AdPlayback
import Foundation
import MediaCore

/// `--secret-file` with `--cache DIR`: what every instance started with both shares about each session, in
/// `DIR/sessions/NONCE/` (docs/SERVE.md, "Several instances"):
///
/// - `decision`: the ad decision, made by the first instance that needs it under the session's `lock` (a `flock`),
///   written to a temporary file and renamed into place, signed with the secret (`CODE\nJSON`); every other instance
///   reads it instead of asking the ad server. Read back only when it is at most `maximumRecordBytes`, its code is
///   the secret's for this session, and it decodes.
/// - `beacons`: one line `B-A-EVENT` per beacon sent, appended by the one instance that sends it, which read the
///   file under its exclusive `flock` and found no such line (one file per session: creating a file per beacon
///   made a server spend a sixth of its CPU in the file system's inode allocation).
///
/// A session's last use is its `decision`'s modification time, touched at most every `touchInterval` by each
/// instance that serves it. A session unused for `idleTimeout` is expired everywhere, and its folder is removed
/// (renamed aside first) by the next sweep: one instance at a time, at most every `sweepInterval`.
package final class SharedSessions: Sendable {
    package static let maximumRecordBytes = 1 << 20
    package static let recordDomain = "pipctl-session-record-v1"
    package let secret: ServeSecret
    /// `DIR/sessions`.
    package let directory: String
    let idleTimeout: Duration
    private let lastSweep = LockedState<ContinuousClock.Instant?>(nil)

    package init(_ sharing: SessionSharing, idleTimeout: Duration) {
        secret = sharing.secret
        directory = sharing.directory
        self.idleTimeout = idleTimeout
    }

    /// Session `nonce`'s folder (a nonce is 32 hex digits from a checked token).
    package func folder(_ nonce: String) -> String { directory + "/" + nonce }

    /// How often an instance touches a session's record when it serves it: its last use, for every instance.
    var touchInterval: Duration { min(.seconds(60), idleTimeout / 4) }
    var sweepInterval: Duration { min(.seconds(600), idleTimeout) }

    // MARK: The decision

    /// Session `nonce`'s decision: its record's, else `decide`'s, recorded for the others. The first instance to
    /// get the session's lock decides; one that finds the lock taken waits for it (up to `wait`) and reads the
    /// winner's record.
    package func decision(_ nonce: String, wait: Duration, decide: @Sendable () async -> SessionAds) async -> SessionAds {
        if let recorded = record(nonce) { return recorded }
        mkdir(folder(nonce), 0o755)
        let lock: FileLock
        switch await FileLock.acquire(folder(nonce) + "/lock", until: .now + wait) {
        case .success(let taken): lock = taken
        case .failure(let failure): return .none("the shared session's lock was not taken (\(failure))")
        }
        defer { lock.release() }
        if let recorded = record(nonce) { return recorded }
        let decided = await decide()
        return write(decided, nonce) ? decided : .none("the decision could not be recorded in \(directory.excerpt)")
    }

    /// The record's bytes: the code (64 hex digits), a newline, the JSON.
    package func recordBytes(_ ads: SessionAds, _ nonce: String) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(ads) else { return nil }
        let code = secret.sign(Self.recordDomain, Array(nonce.utf8) + [0] + Array(json))
        let bytes = Array(code.map { String(format: "%02x", $0) }.joined().utf8) + [0x0A] + Array(json)
        return bytes.count <= Self.maximumRecordBytes ? bytes : nil
    }

    /// Writes session `nonce`'s decision: temporary file, then renamed into place (a reader finds all of it or
    /// none). A decision over the bound is recorded as no ads, the same for everyone.
    private func write(_ ads: SessionAds, _ nonce: String) -> Bool {
        guard let bytes = recordBytes(ads, nonce) ?? recordBytes(.none("the decision is over \(Self.maximumRecordBytes) bytes"), nonce) else { return false }
        let temporary = folder(nonce) + "/.decision-" + SessionStore.newID().prefix(8)
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o644]) else { return false }
        guard rename(temporary, folder(nonce) + "/decision") == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Session `nonce`'s recorded decision, when it is there, within the bound, signed for this session with the
    /// secret, and decodes; nil otherwise (then it is decided again, under the lock, and replaced).
    package func record(_ nonce: String) -> SessionAds? {
        let file = folder(nonce) + "/decision"
        guard let size = StitchCache.regularFileSize(file), size <= Self.maximumRecordBytes,
              let data = FileManager.default.contents(atPath: file) else { return nil }
        return Self.decodeRecord(Array(data), nonce: nonce, secret: secret)
    }

    /// A record's bytes as `recordBytes` writes them, for session `nonce`: its code checked under `secret` before
    /// its JSON is decoded; nil for anything else (over the bound, another session's, tampered with, truncated).
    package static func decodeRecord(_ bytes: [UInt8], nonce: String, secret: ServeSecret) -> SessionAds? {
        guard bytes.count <= maximumRecordBytes, bytes.count > 65, bytes[64] == 0x0A, let code = hexBytes(bytes[..<64]) else { return nil }
        let json = Array(bytes[65...])
        guard HMACSHA256.same(code, secret.sign(recordDomain, Array(nonce.utf8) + [0] + json)) else { return nil }
        return try? JSONDecoder().decode(SessionAds.self, from: Data(json))
    }

    static func hexBytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        guard text.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            guard let high = nibble(text[i]), let low = nibble(text[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    // MARK: Beacons

    /// The most bytes of a session's `beacons` file read (a line per beacon sent: far more than any session's).
    static let maximumBeaconBytes = 1 << 20

    /// Claims each of `markers` (`B-A-EVENT`) of session `nonce` for this instance: true for each no instance had
    /// claimed, now this one's, false for the others. Under an exclusive `flock` of the session's `beacons` file, its
    /// lines are read and the new markers appended. All false when the file cannot be used (a beacon is never sent
    /// twice).
    package func claim(_ markers: [String], _ nonce: String) -> [Bool] {
        let refused = markers.map { _ in false }
        guard !markers.isEmpty else { return [] }
        mkdir(folder(nonce), 0o755)
        let fd = open(folder(nonce) + "/beacons", O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return refused }
        defer { close(fd) }  // which releases the lock
        guard flock(fd, LOCK_EX) == 0 else { return refused }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count <= Self.maximumBeaconBytes {
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= Self.maximumBeaconBytes else { return refused }
        var sent = Set(bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) })
        let claimed = markers.map { sent.insert($0).inserted }
        let lines = Array(zip(markers, claimed).filter(\.1).map { $0.0 + "\n" }.joined().utf8)
        guard !lines.isEmpty else { return claimed }
        // A short write leaves those markers claimed by no one: not sent, rather than sent twice.
        return Glibc.write(fd, lines, lines.count) == lines.count ? claimed : refused
    }

    // MARK: Expiry

    /// Whether session `nonce` (made at `created`, seconds since 1970) is still live at `now`: used within the idle
    /// timeout (its record's time), or made within it when it has no record yet.
    package func isLive(_ nonce: String, created: Int64, now: Int64 = Int64(time(nil))) -> Bool {
        var info = stat()
        let lastUse = stat(folder(nonce) + "/decision", &info) == 0 ? Int64(info.st_mtim.tv_sec) : created
        return .seconds(now - lastUse) <= idleTimeout
    }

    /// Marks session `nonce` as used now, for every instance.
    package func touch(_ nonce: String) {
        _ = utimes(folder(nonce) + "/decision", nil)
    }

    /// Removes the folders of sessions unused for the idle timeout, when no sweep ran in this process within
    /// `sweepInterval` and no other process is sweeping; in the background.
    func sweepWhenDue(_ clock: any WallClock) {
        let now = clock.now
        let due = lastSweep.withLock { last -> Bool in
            if let last, now - last < sweepInterval { return false }
            last = now
            return true
        }
        guard due else { return }
        Task.detached(priority: .background) { _ = self.sweep() }
    }

    /// Removes the folders of the sessions unused for the idle timeout at `now` (renamed aside first, so that no
    /// instance reads half of one), and what a crashed sweep left; the number removed. One process at a time.
    @discardableResult
    package func sweep(now: Int64 = Int64(time(nil))) -> Int {
        guard let sweeping = FileLock.tryAcquire(directory + "/.sweep.lock") else { return 0 }
        defer { sweeping.release() }
        let fm = FileManager.default
        var removed = 0
        for name in (try? fm.contentsOfDirectory(atPath: directory)) ?? [] {
            if name.hasPrefix(".expired-") {
                try? fm.removeItem(atPath: directory + "/" + name)
                continue
            }
            guard name.utf8.count == 32, !name.hasPrefix(".") else { continue }
            var info = stat()
            let place = folder(name)
            let used = stat(place + "/decision", &info) == 0 || stat(place, &info) == 0 ? Int64(info.st_mtim.tv_sec) : now
            guard .seconds(now - used) > idleTimeout else { continue }
            let aside = directory + "/.expired-" + SessionStore.newID()
            guard rename(place, aside) == 0 else { continue }
            try? fm.removeItem(atPath: aside)
            removed += 1
        }
        return removed
    }
}

/// `--secret-file` with `--cache DIR`: the secret the instances sign their sessions with and the folder they keep
/// them in, `DIR/sessions`.
public struct SessionSharing: Sendable {
    public let secret: ServeSecret
    public let directory: String

    /// - Throws: `ServeSetupError` when `cacheDirectory/sessions` cannot be made.
    public init(secret: ServeSecret, cacheDirectory: String) throws(ServeSetupError) {
        self.secret = secret
        directory = cacheDirectory + "/sessions"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ServeSetupError("--cache \(cacheDirectory.excerpt): cannot make sessions/: \((error as NSError).localizedDescription)")
        }
    }
}
