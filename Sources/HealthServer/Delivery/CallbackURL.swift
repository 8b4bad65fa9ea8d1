import Foundation

/// Where `health serve` may deliver background deliveries.
public enum CallbackHosts: String, Sendable, CaseIterable {
    /// `https://` anywhere, or plain `http://` on this machine.
    case any
    /// This machine only (a loopback address or `localhost`), `http://` or `https://`: for a daemon whose apps all run
    /// beside it, and for tests, which must never reach out.
    case local
}

/// The URLs an app may have its background deliveries sent to: `https://` anywhere, or plain `http://` on this machine
/// only (a loopback address or `localhost`), so that health data notices never cross a network in the clear; with
/// ``CallbackHosts/local``, this machine only. No user or password in the URL, no fragment. Anything else is a 400
/// naming `/url`.
enum CallbackURL {
    static func validated(_ text: String, hosts: CallbackHosts) throws -> URL {
        func refuse(_ reason: String) -> Problem {
            Problem(.badRequest, "invalid callback URL", detail: "/url: \(reason)", code: .errorInvalidArgument, field: "/url")
        }
        guard let components = URLComponents(string: text), let url = components.url else { throw refuse("not a URL") }
        guard let scheme = components.scheme?.lowercased() else { throw refuse("not an absolute URL; write it as https://host/path") }
        guard scheme == "http" || scheme == "https" else { throw refuse("the scheme must be https (or http on this machine), not \(scheme)") }
        guard let host = components.host, !host.isEmpty else { throw refuse("the URL names no host") }
        guard components.user == nil, components.password == nil else { throw refuse("a callback URL carries no user or password") }
        guard components.fragment == nil else { throw refuse("a callback URL has no fragment") }
        if hosts == .local, !isLoopback(host) {
            throw refuse("this daemon delivers only to this machine (a loopback address or localhost), not to \(host)")
        }
        if scheme == "http", !isLoopback(host) {
            throw refuse("plain http is only for this machine (a loopback address or localhost); use https for \(host)")
        }
        return url
    }

    /// Whether `host` is this machine: `localhost`, 127.0.0.0/8 or ::1.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil } && octets[0] == "127"
    }
}
