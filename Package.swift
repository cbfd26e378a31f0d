// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pipctl",
    products: [
        .executable(name: "pipctl", targets: ["pipctl"]),
        .library(name: "VideoPipeline", targets: ["VideoPipeline"]),
        .library(name: "AdInsertion", targets: ["AdInsertion"]),
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
        .target(name: "MediaCore"),
        .target(name: "VideoPipeline", dependencies: ["CFFmpeg", "MediaCore"]),
        .target(name: "AdInsertion", dependencies: ["MediaCore", "VideoPipeline"]),
        .executableTarget(name: "pipctl", dependencies: ["AdInsertion", "VideoPipeline", "MediaCore"]),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore"]),
        .testTarget(name: "VideoPipelineTests", dependencies: ["VideoPipeline", "MediaCore"]),
        .testTarget(name: "AdInsertionTests", dependencies: ["AdInsertion", "MediaCore", "VideoPipeline"], exclude: ["Fixtures"]),
        .testTarget(name: "pipctlTests", dependencies: ["pipctl", "MediaCore"]),
    ],
    swiftLanguageModes: [.v6]
)
