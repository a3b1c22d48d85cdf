public import Foundation

/// Paths inside this repository, for tests that read its sample data.
public enum Repository {
    /// The repository's root folder (two levels above this file).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SampleData/berlin`: the real VBB data.
    public static let berlin = root.appendingPathComponent("SampleData/berlin")
}
