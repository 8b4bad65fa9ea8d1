import Crypto
import Foundation
import HealthStore
import Synchronization

/// The person's signed-in sessions in the web Health app, in the daemon's memory only: a restart signs everyone out,
/// and nothing that opens a session is ever written down.
///
/// A session is a random 256-bit id in an HttpOnly, SameSite=Strict cookie; the table keeps its SHA-256 (an id is never
/// compared as text). It ends after ``idleTimeout`` without a request, after ``lifetime`` in any case, and at sign-out.
/// Each carries its own CSRF token, which every form posts back.
final class PersonSessions: Sendable {
    struct Session: Sendable {
        /// The session's key in the table: SHA-256 of the cookie's id, hex.
        let key: String
        /// The token every form of this session carries (`csrf`); a post without it is refused.
        let csrfToken: String
        let started: ContinuousClock.Instant
        var lastSeen: ContinuousClock.Instant
        /// How many times the store had been locked when the session began: a lock since ends it.
        let lockCount: Int
    }

    static let cookieName = "health_session"

    let idleTimeout: Duration
    let lifetime: Duration
    private let sessions = Mutex<[String: Session]>([:])

    init(idleTimeout: Duration = .seconds(30 * 60), lifetime: Duration = .seconds(12 * 3600)) {
        self.idleTimeout = idleTimeout
        self.lifetime = lifetime
    }

    /// A new session: its cookie value (given to the browser once) and the session.
    func start(lockCount: Int) -> (cookieValue: String, session: Session) {
        let id = Self.randomToken()
        let now = ContinuousClock.now
        let session = Session(key: Self.key(id), csrfToken: Self.randomToken(), started: now, lastSeen: now, lockCount: lockCount)
        sessions.withLock { table in
            // Ended sessions go as new ones start: the table never holds more than the live ones and a few.
            table = table.filter { !self.isOver($0.value, at: now) }
            table[session.key] = session
        }
        return (id, session)
    }

    /// The live session a cookie names, its last use now; nil for an unknown, ended or expired one.
    func session(cookieValue: String?) -> Session? {
        guard let cookieValue, !cookieValue.isEmpty, cookieValue.utf8.count <= 64 else { return nil }
        let key = Self.key(cookieValue)
        let now = ContinuousClock.now
        return sessions.withLock { table in
            guard var session = table[key] else { return nil }
            guard !isOver(session, at: now) else {
                table[key] = nil
                return nil
            }
            session.lastSeen = now
            table[key] = session
            return session
        }
    }

    /// Ends a session (sign-out).
    func end(_ session: Session) {
        _ = sessions.withLock { $0.removeValue(forKey: session.key) }
    }

    private func isOver(_ session: Session, at now: ContinuousClock.Instant) -> Bool {
        now - session.lastSeen > idleTimeout || now - session.started > lifetime
    }

    /// 32 random bytes, base64url without padding (cookie- and form-safe).
    static func randomToken() -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func key(_ id: String) -> String {
        SHA256.hash(data: Data(id.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether two tokens are equal, comparing every byte whatever the first difference.
    static func same(_ a: String, _ b: String) -> Bool { ConstantTime.equal(a.utf8, b.utf8) }
}
