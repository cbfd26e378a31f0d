// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pipctl",
    products: [
        .executable(name: "pipctl", targets: ["pipctl"]),
        .library(name: "VideoPipeline", targets: ["VideoPipeline"]),
        .library(name: "AdDecisioning", targets: ["AdDecisioning"]),
        .library(name: "AdPlayback", targets: ["AdPlayback"]),
        .library(name: "AdScreen", targets: ["AdScreen"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .library(name: "Verification", targets: ["Verification"]),
    ],
    targets: [
        // FFmpeg 5.1 from Debian. libavformat.pc carries the include path; the module map links the rest.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        // Exact time, rates and pixel geometry shared by the media and the ad side; pure Swift so that ad parsing and
        // scheduling need no FFmpeg.
        // libcurl from Debian, for HTTP(S) without URLSession's busy waiting on Linux.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // FreeType 2.12 from Debian, for the text of native ad cards; only VideoPipeline imports it.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // libebur128 1.2 from Debian: loudness by ITU-R BS.1770-4 and EBU R128; only VideoPipeline imports it.
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // SDL 2.26 from Debian (libsdl2-dev), as ffplay uses it: `play --show`'s window, keys, mouse and sound; only
        // LiveWindow imports it. Not through pkg-config: sdl2.pc's -D_REENTRANT is a flag SwiftPM refuses with a warning.
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        // libmicrohttpd 0.9.75 from Debian: `pipctl serve`'s HTTP/1.1 server; only HTTPServing imports it.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "MediaCore"),
        // `play --show`'s window: owns every SDL object (window, renderer, texture, audio device) in one type and takes
        // the frames as plain Swift values; knows nothing of sessions or FFmpeg.
        .target(name: "LiveWindow", dependencies: ["CSDL2", "MediaCore"]),
        // What Swift cannot see in the C library: posix_spawn's chdir and the affinity mask (GNU extensions). Only
        // Batch imports it.
        .systemLibrary(name: "CSystem"),
        // `pipctl batch`: manifests, shards, summaries, JUnit reports, fingerprints, and the runner of child renders.
        // Foundation only: it runs pipctl itself for each job and knows nothing of media.
        .target(name: "Batch", dependencies: ["MediaCore", "CSystem"]),
        // `pipctl serve`'s HTTP/1.1 server: owns the libmicrohttpd daemon, reads and bounds each request, hands it to a
        // responder as a value, logs one JSON line per request. Knows nothing of ads or media.
        .target(name: "HTTPServing", dependencies: ["CMicroHTTPD", "MediaCore"]),
        // HTTP(S) GETs bounded in size and time, cancellable; the only importer of CCurl.
        .target(name: "Networking", dependencies: ["CCurl", "MediaCore"]),
        // Optimised in debug builds too: its per-pixel loops (compositing, rotation, stamps, colour probes) run many
        // times slower unoptimised, and every media test and fixture goes through them. Overflow checks stay on (-O,
        // not -Ounchecked), so a debug build still traps where a release build would.
        .target(name: "VideoPipeline", dependencies: ["CFFmpeg", "CFreeType", "CEBUR128", "MediaCore"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Decisioning: VAST and VMAP documents, wrapper resolution, media selection, `ads inspect` and the ad plan
        // they make. It knows nothing of playback, sessions or screens, and the compiler keeps it so.
        .target(name: "AdDecisioning", dependencies: ["MediaCore", "Networking"]),
        // Ad playback, media-free: the ads manager and its events, tracking, the session that decides each frame,
        // picture-in-picture, the timeline and the markers, and the script language. It sees the device's screen only
        // as pixels (`ScreenFrame`) and through `PlayerScreen`, which AdScreen implements, and the compiler keeps it so.
        .target(name: "AdPlayback", dependencies: ["AdDecisioning", "MediaCore", "Networking"]),
        // The device screen, media-free: the screen model and its commands, banners, full-screen and native ads, session
        // files, and the director that runs every player's session on one screen and plans each frame.
        .target(name: "AdScreen", dependencies: ["AdPlayback", "AdDecisioning", "MediaCore"]),
        // The stitcher: renders the director's frame plans through VideoPipeline (MP4, HLS, passthrough, loudness). Its
        // users import AdPlayback and AdScreen too, for the ad side's media-free types (nothing is re-exported).
        .target(name: "Rendering", dependencies: ["AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "VideoPipeline"]),
        // `verify` and `report`: what a render made, checked against rules and independent readers, and its page. It
        // draws a timeline's layers through the renderer's own path, so it depends on Rendering, never the other way.
        .target(name: "Verification", dependencies: ["Rendering", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "VideoPipeline"]),
        // `pipctl serve`: server-side ad insertion. The origin's content, sessions, each viewer's ad decision, the cut
        // pieces and conditioned ads (built through VideoPipeline, cached and shared), playlists, and the routes of its
        // HTTP API; HTTPServing carries the bytes.
        .target(name: "Serving", dependencies: ["HTTPServing", "AdPlayback", "AdDecisioning", "VideoPipeline", "Networking", "MediaCore", "CSystem"]),
        .executableTarget(name: "pipctl", dependencies: ["Serving", "HTTPServing", "Rendering", "Verification", "AdPlayback", "AdScreen", "AdDecisioning", "VideoPipeline", "MediaCore", "Batch", "LiveWindow"]),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "MediaCore"]),
        // A real HTTP server on loopback for the tests of every target that talks HTTP.
        .target(name: "LoopbackServer", dependencies: ["MediaCore"], path: "Tests/Support/LoopbackServer"),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "LoopbackServer"]),
        .testTarget(name: "HTTPServingTests", dependencies: ["HTTPServing", "Networking", "MediaCore", "LoopbackServer"]),
        .testTarget(name: "ServingTests", dependencies: ["Serving", "HTTPServing", "AdPlayback", "Networking", "MediaCore", "VideoPipeline", "Verification", "LoopbackServer", "StampedMedia"]),
        .testTarget(name: "VideoPipelineTests", dependencies: ["VideoPipeline", "MediaCore"]),
        // The media-free tests link no FFmpeg library (they may run the ffmpeg tool to make an image).
        .testTarget(name: "AdSideTests", dependencies: ["AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "Networking", "LoopbackServer"], exclude: ["Fixtures"]),
        // Stamped clips made once per test process, and the renders that the rendering and verification tests share.
        .target(name: "StampedMedia", dependencies: ["Rendering", "Verification", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "VideoPipeline", "LoopbackServer"],
                path: "Tests/Support/StampedMedia"),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Verification", "StampedMedia", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "VideoPipeline", "LoopbackServer"]),
        .testTarget(name: "VerificationTests", dependencies: ["Verification", "Rendering", "StampedMedia", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "VideoPipeline", "LoopbackServer"]),
        .testTarget(name: "pipctlTests", dependencies: ["pipctl", "Rendering", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore", "LoopbackServer", "LiveWindow", "StampedMedia"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (issue 9), only in the package when `scripts/fuzz` asks for them (PIPCTL_FUZZ=1): each links
// libFuzzer through `-sanitize=fuzzer`, so a plain `swift build` must not see them. Each target's `main.swift`
// hands its test function to libFuzzer's driver; `FuzzSupport` holds what they share.
if Context.environment["PIPCTL_FUZZ"] == "1" {
    // pipctl's `main` would clash with libFuzzer's, and the tests and their support are not fuzzed: without them one
    // `swift build` makes every fuzz target (`scripts/fuzz all`), where a build per target spent 171 s.
    let unfuzzed: Set = ["pipctl", "LoopbackServer", "StampedMedia"]
    package.products.removeAll { $0.name == "pipctl" }
    package.targets.removeAll { $0.type == .test || unfuzzed.contains($0.name) }
    package.targets.append(.target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], path: "Fuzz/Support"))
    // The parsers' fuzzers link no FFmpeg: VAST, VMAP, wrapper resolution and URL maps only AdDecisioning; scripts
    // and native responses AdPlayback and AdScreen too. `timeline` drives the verifier's continuity check, `report` the
    // report's readers and page (no media). `serveshared` links Serving: what `serve` reads back from a session's
    // token and the shared folder.
    let adSide = ["AdPlayback", "AdScreen", "AdDecisioning"]
    let library = ["vast": ["AdDecisioning"], "vmap": ["AdDecisioning"], "resolver": ["AdDecisioning"],
                   "urlmap": ["AdDecisioning"], "timeline": ["Verification", "Rendering"] + adSide, "report": ["Verification", "Rendering"] + adSide, "script": adSide, "native": adSide,
                   "manifest": ["Batch"], "serveshared": ["Serving"], "webvtt": ["Serving"]]
    for (name, libraries) in library.sorted(by: { $0.key < $1.key }) {
        package.targets.append(.executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", "MediaCore"] + libraries.map { .target(name: $0) },
                                                 path: "Fuzz/\(name)"))
    }
    // The load-path fuzzers (issue 22) run a session's native placements with the real text measurer, so they link
    // Rendering (FreeType) through `FuzzLoadPath`, the path they share.
    package.targets.append(.target(name: "FuzzLoadPath", dependencies: ["FuzzSupport", "Rendering", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore"], path: "Fuzz/LoadPath"))
    for name in ["session", "nativeload"] {
        package.targets.append(.executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport", "FuzzLoadPath", "Rendering", "AdPlayback", "AdScreen", "AdDecisioning", "MediaCore"],
                                                 path: "Fuzz/\(name)"))
    }
    // The argument parser lives in the pipctl executable; its sources are compiled again into the fuzz target
    // (through the symlink Fuzz/args/pipctl → Sources/pipctl), without pipctl's `main.swift`.
    package.targets.append(.executableTarget(name: "fuzz-args", dependencies: ["FuzzSupport", "Serving", "HTTPServing", "Rendering", "Verification", "AdPlayback", "AdScreen", "AdDecisioning", "VideoPipeline", "MediaCore", "Batch", "LiveWindow"],
                                             path: "Fuzz/args", exclude: ["pipctl/main.swift"]))
}

