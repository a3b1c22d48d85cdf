/// The toolkit's version, which every tool prints for `--version`: one number for the package's tools and
/// libraries, raised with each release.
package enum ToolVersion {
    /// `0.1.0`.
    package static let number = "0.1.0"
}
