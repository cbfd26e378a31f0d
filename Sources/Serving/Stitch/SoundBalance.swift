import Foundation
import MediaCore

/// Keeps a stitched rendition's sound in step with its pictures for a reader that plays the segments' sound one after
/// the other (the ffmpeg tool over HTTP), as well as for one that places it by presentation time (MSE players).
///
/// At each splice, the sound before ends some samples past its last picture's end, and the sound after starts some
/// samples before its first picture: their sum is the splice's overlap (negative, a gap), what an MSE player hears.
/// Within a run of content or of one ad, sound and pictures run on together, so a reader that plays the sound one
/// after the other is off, anywhere in the stream, by the sum of the overlaps of every splice before it. A conditioned
/// ad's sound is whole AAC frames and ends up to half a frame from its last picture's end, so that sum would grow with
/// each ad. Each ad also has an alternate ending: its last segment with one packet more or fewer
/// (`AdConditioner`'s `alternateLast`). The session takes, ad by ad in the stream's order, the ending that brings the
/// sum after the ad nearest to zero, among those that keep the splice after it within one AAC frame; so the sum stays
/// within about half a frame, where the ads allow it (docs/SERVE.md, "The sound").
package enum SoundBalance {
    /// One ad, in the stream's order, in samples.
    package struct Ad: Equatable, Sendable {
        /// The overlap of the splice into the ad from the content before it; zero after another ad (that splice is
        /// the other ad's `nextLead` and ending) or at the stream's start.
        package var spliceIn: Rational
        /// How far past its last picture's end its sound ends (negative, before it), with its own ending and with the
        /// alternate.
        package var overrun: Rational
        package var alternateOverrun: Rational?
        /// How long before its first picture the sound of what follows the ad starts; zero at the stream's end.
        package var nextLead: Rational

        package init(spliceIn: Rational, overrun: Rational, alternateOverrun: Rational?, nextLead: Rational) {
            self.spliceIn = spliceIn
            self.overrun = overrun
            self.alternateOverrun = alternateOverrun
            self.nextLead = nextLead
        }
    }

    /// One AAC frame, in samples.
    package static let frame = Rational(1024)

    /// For each ad, whether it takes its alternate ending.
    package static func choose(_ ads: [Ad]) -> [Bool] {
        var sum = Rational.zero
        return ads.map { ad in
            sum += ad.spliceIn
            var options = [(alternate: false, overrun: ad.overrun)]
            if let other = ad.alternateOverrun { options.append((alternate: true, overrun: other)) }
            func splice(_ overrun: Rational) -> Rational { overrun + ad.nextLead }
            let inStep = options.filter { magnitude(splice($0.overrun)) <= frame }
            let chosen = inStep.isEmpty ? options.min { magnitude(splice($0.overrun)) < magnitude(splice($1.overrun)) }!
                : inStep.min { magnitude(sum + splice($0.overrun)) < magnitude(sum + splice($1.overrun)) }!
            sum += splice(chosen.overrun)
            return chosen.alternate
        }
    }

    package static func magnitude(_ value: Rational) -> Rational { value < .zero ? .zero - value : value }
}

/// Each rendition's choice of endings by what it depends on, so that the sessions of a popular title, whose breaks
/// hold the same ads, count no sound again: the files around its ads (a cache piece by its URL, content-addressed; an
/// origin segment by its path, size and time).
final class SoundBalanceMemo: Sendable {
    static let maximumEntries = 4096
    private let known = LockedState([String: [Bool]]())

    func choice(_ key: String) -> [Bool]? { known.withLock { $0[key] } }

    func remember(_ key: String, _ choice: [Bool]) {
        known.withLock { all in
            if all.count >= Self.maximumEntries { all.removeAll() }
            all[key] = choice
        }
    }
}

extension BreakStitcher {
    /// The stream's files in order, each ad's as one item: what follows an ad is the next item's first file.
    private enum Item {
        case content(String)
        case ad(break: Int, ad: Int)

        var isAd: Bool { if case .ad = self { true } else { false } }
    }

    /// Gives each ad of `breaks` the ending `SoundBalance` chooses, rendition by rendition, from the sound its
    /// segments and those around it hold (counted once per file and kept in the cache, as a timeline counts it; the
    /// choice remembered by what it depends on).
    ///
    /// - Returns: why a rendition's endings are left as conditioned (a segment whose sound cannot be counted).
    func balanceSound(_ breaks: inout [StitchedBreak], content: OriginContent, media: [RenditionMedia]) async -> [String] {
        var notes: [String] = []
        for r in content.renditions.indices where media.indices.contains(r) {
            let items = streamItems(breaks, rendition: r, content: content)
            var places: [(break: Int, ad: Int)] = [], key: [String] = ["\(media[r].sampleRate)|\(media[r].rate.perSecond)"]
            for (i, item) in items.enumerated() {
                switch item {
                case .ad(let b, let a):
                    places.append((b, a))
                    let splice = breaks[b].renditions[r]
                    let alternate = splice.alternateEnds.indices.contains(a) ? splice.alternateEnds[a] : nil
                    key.append((splice.ads[a] + [alternate].compactMap { $0 }).map(\.url).joined(separator: " "))
                case .content(let path):
                    // Only the content next to an ad counts.
                    guard [i - 1, i + 1].contains(where: { items.indices.contains($0) && items[$0].isAd }) else { continue }
                    key.append("\(path):\(FileStamp.text(of: path))")
                }
            }
            let memoKey = key.joined(separator: "\n")
            var choice = soundChoices.choice(memoKey)
            if choice == nil {
                switch await soundOfAds(items, breaks, rendition: r, media: media[r]) {
                case .failure(let error): notes.append("rendition \(r)'s ads keep their own endings: \(error)")
                case .success(let ads):
                    choice = SoundBalance.choose(ads)
                    soundChoices.remember(memoKey, choice!)
                }
            }
            for (place, alternate) in zip(places, choice ?? []) where alternate {
                let splice = breaks[place.break].renditions[r]
                guard let ending = splice.alternateEnds[place.ad] else { continue }
                breaks[place.break].renditions[r].ads[place.ad][splice.ads[place.ad].count - 1] = ending
            }
        }
        return notes
    }

    /// Rendition `r`'s stream as items: the content's files and each ad, in order, up to the first content file after
    /// the last break.
    private func streamItems(_ breaks: [StitchedBreak], rendition r: Int, content: OriginContent) -> [Item] {
        let rendition = content.renditions[r]
        var items: [Item] = [], next = 0
        for (b, stitched) in breaks.enumerated() where stitched.renditions.indices.contains(r) {
            let splice = stitched.renditions[r]
            while next < splice.replaced.lowerBound { items.append(.content(rendition.segmentFiles[next])); next += 1 }
            next = max(next, splice.replaced.upperBound)
            if let before = splice.before { items.append(.content(SessionTimeline.file(of: before.url, cache: cache))) }
            items += splice.ads.indices.map { .ad(break: b, ad: $0) }
            if let after = splice.after { items.append(.content(SessionTimeline.file(of: after.url, cache: cache))) }
        }
        if next < rendition.segmentFiles.count { items.append(.content(rendition.segmentFiles[next])) }
        return items
    }

    /// What the sound of each ad of `items` does, in their order.
    private func soundOfAds(_ items: [Item], _ breaks: [StitchedBreak], rendition r: Int,
                            media m: RenditionMedia) async -> Result<[SoundBalance.Ad], StitchBuildError> {
        func sound(_ file: String) async -> Result<SessionTimeline.PieceSound, StitchBuildError> {
            await SessionTimeline.pieceSound(file, cache: cache, sampleRate: m.sampleRate)
        }
        /// How far past the pictures' end the sound of `files` played in turn ends, and how long before its first
        /// picture it starts, in samples.
        func edges(_ files: [String]) async -> Result<(overrun: Rational, lead: Rational), StitchBuildError> {
            var samples: Int64 = 0, pictures: Int64 = 0, start: Int64 = 0
            for (n, file) in files.enumerated() {
                switch await sound(file) {
                case .failure(let error): return .failure(error)
                case .success(let found):
                    samples += found.samples
                    pictures += found.pictures
                    if n == 0 { start = found.soundAfterPicture }
                }
            }
            let overrun = Rational(start + samples) - Rational(pictures) * Rational(Int64(m.sampleRate)) / m.rate.perSecond
            return .success((overrun, Rational(-start)))
        }
        func files(_ item: Item) -> [String] {
            switch item {
            case .content(let path): return [path]
            case .ad(let b, let a): return breaks[b].renditions[r].ads[a].map { SessionTimeline.file(of: $0.url, cache: cache) }
            }
        }
        var ads: [SoundBalance.Ad] = []
        for (i, item) in items.enumerated() {
            guard case .ad(let b, let a) = item else { continue }
            let splice = breaks[b].renditions[r]
            let own: (overrun: Rational, lead: Rational)
            switch await edges(files(item)) {
            case .success(let found): own = found
            case .failure(let error): return .failure(error)
            }
            var spliceIn = Rational.zero, nextLead = Rational.zero
            if i > 0, case .content(let path) = items[i - 1] {
                switch await edges([path]) {
                case .success(let before): spliceIn = before.overrun + own.lead
                case .failure(let error): return .failure(error)
                }
            }
            if i + 1 < items.count {
                switch await edges(files(items[i + 1])) {
                case .success(let next): nextLead = next.lead
                case .failure(let error): return .failure(error)
                }
            }
            var alternate: Rational?
            if splice.alternateEnds.indices.contains(a), let ending = splice.alternateEnds[a] {
                switch await edges(files(item).dropLast() + [SessionTimeline.file(of: ending.url, cache: cache)]) {
                case .success(let found): alternate = found.overrun
                case .failure(let error): return .failure(error)
                }
            }
            ads.append(SoundBalance.Ad(spliceIn: spliceIn, overrun: own.overrun, alternateOverrun: alternate, nextLead: nextLead))
        }
        return .success(ads)
    }
}
