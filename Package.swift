// swift-tools-version:6.1
import PackageDescription

// The version `mediafs --version` says: MEDIAFS_VERSION of the build's environment, which the
// Makefile sets from scripts/version.sh (git describe). SwiftPM evaluates the manifest again when
// it changes, and the define is on the command line of CVersion's one file: a new version compiles
// that file and the module that imports it (the mediafs CLI) and links again, so it never goes
// stale and the other modules are not rebuilt.
let givenVersion = Context.environment["MEDIAFS_VERSION"] ?? ""
let version = givenVersion.isEmpty ? "unknown" : givenVersion

// Layers, one direction: C modules → MediaKit → MediaTree → FuseBridge → mediafs (CLI), and
// beside them CSpawn → MountLifecycle → FuseBridge (processes and mounts; no media, no tree).
let package = Package(
    name: "mediafs",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mediafs", targets: ["mediafs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // FilePath: paths as the bytes the file system has, not as text (a name need not be UTF-8).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // C modules: system libraries with small prefixed shims for what Swift cannot import.
        .systemLibrary(name: "CFuse", pkgConfig: "fuse3",
                       providers: [.apt(["libfuse3-dev"])]),
        // pkg-config names one package: libavformat's include path is the one all libav* headers
        // share on Debian; the module map links each library (libavfilter for tone mapping).
        .systemLibrary(name: "CAV", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                                         "libavfilter-dev", "libswresample-dev"])]),
        // Chromaprint's raw fingerprints of episodes' audio, by which a season's shared intro and
        // credits are found (MediaKit/Segments).
        .systemLibrary(name: "CChromaprint", pkgConfig: "libchromaprint", providers: [.apt(["libchromaprint-dev"])]),
        // Tesseract's C API, loaded at the first reading rather than linked (ctesseract.c says
        // why): picture subtitles (PGS, DVD, DVB, XSUB) read into text (MediaKit/PictureText).
        // Its header comes from libtesseract-dev.
        .target(name: "CTesseract"),
        // jemalloc, linked by the program only (the library targets work with any malloc), serves
        // every allocation of the process, libav*'s included: a track pass allocates and frees a
        // buffer per packet, on two threads, which glibc's malloc made a third of the demuxing.
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // zlib, which libpng is built on: made pictures are kept deflated in memory.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's GNU extensions to posix_spawn, and pipe2: what MountLifecycle's spawner needs.
        .systemLibrary(name: "CSpawn"),
        // libpng behind one C function that owns the setjmp libpng's errors need (Swift has none).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        // libjpeg-turbo behind one C function that owns the setjmp its error_exit needs.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The version, as a C string defined on this target's command line (Swift has no valued defines).
        .target(name: "CLinux"),
        .target(name: "CVersion", cSettings: [.define("MEDIAFS_VERSION", to: "\"\(version)\"")]),

        // Media: probing, frames, thumbnails as PNG or JPEG, audio fingerprints; knows no FUSE and no
        // paths of the mount.
        .target(name: "MediaKit", dependencies: [
            "CAV", "CChromaprint", "CTesseract", "CPNG", "CJPEG", "CZlib", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The virtual tree: names, nodes, inode numbers, attributes, listing, reads; no libfuse.
        .target(name: "MediaTree", dependencies: [
            "MediaKit", "CLinux",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
            // The persistent caches (probe database, disk cache index) are the tree's, over SQLite.
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // A mount's life as a process: the one spawner, the mount table, signals, the watchdog, the
        // lazy unmount, and `ServedMount`, which runs a `MountServer`; knows no media, tree or libfuse.
        .target(name: "MountLifecycle", dependencies: [
            "CSpawn", .product(name: "Logging", package: "swift-log"),
        ]),
        // The libfuse low-level adapter: ops table, requests, replies, errno mapping, passthrough,
        // the session loop (a `MountServer`).
        .target(name: "FuseBridge", dependencies: [
            "MediaTree", "MediaKit", "CFuse", "MountLifecycle",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "mediafs", dependencies: [
            "FuseBridge", "MountLifecycle", "MediaTree", "MediaKit", "CJemalloc", "CVersion", "CLinux",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "MediaKitTests", dependencies: [
            "MediaKit", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "MediaTreeTests", dependencies: [
            "MediaTree", "MediaKit", "TestSupport", "FuseBridge", .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "FuseBridgeTests", dependencies: ["FuseBridge", "MediaTree", "MediaKit", "CFuse"]),
        .testTarget(name: "MountLifecycleTests", dependencies: ["MountLifecycle", "CSpawn"]),
        .testTarget(name: "IntegrationTests", dependencies: ["TestSupport", "FuseBridge", "MountLifecycle"]),
        // Shared by the tests: the fixture library made with the ffmpeg command, process helpers
        // over MountLifecycle's spawner and mount-table reader (`Spawn`, `KernelMounts`), and the
        // scenario suites run both against MediaTree and through a mount (`Scenarios/`).
        .target(name: "TestSupport", dependencies: ["MountLifecycle", "FuseBridge", "MediaTree", "MediaKit", "CZlib"],
                path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
