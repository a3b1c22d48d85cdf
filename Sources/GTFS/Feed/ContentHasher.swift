#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// A streaming SHA-256 of the bytes handed to it, written as 64 lowercase hex digits: what `sha256sum`
/// prints for the same bytes. CryptoKit computes it on Apple platforms, OpenSSL's libcrypto elsewhere (with
/// the CPU's SHA extensions where present).
///
/// ```swift
/// let hasher = ContentHasher()
/// hasher.update(bytes)
/// print(hasher.finish() ?? "")   // "e3b0c442…"
/// ```
public final class ContentHasher {
    #if canImport(CryptoKit)
    private var hasher = SHA256()

    /// Starts a hash.
    public init() {}

    /// Adds bytes.
    /// - Parameter bytes: the next bytes of the content.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    private func digestBytes() -> [UInt8]? {
        Array(hasher.finalize())
    }
    #else
    private let context: OpaquePointer?

    /// Starts a hash.
    public init() {
        let created = EVP_MD_CTX_new()
        if let created, EVP_DigestInit_ex(created, EVP_sha256(), nil) != 1 {
            EVP_MD_CTX_free(created)
            context = nil
        } else {
            context = created
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    /// - Parameter bytes: the next bytes of the content.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    private func digestBytes() -> [UInt8]? {
        guard let context else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { return nil }
        return Array(digest.prefix(32))
    }
    #endif

    /// Adds bytes.
    /// - Parameter bytes: the next bytes of the content.
    public func update(_ bytes: some Collection<UInt8>) {
        var copy = Array(bytes)
        copy.withUnsafeMutableBytes { update(UnsafeRawBufferPointer($0)) }
    }

    /// The SHA-256 of a text's UTF-8 bytes, as 64 lowercase hex digits (`nil` as ``finish()`` gives it).
    package static func hash(_ text: String) -> String? {
        let hasher = ContentHasher()
        hasher.update(Array(text.utf8))
        return hasher.finish()
    }

    /// The hash of everything added, as 64 lowercase hex digits. Call it once.
    /// - Returns: the hex digest, or `nil` when libcrypto could not provide SHA-256.
    public func finish() -> String? {
        guard let digest = digestBytes(), digest.count == 32 else { return nil }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
