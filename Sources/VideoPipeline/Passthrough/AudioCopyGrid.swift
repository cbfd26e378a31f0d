/// Where a passthrough render must read the content's sound for its AAC packets to be copied.
///
/// An AAC track is a row of packets of 1024 samples; a copied packet must start where an output packet starts. So
/// a run of content resumed after an ad reads its sound from a position up to half a packet (10.7 ms at 48 kHz)
/// away from the one its first picture names, so that the content's packets fall on the output's. The picture
/// stays frame-exact; the sound of that run is early or late by the shift, which the timeline records (the run's
/// `drift`). Copying is offered only when half a packet is less than a video frame, so the sound stays within a
/// frame of its picture, which is what `verify` holds every output to.
public struct AudioCopyGrid: Hashable, Sendable {
    /// Samples per packet.
    public static let packetSize = AudioPacketSource.packetSize
    /// Output samples where the output's packets start, modulo the packet size.
    public let outputPhase: Int64
    /// Source positions where the content's packets start, modulo the packet size.
    public let sourcePhase: Int64

    public init(outputPhase: Int64, sourcePhase: Int64) {
        self.outputPhase = AudioPacketSource.modulo(outputPhase, Self.packetSize)
        self.sourcePhase = AudioPacketSource.modulo(sourcePhase, Self.packetSize)
    }

    /// The source position, nearest `nominal` (at most half a packet away), from which a content run that starts
    /// at output sample `output` reads its sound so that its packets land on the output's.
    public func sourceStart(output: Int64, nominal: Int64) -> Int64 {
        let size = Self.packetSize
        let target = AudioPacketSource.modulo(output - outputPhase + sourcePhase, size)
        var shift = AudioPacketSource.modulo(target - nominal, size)
        if shift >= size / 2 { shift -= size }
        return nominal + shift
    }
}
