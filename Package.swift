// swift-tools-version: 6.1
// swift-gtfs-lines: a streaming line reader and a GTFS import toolkit.
// Licensed under the Apache License, Version 2.0 (see LICENSE); the sample data in SampleData/ is CC BY
// (see SampleData/README.md).

import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode (strict concurrency) is the package default.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-gtfs-lines",
    // Mutex (Synchronization) sets the floor: macOS 15 and iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "LineReader", targets: ["LineReader"]),
        .library(name: "GTFS", targets: ["GTFS"]),
        .library(name: "GTFSStoreCore", targets: ["GTFSStoreCore"]),
        .library(name: "GTFSImport", targets: ["GTFSImport"]),
        .library(name: "GTFSPostgres", targets: ["GTFSPostgres"]),
        .library(name: "GTFSFetch", targets: ["GTFSFetch"]),
        .library(name: "GTFSRealtime", targets: ["GTFSRealtime"]),
        .executable(name: "lines", targets: ["lines"]),
        .executable(name: "gtfs-import", targets: ["gtfs-import"]),
        .executable(name: "gtfs-synth", targets: ["gtfs-synth"]),
        .executable(name: "gtfs-query", targets: ["gtfs-query"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        .target(name: "CLineScan"),
        .target(name: "CLibpq", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "GTFSPostgres",
            dependencies: ["GTFS", "GTFSStoreCore", "CLibpq", "Platform"],
            swiftSettings: strictSettings
        ),
        // What both stores share and neither implements: options, plan, progress, summary, changes, group
        // digests, the timetable's rules and the read API's values. No GRDB, no libpq.
        .target(
            name: "GTFSStoreCore",
            dependencies: ["GTFS", "LineReader", "Platform"],
            swiftSettings: strictSettings
        ),
        .target(name: "Platform", swiftSettings: strictSettings),
        // Feeds from their publishers' URLs: conditional, resumable, bounded downloads, and the keeper that
        // checks feeds when due. The only target with HTTP: embedding GTFS or LineReader never links it.
        .target(
            name: "GTFSFetch",
            dependencies: [
                "GTFS", "GTFSStoreCore", "GTFSRealtime", "Platform",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // GTFS-Realtime's protobuf messages, decoded an entity at a time into GTFSStoreCore's values and
        // encoded back (Proto/ holds the definition the generated code comes from).
        .target(
            name: "GTFSRealtime",
            dependencies: ["GTFS", "GTFSStoreCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CSQLiteConfig",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "LineReader",
            dependencies: ["CZlib", "CLineScan", "Platform"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GTFS",
            dependencies: [
                "LineReader", "CZlib", "CLineScan", "Platform",
                // SHA-256: CryptoKit on Apple platforms, OpenSSL's libcrypto elsewhere.
                .target(name: "CCrypto", condition: .when(platforms: [.linux, .android, .openbsd])),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GTFSImport",
            dependencies: [
                "GTFS",
                "GTFSStoreCore",
                "LineReader",
                "CSQLiteConfig",
                "Platform",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "lines",
            dependencies: [
                "LineReader",
                "Platform",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GTFSSynth",
            dependencies: ["GTFS", "GTFSRealtime", "CZlib", "Platform"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gtfs-synth",
            dependencies: [
                "GTFSSynth", "GTFSRealtime", "GTFS",
                "Platform",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ToolSupport",
            dependencies: ["Platform", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // The options and opening of a store that gtfs-import and gtfs-query share.
        .target(
            name: "StoreTools",
            dependencies: [
                "GTFSImport", "GTFSPostgres", "ToolSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gtfs-import",
            dependencies: [
                "GTFS",
                "GTFSFetch",
                "GTFSImport",
                "GTFSPostgres",
                "GTFSRealtime",
                "Platform",
                "StoreTools",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "gtfs-query",
            dependencies: [
                "GTFS",
                "GTFSImport",
                "Platform",
                "StoreTools",
                "ToolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // An HTTP server on 127.0.0.1 for the tests of fetching: answers well-formed and broken on purpose.
        .target(
            name: "TestHTTPServer",
            dependencies: [
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["GTFSSynth", "Platform"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LineReaderTests",
            dependencies: ["LineReader", "TestSupport", "lines", "Platform"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSTests",
            dependencies: ["GTFS", "LineReader", "TestSupport", "CZlib"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSImportTests",
            dependencies: ["GTFSImport", "GTFSStoreCore", "GTFS", "LineReader", "TestSupport", "Platform"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSImportCLITests",
            dependencies: [
                "gtfs-import", "gtfs-query", "lines", "gtfs-synth", "GTFSImport", "GTFS", "GTFSSynth", "GTFSRealtime", "TestSupport", "TestHTTPServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSPostgresTests",
            dependencies: [
                "GTFSPostgres", "GTFSImport", "GTFS", "GTFSSynth", "TestSupport", "Platform", "gtfs-import", "gtfs-query", "GTFSFetch", "GTFSRealtime",
                "TestHTTPServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSFetchTests",
            dependencies: ["GTFSFetch", "GTFSImport", "GTFSStoreCore", "GTFS", "GTFSSynth", "TestSupport", "TestHTTPServer"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSRealtimeTests",
            dependencies: [
                "GTFSRealtime", "GTFSStoreCore", "GTFSImport", "GTFSPostgres", "GTFS", "GTFSSynth", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSSynthTests",
            dependencies: ["GTFSSynth", "GTFS", "LineReader", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
