/// Comparing secrets (a passphrase's hash, a session's token) without the time saying how close a guess was: every
/// byte is compared, whatever the first difference.
package enum ConstantTime {
    package static func equal(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
