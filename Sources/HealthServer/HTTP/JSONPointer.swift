/// RFC 6901 JSON pointers, as a problem document's `field` names the place in a request body at fault.
enum JSONPointer {
    /// The pointer of the place reached by `tokens` (object keys and array indices, unescaped).
    static func to(_ tokens: some Sequence<String>) -> String {
        "/" + tokens.map(escape).joined(separator: "/")
    }

    /// One reference token escaped: `~` as `~0`, `/` as `~1`.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
