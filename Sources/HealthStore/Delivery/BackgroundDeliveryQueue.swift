import Crypto
package import Foundation
import GRDB
package import HealthModel

/// Background deliveries to the callback URLs of the daemon's apps, kept in the store so that a restart loses none.
///
/// An app registers one callback URL and enables background delivery per type with a frequency
/// (`enableBackgroundDelivery(for:frequency:)`). Each enabled type has a mark: the store position up to which its
/// changes were queued. ``queueDue(now:)`` looks past each mark for changes the app may see, and queues one delivery per
/// app naming the types whose period has passed since their last delivery; the marks move in the same transaction. A
/// delivery stays pending until the callback answers 2xx: each attempt is counted and its retry time written *before*
/// it is sent, so a daemon killed mid-delivery sends it again after the restart (at least once, never lost).
///
/// Privacy: a delivery names only types in which something changed that the app may read — its own samples, or others'
/// where the person allowed reading — exactly what its observer query would hear; its id is random, never a count.
package struct BackgroundDeliveryQueue: Sendable {
    /// An app's callback.
    package struct Callback: Sendable, Hashable {
        package let app: String
        package let url: URL
        /// The key deliveries are signed with (HMAC-SHA256), given to the app once when it set the callback.
        package let secret: Data
        package let registeredAt: Date
    }

    /// Where a delivery stands.
    package enum State: String, Sendable, CaseIterable {
        /// Waiting for its (next) attempt.
        case pending
        /// The callback answered 2xx.
        case delivered
        /// Every attempt failed; no more are made.
        case failed
        /// Dropped before it was delivered: the app removed its callback, or the person revoked the app.
        case cancelled
    }

    /// One delivery, as the person sees it (`health deliveries`).
    package struct Delivery: Sendable, Hashable {
        /// Random: what the app sees as the delivery's id (a row number would count other apps' deliveries).
        package let id: String
        package let app: String
        /// The type identifiers that changed, sorted.
        package let types: [String]
        package let createdAt: Date
        package let state: State
        /// Attempts made so far (an attempt is counted as it starts).
        package let attempts: Int
        package let nextAttemptAt: Date
        package let deliveredAt: Date?
        /// Why the last attempt failed, or why the delivery was cancelled.
        package let lastError: String?
    }

    package let samples: SampleStore
    /// Delivered, failed and cancelled deliveries are kept this long for the person, then dropped.
    package let retention: TimeInterval

    package init(samples: SampleStore, retention: TimeInterval = 30 * 86_400) {
        self.samples = samples
        self.retention = retention
    }

    private var database: HealthDatabase { samples.database }

    // MARK: - Callbacks

    /// Sets `app`'s callback to `url` with a new signing secret, which is returned (this once). Deliveries still pending
    /// go to the new URL.
    package func setCallback(app: String, url: URL, now: Date = Date()) throws -> Data {
        let secret = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO deliveryCallback (app, url, secret, registeredAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (app) DO UPDATE SET url = excluded.url, secret = excluded.secret, registeredAt = excluded.registeredAt
                """, arguments: [app, url.absoluteString, secret, now.timeIntervalSince1970])
        }
        return secret
    }

    /// `app`'s callback, or nil.
    package func callback(app: String) throws -> Callback? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM deliveryCallback WHERE app = ?", arguments: [app]).flatMap(Self.callback)
        }
    }

    /// Every app's callback, by app.
    package func callbacks() throws -> [Callback] {
        try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM deliveryCallback ORDER BY app").compactMap(Self.callback) }
    }

    /// Removes `app`'s callback; its pending deliveries are cancelled. Whether there was one.
    @discardableResult
    package func removeCallback(app: String, now: Date = Date()) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM deliveryCallback WHERE app = ?", arguments: [app])
            let removed = db.changesCount > 0
            try Self.cancelPending(db, app: app, reason: "the app removed its callback", now: now)
            return removed
        }
    }

    // MARK: - Queueing

    /// Queues a delivery for each app with a callback in whose enabled types something it may see changed, naming the
    /// types whose period has passed (`.immediate`: at once; `.hourly`: an hour after the type's last delivery...).
    /// Returns when the earliest change held back by its period becomes due, or nil.
    @discardableResult
    package func queueDue(now: Date = Date()) throws -> Date? {
        struct Candidate { let app: String, type: String, old: AnchorPosition, new: AnchorPosition, due: Bool }
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.app, b.type, b.frequency, b.sampleMark, b.deletedMark, b.queuedAt FROM backgroundDelivery b
                JOIN deliveryCallback c ON c.app = b.app ORDER BY b.app, b.type
                """)
        }
        var candidates: [Candidate] = []
        var nextDue: Date?
        for row in rows {
            guard let type = HKObjectType.type(forIdentifier: row["type"]) as? HKSampleType else { continue }
            let app: String = row["app"]
            let old = AnchorPosition(sample: row["sampleMark"], deleted: row["deletedMark"])
            let (changed, newest, _) = try samples.observe([(type, nil)], visibleTo: app, after: old)
            guard newest != old else { continue }
            guard !changed.isEmpty else {
                // Nothing the app may see: the mark moves on, so later looks start past what it may not see.
                candidates.append(Candidate(app: app, type: type.identifier, old: old, new: newest, due: false))
                continue
            }
            let period = Self.period(HKUpdateFrequency(rawValue: row["frequency"]) ?? .immediate)
            if let queued = (row["queuedAt"] as Double?).map(Date.init(timeIntervalSince1970:)), now < queued + period {
                nextDue = min(nextDue ?? queued + period, queued + period)
                continue
            }
            candidates.append(Candidate(app: app, type: type.identifier, old: old, new: newest, due: true))
        }
        guard !candidates.isEmpty else { return nextDue }
        try database.write { db in
            // Moved only from the mark that was read: a type disabled meanwhile is left alone.
            let move = try db.makeStatement(sql: """
                UPDATE backgroundDelivery SET sampleMark = ?, deletedMark = ?, queuedAt = CASE WHEN ? THEN ? ELSE queuedAt END
                WHERE app = ? AND type = ? AND sampleMark = ? AND deletedMark = ?
                """)
            for (app, entries) in Dictionary(grouping: candidates, by: \.app).sorted(by: { $0.key < $1.key }) {
                var types: [String] = []
                for entry in entries {
                    try move.execute(arguments: [entry.new.sample, entry.new.deleted, entry.due, now.timeIntervalSince1970,
                                                 app, entry.type, entry.old.sample, entry.old.deleted])
                    if entry.due, db.changesCount > 0 { types.append(entry.type) }
                }
                guard !types.isEmpty else { continue }
                try db.execute(sql: """
                    INSERT INTO delivery (uuid, app, types, createdAt, state, attempts, nextAttemptAt) VALUES (?, ?, ?, ?, 'pending', 0, ?)
                    """, arguments: [UUID().uuidString.lowercased(), app, Self.encode(types.sorted()), now.timeIntervalSince1970,
                                     now.timeIntervalSince1970])
            }
        }
        return nextDue
    }

    /// How long a type's deliveries wait after the last one.
    static func period(_ frequency: HKUpdateFrequency) -> TimeInterval {
        switch frequency {
        case .immediate: 0
        case .hourly: 3_600
        case .daily: 86_400
        case .weekly: 604_800
        }
    }

    // MARK: - Sending

    /// What to send now: each app's oldest pending delivery whose time has come (an app's deliveries go in order), with
    /// its callback.
    package func due(now: Date = Date()) throws -> [(Delivery, Callback)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.*, c.url, c.secret, c.registeredAt FROM delivery d JOIN deliveryCallback c ON c.app = d.app
                WHERE d.id IN (SELECT MIN(id) FROM delivery WHERE state = 'pending' GROUP BY app) AND d.nextAttemptAt <= ?
                ORDER BY d.id
                """, arguments: [now.timeIntervalSince1970]).compactMap { row in
                Self.callback(row).map { (Self.delivery(row), $0) }
            }
        }
    }

    /// When the earliest pending delivery is to be tried, or nil when none is pending.
    package func nextAttempt() throws -> Date? {
        try database.read { db in
            try Double.fetchOne(db, sql: """
                SELECT MIN(nextAttemptAt) FROM delivery d JOIN deliveryCallback c ON c.app = d.app WHERE d.state = 'pending'
                """)
        }.map(Date.init(timeIntervalSince1970:))
    }

    /// Counts an attempt of delivery `id` as it starts, and sets when the next one is made if this one does not succeed.
    package func startAttempt(_ id: String, retryAt: Date) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE delivery SET attempts = attempts + 1, nextAttemptAt = ? WHERE uuid = ? AND state = 'pending'",
                           arguments: [retryAt.timeIntervalSince1970, id])
        }
    }

    /// Records that the callback took delivery `id`.
    package func delivered(_ id: String, now: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE delivery SET state = 'delivered', deliveredAt = ?, lastError = NULL WHERE uuid = ? AND state = 'pending'",
                           arguments: [now.timeIntervalSince1970, id])
            try prune(db, now: now)
        }
    }

    /// Records why an attempt of delivery `id` failed; with `finally`, no more are made.
    package func attemptFailed(_ id: String, reason: String, finally: Bool, now: Date = Date()) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE delivery SET lastError = ?, state = CASE WHEN ? THEN 'failed' ELSE state END WHERE uuid = ? AND state = 'pending'",
                           arguments: [String(reason.prefix(500)), finally, id])
            if finally { try prune(db, now: now) }
        }
    }

    /// Cancels `app`'s pending deliveries, saying why (the person revoked the app).
    package func cancelPending(app: String, reason: String, now: Date = Date()) throws {
        try database.write { db in try Self.cancelPending(db, app: app, reason: reason, now: now) }
    }

    private static func cancelPending(_ db: Database, app: String, reason: String, now: Date) throws {
        try db.execute(sql: "UPDATE delivery SET state = 'cancelled', lastError = ? WHERE app = ? AND state = 'pending'", arguments: [reason, app])
    }

    /// Drops what is past the retention (never a pending delivery).
    private func prune(_ db: Database, now: Date) throws {
        try db.execute(sql: "DELETE FROM delivery WHERE state != 'pending' AND createdAt < ?", arguments: [now.timeIntervalSince1970 - retention])
    }

    // MARK: - The person's view

    /// The deliveries that match, newest first, at most `limit`.
    package func deliveries(app: String? = nil, state: State? = nil, limit: Int = 1_000) throws -> [Delivery] {
        try database.read { db in
            var conditions: [String] = [], arguments: StatementArguments = []
            if let app { conditions.append("app = ?"); arguments += [app] }
            if let state { conditions.append("state = ?"); arguments += [state.rawValue] }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [limit]
            return try Row.fetchAll(db, sql: "SELECT * FROM delivery \(filter) ORDER BY id DESC LIMIT ?", arguments: arguments).map(Self.delivery)
        }
    }

    // MARK: - Rows

    private static func callback(_ row: Row) -> Callback? {
        guard let url = URL(string: row["url"]) else { return nil }
        return Callback(app: row["app"], url: url, secret: row["secret"], registeredAt: Date(timeIntervalSince1970: row["registeredAt"]))
    }

    private static func delivery(_ row: Row) -> Delivery {
        Delivery(id: row["uuid"], app: row["app"], types: decode(row["types"]), createdAt: Date(timeIntervalSince1970: row["createdAt"]),
                 state: State(rawValue: row["state"]) ?? .cancelled, attempts: row["attempts"],
                 nextAttemptAt: Date(timeIntervalSince1970: row["nextAttemptAt"]),
                 deliveredAt: (row["deliveredAt"] as Double?).map(Date.init(timeIntervalSince1970:)), lastError: row["lastError"])
    }

    private static func encode(_ types: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(types)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func decode(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
