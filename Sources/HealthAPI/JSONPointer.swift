/// RFC 6901 JSON pointers: the place in a request body at fault (a problem document's `field`), or in an answer the
/// remote store cannot read.
package enum JSONPointer {
    /// The pointer of the place reached by `tokens` (object keys and array indices, unescaped).
    package static func to(_ tokens: some Sequence<String>) -> String {
        "/" + tokens.map(escape).joined(separator: "/")
    }

    /// One reference token escaped: `~` as `~0`, `/` as `~1`.
    package static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
