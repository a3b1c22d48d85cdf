// swift-tools-version: 6.1

import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode (strict concurrency) is the package default.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-gtfs-lines",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LineReader", targets: ["LineReader"]),
        .library(name: "GTFS", targets: ["GTFS"]),
        .executable(name: "lines", targets: ["lines"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "CLineScan"),
        .target(
            name: "LineReader",
            dependencies: ["CZlib", "CLineScan"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GTFS",
            dependencies: ["LineReader", "CZlib"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "lines",
            dependencies: [
                "LineReader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["CZlib"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LineReaderTests",
            dependencies: ["LineReader", "TestSupport", "lines"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GTFSTests",
            dependencies: ["GTFS", "LineReader", "TestSupport", "CZlib"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
