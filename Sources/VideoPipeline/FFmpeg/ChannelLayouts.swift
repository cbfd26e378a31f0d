import CFFmpeg

/// What FFmpeg's default channel layouts hold; every source's sound is remixed to one of them (`Resampler`).
enum ChannelLayouts {
    /// Where each channel of the default layout for `channels` sits, in order, as BS.1770-4 weighs it; `nil` for
    /// nine or more (FFmpeg names some of them, 16 as hexadecagonal, but an `AudioBuffer` holds at most 8 planes:
    /// `probe --loudness` crashed on a 16-channel file) and for a count FFmpeg has no named layout for.
    ///
    /// The weights follow FFmpeg's own `ebur128` filter, the reader verify and the tests compare with: the
    /// low-frequency channels are left out, every back, side and surround-direct channel counts 1.41, and every
    /// other channel (front left, right, centre and the rest) counts 1.
    static func loudnessRoles(ofDefaultLayoutWith channels: Int) -> [LoudnessState.ChannelRole]? {
        guard (1...AudioBuffer.maximumChannels).contains(channels) else { return nil }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        defer { av_channel_layout_uninit(&layout) }
        guard layout.order == AV_CHANNEL_ORDER_NATIVE, layout.nb_channels == Int32(channels) else { return nil }
        let back: [AVChannel] = [AV_CHAN_BACK_LEFT, AV_CHAN_BACK_CENTER, AV_CHAN_BACK_RIGHT, AV_CHAN_TOP_BACK_LEFT,
                                 AV_CHAN_TOP_BACK_CENTER, AV_CHAN_TOP_BACK_RIGHT, AV_CHAN_SIDE_LEFT, AV_CHAN_SIDE_RIGHT,
                                 AV_CHAN_SURROUND_DIRECT_LEFT, AV_CHAN_SURROUND_DIRECT_RIGHT]
        return (0..<channels).map { index in
            let channel = av_channel_layout_channel_from_index(&layout, UInt32(index))
            switch channel {
            case AV_CHAN_FRONT_LEFT: return .left
            case AV_CHAN_FRONT_RIGHT: return .right
            case AV_CHAN_LOW_FREQUENCY, AV_CHAN_LOW_FREQUENCY_2: return .unused
            case _ where back.contains(channel): return index % 2 == 0 ? .leftSurround : .rightSurround
            default: return .centre
            }
        }
    }
}
