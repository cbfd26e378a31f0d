import AdDecisioning
import Foundation
import MediaCore

/// A decision as a shared session's record holds it (`SharedSessions`): times exact, as `"N/D"` seconds.
extension SessionAds.Break: Codable {
    enum CodingKeys: String, CodingKey { case position, time, ads }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch position {
        case .preroll: try container.encode("preroll", forKey: .position)
        case .postroll: try container.encode("postroll", forKey: .position)
        case .midroll(let time):
            try container.encode("midroll", forKey: .position)
            try container.encode(time.seconds.description, forKey: .time)
        }
        try container.encode(ads, forKey: .ads)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .position) {
        case "preroll": position = .preroll
        case "postroll": position = .postroll
        case "midroll": position = .midroll(MediaTime(seconds: try Self.rational(container, .time)))
        default: throw DecodingError.dataCorruptedError(forKey: .position, in: container, debugDescription: "not a break position")
        }
        ads = try container.decode([SessionAds.Ad].self, forKey: .ads)
    }

    /// A time written as `Rational.description`: not negative.
    static func rational<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Rational {
        guard let value = Rational(parsing: try container.decode(String.self, forKey: key)), value >= .zero else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a time")
        }
        return value
    }
}

extension SessionAds.Ad: Codable {
    enum CodingKeys: String, CodingKey { case id, title, duration, media, localMedia, beacons }

    private struct Beacon: Codable {
        var event: String
        var urls: [String]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(duration?.seconds.description, forKey: .duration)
        try container.encodeIfPresent(media, forKey: .media)
        try container.encodeIfPresent(localMedia, forKey: .localMedia)
        try container.encode(beacons.map { Beacon(event: $0.event, urls: $0.urls) }, forKey: .beacons)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        duration = container.contains(.duration) ? MediaDuration(seconds: try SessionAds.Break.rational(container, .duration)) : nil
        media = try container.decodeIfPresent(String.self, forKey: .media)
        localMedia = try container.decodeIfPresent(String.self, forKey: .localMedia)
        beacons = try container.decode([Beacon].self, forKey: .beacons).map { ($0.event, $0.urls) }
    }
}
