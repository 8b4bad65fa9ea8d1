/// Text from a file, made safe to print on a terminal: control characters (an escape sequence can recolour, move
/// the cursor or retitle the window), bidirectional overrides and the replacement character standing for bytes
/// that were not UTF-8 are shown as `\u{1B}`-style escapes, and a long value is cut with "…".
///
/// ```swift
/// print(TerminalText("bad unit \u{1B}[2J here"))  // bad unit \u{1B}[2J here
/// ```
struct TerminalText: CustomStringConvertible {
    let description: String

    /// The longest text shown whole, in characters.
    static let limit = 300

    init(_ text: String, limit: Int = Self.limit) {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                shown += "…"
                break
            }
            let value = scalar.value
            let unsafe = value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0xFFFD || value == 0x200E || value == 0x200F
            shown += unsafe ? "\\u{\(String(value, radix: 16, uppercase: true))}" : String(scalar)
            count += 1
        }
        description = shown
    }
}
