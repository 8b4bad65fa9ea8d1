package import Foundation
import GRDB

/// The certificates the person trusts to sign samples (`health trust`), kept in the store: a device manufacturer's,
/// by the SHA-256 of its DER.
package struct TrustedSigners: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    package struct Signer: Sendable, Hashable {
        package var fingerprint: String
        package var subject: String
        package var certificate: Data
        package var addedAt: Date
    }

    /// Trusts a certificate; false when it was trusted already.
    package func add(fingerprint: String, subject: String, certificate: Data, at time: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO trustedSigner (fingerprint, subject, certificate, addedAt) VALUES (?, ?, ?, ?)",
                           arguments: [fingerprint, subject, certificate, time.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    /// Every trusted certificate, oldest first.
    package func all() throws -> [Signer] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM trustedSigner ORDER BY addedAt, fingerprint").map {
                Signer(fingerprint: $0["fingerprint"], subject: $0["subject"], certificate: $0["certificate"],
                       addedAt: Date(timeIntervalSince1970: $0["addedAt"]))
            }
        }
    }

    /// Stops trusting the certificate with this fingerprint.
    package func remove(fingerprint: String) throws {
        try database.write { try $0.execute(sql: "DELETE FROM trustedSigner WHERE fingerprint = ?", arguments: [fingerprint]) }
    }
}
