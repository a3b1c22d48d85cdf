// swift-tools-version: 6.1

import PackageDescription

// Benchmarks for swift-gtfs-lines, kept in their own package so the library does not depend on
// package-benchmark. Run from this directory: `swift package benchmark` (see README.md).
// A path dependency's identity is its directory's name ("main" in /work/main, "swift-gtfs-lines" in a
// clone of that name), so derive it instead of hard-coding it.
let rootPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "swift-gtfs-lines"

let package = Package(
    name: "swift-gtfs-lines-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // Only the MallocInterposer trait: the default trait set also enables RuntimeInterposer, which on
        // Linux with Swift 6.3 links ordo-one/swift-runtime-interposer (see README.md, "Setup notes").
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "LineReaderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LineReader", package: rootPackage),
            ],
            path: "Benchmarks/LineReaderBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
        .executableTarget(
            name: "GTFSParseBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GTFS", package: rootPackage),
                .product(name: "LineReader", package: rootPackage),
            ],
            path: "Benchmarks/GTFSParseBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
        .executableTarget(
            name: "GTFSImportBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GTFS", package: rootPackage),
                .product(name: "GTFSImport", package: rootPackage),
            ],
            path: "Benchmarks/GTFSImportBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
        // A plain executable for the side-by-side timing against Python's csv.reader (scripts/compare-parse.sh).
        .executableTarget(
            name: "parse-stop-times",
            dependencies: [
                .product(name: "GTFS", package: rootPackage),
                .product(name: "LineReader", package: rootPackage),
            ],
            path: "Sources/parse-stop-times"
        ),
        // The read side on a VBB-scale store: departure boards, nearby and named stops (scripts/read-queries.sh).
        .executableTarget(
            name: "read-queries",
            dependencies: [
                .product(name: "GTFS", package: rootPackage),
                .product(name: "GTFSImport", package: rootPackage),
            ],
            path: "Sources/read-queries"
        ),
        // A realtime board against the scheduled one, on either store (scripts/realtime.sh).
        .executableTarget(
            name: "realtime-boards",
            dependencies: [
                .product(name: "GTFS", package: rootPackage),
                .product(name: "GTFSImport", package: rootPackage),
                .product(name: "GTFSPostgres", package: rootPackage),
            ],
            path: "Sources/realtime-boards"
        ),
        // Time from cancel() to the end of an import, per phase (scripts/compare-import.sh).
        .executableTarget(
            name: "import-cancel-latency",
            dependencies: [
                .product(name: "GTFS", package: rootPackage),
                .product(name: "GTFSImport", package: rootPackage),
            ],
            path: "Sources/import-cancel-latency"
        ),
    ],
    swiftLanguageModes: [.v6]
)
