import Crypto
package import Foundation
import HealthModel

/// Makes anchor positions opaque to apps. A position is a pair of the store's row numbers, and the difference between
/// two of them counts every row saved or deleted in between — other apps' rows included. So an app never sees one:
/// it gets a sealed anchor (AES-GCM under a key kept in the store, bound to the app's bundle identifier), or, for
/// HealthKit's deprecated integer anchors, the row number through a keyed permutation. Both are deterministic, so the
/// same position always gives the same anchor (anchors stay stable and comparable), and an anchor made for one app or
/// one store means nothing to another.
package struct AnchorSeal: Sendable {
    private let sealKey: SymmetricKey
    private let nonceKey: SymmetricKey
    private let valueKey: SymmetricKey
    private let app: Data

    /// The size of a sealed anchor: a version byte, the nonce, the two positions and the tag.
    static let sealedCount = 1 + 12 + 16 + 16
    private static let version: UInt8 = 1

    /// A seal from the store's secret for `app`.
    package init(secret: Data, app: String) {
        let master = SymmetricKey(data: secret)
        func derive(_ purpose: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("OpenHealthKit anchor \(purpose)".utf8), outputByteCount: 32)
        }
        sealKey = derive("seal")
        nonceKey = derive("nonce")
        valueKey = derive("value")
        self.app = Data(app.utf8)
    }

    // MARK: Sealed anchors

    /// The opaque form of `position`.
    package func seal(_ position: AnchorPosition) -> Data {
        var plain = Data(capacity: 16)
        withUnsafeBytes(of: position.sample.bigEndian) { plain.append(contentsOf: $0) }
        withUnsafeBytes(of: position.deleted.bigEndian) { plain.append(contentsOf: $0) }
        // The nonce is a MAC of what is sealed: deterministic (equal positions give equal anchors), and distinct for
        // distinct positions, which is all AES-GCM asks of it.
        let mac = HMAC<SHA256>.authenticationCode(for: app + plain, using: nonceKey)
        let nonce = try! AES.GCM.Nonce(data: Data(mac).prefix(12))
        let box = try! AES.GCM.seal(plain, using: sealKey, nonce: nonce, authenticating: app)
        return Data([Self.version]) + Data(nonce) + box.ciphertext + box.tag
    }

    /// The position of an anchor this store sealed for this app; anything else is an invalid argument.
    package func open(_ sealed: Data) throws -> AnchorPosition {
        let bytes = Data(sealed)
        guard bytes.count == Self.sealedCount, bytes.first == Self.version,
              let nonce = try? AES.GCM.Nonce(data: bytes[1..<13]),
              let box = try? AES.GCM.SealedBox(nonce: nonce, ciphertext: bytes[13..<29], tag: bytes[29...]),
              let plain = try? AES.GCM.open(box, using: sealKey, authenticating: app) else {
            throw HKError.invalidArgument("the anchor was not made by this store for this app")
        }
        let numbers = plain.withUnsafeBytes { raw in
            (Int64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self)),
             Int64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
        }
        return AnchorPosition(sample: numbers.0, deleted: numbers.1)
    }

    // MARK: Integer anchors

    /// The integer anchor of HealthKit's deprecated anchored query for the sample row `sample`: a keyed permutation
    /// of the positive 62-bit numbers (0, "no anchor", stays 0).
    package func value(ofSample sample: Int64) -> Int {
        guard sample > 0 else { return 0 }
        var value = UInt64(sample) & Self.mask62
        repeat { value = permute(value, inverse: false) } while value == 0
        return Int(value)
    }

    /// The sample row of an integer anchor that `value(ofSample:)` made; 0 for 0 and for negative numbers.
    package func sample(fromValue value: Int) -> Int64 {
        guard value > 0 else { return 0 }
        var sample = UInt64(value) & Self.mask62
        repeat { sample = permute(sample, inverse: true) } while sample == 0
        return Int64(sample)
    }

    private static let mask62: UInt64 = (1 << 62) - 1
    private static let mask31: UInt64 = (1 << 31) - 1
    private static let rounds = 6

    /// A balanced Feistel network over two 31-bit halves, each round's function an HMAC of the app, the round and
    /// the half.
    private func permute(_ value: UInt64, inverse: Bool) -> UInt64 {
        var left = value >> 31, right = value & Self.mask31
        func round(_ index: Int, _ half: UInt64) -> UInt64 {
            var message = app
            message.append(UInt8(index))
            withUnsafeBytes(of: UInt32(half).bigEndian) { message.append(contentsOf: $0) }
            let code = HMAC<SHA256>.authenticationCode(for: message, using: valueKey)
            return code.withUnsafeBytes { UInt64(UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self))) } & Self.mask31
        }
        if inverse {
            for index in (0..<Self.rounds).reversed() { (left, right) = (right ^ round(index, left), left) }
        } else {
            for index in 0..<Self.rounds { (left, right) = (right, left ^ round(index, right)) }
        }
        return left << 31 | right
    }
}
