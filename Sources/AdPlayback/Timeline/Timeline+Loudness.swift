import Foundation

extension Timeline {
    /// How a render normalised its sources' loudness (`render --loudness content|TARGET`); absent for `off` and in
    /// timelines written before renders normalised.
    public struct Normalisation: Codable, Hashable, Sendable {
        /// What the sources were brought to.
        public enum Target: Hashable, Sendable {
            /// Each ad to the content's loudness; the content left as it is.
            case content
            /// The content and each ad to this loudness (LUFS).
            case lufs(Double)
        }

        public var target: Target
        /// The limiter's ceiling (dBTP), on each source's sound before encoding.
        public var ceiling: Double
        /// The content first, then each ad in the order it was first played.
        public var sources: [SourceLoudness]

        public init(target: Target, ceiling: Double, sources: [SourceLoudness]) {
            self.target = target
            self.ceiling = ceiling
            self.sources = sources
        }

        enum CodingKeys: String, CodingKey { case target, ceiling, sources }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let word = try? c.decode(String.self, forKey: .target) {
                guard word == "content" else {
                    throw DecodingError.dataCorruptedError(forKey: .target, in: c,
                                                           debugDescription: "\"\(word)\" is neither \"content\" nor a loudness in LUFS")
                }
                target = .content
            } else {
                target = .lufs(try c.decode(Double.self, forKey: .target))
            }
            ceiling = try c.decode(Double.self, forKey: .ceiling)
            sources = try c.decode([SourceLoudness].self, forKey: .sources)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch target {
            case .content: try c.encode("content", forKey: .target)
            case .lufs(let value): try c.encode(value, forKey: .target)
            }
            try c.encode(ceiling, forKey: .ceiling)
            try c.encode(sources, forKey: .sources)
        }

        /// The record of the ad `adIndex` of break `breakIndex`, or of the content when both are `nil`.
        public func source(breakIndex: Int?, adIndex: Int?) -> SourceLoudness? {
            sources.first { $0.breakIndex == breakIndex && $0.adIndex == adIndex && $0.fullScreen == nil }
        }
    }

    /// One source's loudness as the render measured it (its sound conformed to the output's rate and channels),
    /// and what it did about it.
    public struct SourceLoudness: Codable, Hashable, Sendable {
        /// Which loudness stands for the source.
        public enum Measure: Hashable, Sendable {
            /// Integrated loudness (LUFS): a source of 3 s or more.
            case integrated(Double)
            /// The highest momentary loudness (LUFS): a source under 3 s, too short for the gates to say much.
            case momentary(Double)
            /// No sound to measure (no audio, or silence): left as it is.
            case silent

            public var lufs: Double? {
                switch self {
                case .integrated(let value), .momentary(let value): value
                case .silent: nil
                }
            }

            var name: String {
                switch self {
                case .integrated: "integrated"
                case .momentary: "momentary"
                case .silent: "silent"
                }
            }
        }

        /// A video full-screen ad (an interstitial or a rewarded ad) whose sound replaced the covered player's.
        public struct FullScreen: Codable, Hashable, Sendable {
            /// The screen-ad request that loaded it, as the event log numbers them.
            public var request: Int
            /// The scene it covered.
            public var scene: SceneID

            public init(request: Int, scene: SceneID) {
                self.request = request
                self.scene = scene
            }
        }

        public var source: String
        /// The ad's break and index; `nil` for the content and for a full-screen ad.
        public var breakIndex: Int?
        public var adIndex: Int?
        /// For a video full-screen ad, which; `nil` for the content and for a linear ad.
        public var fullScreen: FullScreen?
        public var measure: Measure
        /// Integrated loudness (LUFS) whatever stands for the source; `nil` when every block was gated out.
        public var integrated: Double?
        /// The sample peak (dBFS) of the source's sound before the gain; `nil` for silence.
        public var samplePeak: Double?
        /// The true peak (dBTP) of the source's sound before the gain, measured for a source that may be gained (not
        /// the content in `content` mode); `nil` otherwise and for silence.
        public var truePeak: Double?
        /// The loudness (LUFS) the source was brought to; `nil` when it was left as it is (silent, or nothing to
        /// bring it to).
        public var target: Double?
        /// The static gain applied (dB).
        public var gain: Double
        /// Whether the limiter brought any of its peaks down.
        public var limited: Bool
        /// Where the limiter acted: the loudness (LUFS, by the same measure) of the source's sound as played, gained
        /// and limited, measured again before it plays. A limiter that holds many peaks down (a DC offset, which
        /// BS.1770's K-weighting does not hear but the true peak does; a target near full scale) takes loudness
        /// away, so this is what the render promises and what verify checks; `nil` where the limiter did not act
        /// (the target is then the promise), and in timelines written before.
        public var reached: Double?

        public init(source: String, breakIndex: Int?, adIndex: Int?, measure: Measure, integrated: Double?,
                    samplePeak: Double?, truePeak: Double?, target: Double?, gain: Double, limited: Bool) {
            self.source = source
            self.breakIndex = breakIndex
            self.adIndex = adIndex
            self.measure = measure
            self.integrated = integrated
            self.samplePeak = samplePeak
            self.truePeak = truePeak
            self.target = target
            self.gain = gain
            self.limited = limited
        }

        /// The loudness the source's play must have in the output: where the limiter took loudness away, what it
        /// reached; else the target.
        public var promised: Double? { reached ?? target }

        enum CodingKeys: String, CodingKey {
            case source, breakIndex = "break", adIndex = "ad", fullScreen, measure, measured, integrated, samplePeak, truePeak, target, gain, limited, reached
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            source = try c.decode(String.self, forKey: .source)
            breakIndex = try c.wholeNumberIfPresent(Int.self, forKey: .breakIndex)
            adIndex = try c.wholeNumberIfPresent(Int.self, forKey: .adIndex)
            fullScreen = try c.decodeIfPresent(FullScreen.self, forKey: .fullScreen)
            let name = try c.decode(String.self, forKey: .measure)
            switch name {
            case "integrated": measure = .integrated(try c.decode(Double.self, forKey: .measured))
            case "momentary": measure = .momentary(try c.decode(Double.self, forKey: .measured))
            case "silent": measure = .silent
            default:
                throw DecodingError.dataCorruptedError(forKey: .measure, in: c,
                                                       debugDescription: "\"\(name)\" is not integrated, momentary or silent")
            }
            integrated = try c.decodeIfPresent(Double.self, forKey: .integrated)
            samplePeak = try c.decodeIfPresent(Double.self, forKey: .samplePeak)
            truePeak = try c.decodeIfPresent(Double.self, forKey: .truePeak)
            target = try c.decodeIfPresent(Double.self, forKey: .target)
            gain = try c.decode(Double.self, forKey: .gain)
            limited = try c.decode(Bool.self, forKey: .limited)
            reached = try c.decodeIfPresent(Double.self, forKey: .reached)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(source, forKey: .source)
            try c.encodeIfPresent(breakIndex, forKey: .breakIndex)
            try c.encodeIfPresent(adIndex, forKey: .adIndex)
            try c.encodeIfPresent(fullScreen, forKey: .fullScreen)
            try c.encode(measure.name, forKey: .measure)
            try c.encodeIfPresent(measure.lufs, forKey: .measured)
            try c.encodeIfPresent(integrated, forKey: .integrated)
            try c.encodeIfPresent(samplePeak, forKey: .samplePeak)
            try c.encodeIfPresent(truePeak, forKey: .truePeak)
            try c.encodeIfPresent(target, forKey: .target)
            try c.encode(gain, forKey: .gain)
            try c.encode(limited, forKey: .limited)
            try c.encodeIfPresent(reached, forKey: .reached)
        }
    }
}

extension Timeline.Normalisation {
    /// The loudness values a sound can have, generously: BS.1770's gate is −70 LUFS, and nothing digital is louder
    /// than a few LU over full scale.
    static let lufsBounds = -200.0...20.0
    /// A gain no render applies.
    static let gainBounds = -200.0...200.0

    /// Checks every number against what a loudness can be, naming its JSON path, before verify measures by them.
    /// - Parameter segments: the timeline's segment count (a render has no more ads than segments).
    func checkBounds(segments: Int) throws(TimelineError) {
        func fail(_ path: String, _ reason: String) -> TimelineError { .outOfBounds(jsonPath: path, reason: reason) }
        func lufs(_ value: Double?, _ path: String) throws(TimelineError) {
            guard let value else { return }
            guard Timeline.Normalisation.lufsBounds.contains(value) else { throw fail(path, "\(value) is not a loudness in LUFS") }
        }
        if case .lufs(let value) = target { try lufs(value, "loudness.target") }
        guard (-200.0...0.0).contains(ceiling) else { throw fail("loudness.ceiling", "\(ceiling) is not a ceiling in dBTP") }
        // The content, and at most an ad or a full-screen ad's cover per segment.
        guard sources.count <= 2 * segments + 1 else {
            throw fail("loudness.sources", "\(sources.count) sources are more than the timeline's \(segments) segments play")
        }
        for (i, source) in sources.enumerated() {
            let path = "loudness.sources[\(i)]"
            if let b = source.breakIndex, b < 0 { throw fail(path + ".break", "\(b) is negative") }
            if let a = source.adIndex, a < 0 { throw fail(path + ".ad", "\(a) is negative") }
            guard (source.breakIndex == nil) == (source.adIndex == nil) else {
                throw fail(path, "an ad has both a break and an index; the content has neither")
            }
            if let fullScreen = source.fullScreen {
                guard source.breakIndex == nil else { throw fail(path, "a full-screen ad has no break") }
                guard fullScreen.request >= 0 else { throw fail(path + ".fullScreen.request", "\(fullScreen.request) is negative") }
            }
            try lufs(source.measure.lufs, path + ".measured")
            try lufs(source.integrated, path + ".integrated")
            try lufs(source.samplePeak, path + ".samplePeak")
            try lufs(source.truePeak, path + ".truePeak")
            try lufs(source.target, path + ".target")
            try lufs(source.reached, path + ".reached")
            guard Timeline.Normalisation.gainBounds.contains(source.gain) else { throw fail(path + ".gain", "\(source.gain) is not a gain in dB") }
        }
    }
}
