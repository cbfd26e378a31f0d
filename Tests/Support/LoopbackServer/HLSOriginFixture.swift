import Foundation

/// An HLS origin made by the ffmpeg tool (an independent packager) for `pipctl serve`'s tests: `show/master.m3u8`
/// with two renditions (`v0`: 640x360 at 800 kbit/s, `v1`: 320x180 at 400 kbit/s) of 8 s at 24 fps, TS segments of
/// 4 s, GOPs of 2 s, and a 440 Hz tone; made once per checkout.
public enum HLSOriginFixture {
    public static let frames = 192

    public static func origin() throws -> String {
        try TestFixtures.directory(for: "serve-origin-v1") { directory in
            try FileManager.default.createDirectory(atPath: directory + "/show", withIntermediateDirectories: true)
            _ = try FFmpegCommandLine.run([
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=24:duration=8",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8",
                "-filter_complex", "[0:v]split=2[a][b];[b]scale=320:180[s]",
                "-map", "[a]", "-map", "1:a", "-map", "[s]", "-map", "1:a",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-keyint_min", "48", "-sc_threshold", "0",
                "-b:v:0", "800k", "-b:v:1", "400k", "-c:a", "aac", "-b:a", "64k",
                "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_filename", directory + "/show/v%v/seg%d.ts",
                "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,a:0 v:1,a:1",
                directory + "/show/v%v/index.m3u8",
            ])
        }
    }
}
