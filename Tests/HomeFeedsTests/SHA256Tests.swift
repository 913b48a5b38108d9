import Testing

@testable import HomeFeeds

/// The incremental SHA-256 behind image names: FIPS 180-4 vectors, and the same digest however
/// the bytes are split.
@Suite struct SHA256Tests {
    @Test("FIPS 180-4 test vectors")
    func vectors() {
        #expect(SHA256.hexDigest("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
    }

    @Test("a 200-byte message split at every position gives one digest")
    func chunked() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hexDigest(message)
        for split in 0...message.count {
            var hasher = SHA256()
            message[..<split].withUnsafeBytes { hasher.update($0) }
            message[split...].withUnsafeBytes { hasher.update($0) }
            #expect(hasher.finalizeHex() == whole, "split at \(split)")
        }
    }
}
