import Foundation
import GRDB
package import HealthModel

/// The authorization database and HealthKit's rules for requesting access. Per app and per type, the
/// person decides share (write) and read separately; apps learn only their share status.
package struct AuthorizationService: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    // MARK: - Apps

    /// Records (or updates) an app's manifest.
    package func register(_ manifest: AppManifest) throws {
        try checkRegistrable(manifest)
        // A snapshot records nothing: the app is checked, and reads what the store says about it.
        if database.isReadOnly { return }
        try write { db in
            let existing = try AppRecord.fetchOne(db, key: manifest.bundleIdentifier)
            if let taken = Self.taken(existing?.name, by: manifest) { throw taken }

            try AppRecord(
                bundleIdentifier: manifest.bundleIdentifier, name: manifest.name, version: manifest.version,
                shareUsageDescription: manifest.shareUsageDescription, updateUsageDescription: manifest.updateUsageDescription,
                clinicalUsageDescription: manifest.clinicalUsageDescription,
                registeredAt: existing?.registeredAt ?? Date().timeIntervalSince1970
            ).save(db)
            try db.execute(sql: "DELETE FROM requiredReadType WHERE app = ?", arguments: [manifest.bundleIdentifier])
            for type in manifest.requiredReadTypeIdentifiers ?? [] {
                try db.execute(sql: "INSERT OR IGNORE INTO requiredReadType (app, typeIdentifier) VALUES (?, ?)",
                               arguments: [manifest.bundleIdentifier, type])
            }
        }
    }

    /// Checks that `manifest` names an identity an app may have: not empty, not the person's view, not reserved, and
    /// not another app's (a different name under the same bundle identifier).
    package func checkRegistrable(_ manifest: AppManifest) throws {
        guard !manifest.bundleIdentifier.isEmpty else {
            throw HKError.invalidArgument("the app manifest has an empty CFBundleIdentifier")
        }
        guard manifest.bundleIdentifier != AuthorizationService.personReader else {
            throw HKError.invalidArgument("\"\(manifest.bundleIdentifier)\" is reserved for the person's own view; it is not a bundle identifier")
        }
        let identifier = manifest.bundleIdentifier
        if let owner = Self.reservedPrefixes.first(where: { identifier.lowercased().hasPrefix($0.prefix) })?.owner {
            throw HKError(.errorAuthorizationDenied, "an app cannot register as \(identifier): that identity belongs to \(owner)")
        }
        if let taken = Self.taken(try read({ db in try AppRecord.fetchOne(db, key: identifier) })?.name, by: manifest) { throw taken }
    }

    /// The refusal when `existingName`, the name of the app recorded under `manifest`'s bundle identifier, is another
    /// app's.
    static func taken(_ existingName: String?, by manifest: AppManifest) -> HKError? {
        guard let existingName, existingName != manifest.name else { return nil }
        return HKError(.errorAuthorizationDenied, """
            \(manifest.bundleIdentifier) is registered to the app "\(existingName)"; "\(manifest.name)" cannot register under the \
            same bundle identifier
            """)
    }

    /// Identities no app may claim: they name Apple's apps and the person's devices, and the sources imports create.
    static let reservedPrefixes: [(prefix: String, owner: String)] = [
        ("com.apple.", "Apple (the Health app and the person's own devices)"),
        ("export.", "data imported from an Apple Health export"),
        ("healthrecords.", "a health-record provider's imported records"),
    ]

    // MARK: - What apps may learn

    /// The app's share status for a type: the only authorization fact HealthKit reveals to apps.
    package func shareStatus(app: String, type: String) throws -> HKAuthorizationStatus {
        let share = try database.readOneStatement { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT share FROM authorization WHERE app = ? AND typeIdentifier = ?"), arguments: [app, type])
        }
        switch share {
        case .some(true): return .sharingAuthorized
        case .some(false): return .sharingDenied
        case .none: return .notDetermined
        }
    }

    /// `.shouldRequest` when any of the types was never put before the person, `.unnecessary` otherwise.
    package func requestStatus(app: String, share: Set<String>, read readTypes: Set<String>) throws -> HKAuthorizationRequestStatus {
        let pending = try pendingTypes(app: app, share: share, read: readTypes)
        return pending.share.isEmpty && pending.read.isEmpty ? .unnecessary : .shouldRequest
    }

    /// The types whose sharing or reading the person has decided for `app` (those `requestStatus` calls unnecessary to
    /// ask again): what `preferredUnits(for:)` lets the app ask about.
    package func decidedTypes(app: String) throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: #"SELECT typeIdentifier FROM authorization WHERE app = ? AND ("share" IS NOT NULL OR "read" IS NOT NULL)"#,
                                    arguments: [app]))
        }
    }

    /// Whether the app may see other sources' data of a type. Apps never learn this answer: every read
    /// path uses it to show a denied app exactly what it would see if nobody else had data.
    package func canRead(app: String, type: String) throws -> Bool {
        try read { db in try AuthorizationService.canRead(app: app, type: type, in: db) }
    }

    /// Whether the person allowed `app` to read `type`, inside a transaction the caller holds. The person's own view
    /// (``personReader``) reads everything.
    static func canRead(app: String, type: String, in db: Database) throws -> Bool {
        if app == personReader { return true }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT read FROM authorization WHERE app = ? AND typeIdentifier = ?"),
                                 arguments: [app, type]) == true
    }

    /// The reader identity of the person's own view of their store (`HealthPerson.healthStore`): it sees every
    /// source's data. No app can have it — it is not a bundle identifier, and it is never registered.
    package static let personReader = "(the person)"

    // MARK: - Requesting access

    /// Runs an app's authorization request: validates it, presents the undecided types (only those) to the
    /// person through `presenter`, and records the answer. Completes at once, presenting nothing, when every
    /// type is already decided or the store is in guest mode.
    package func requestAuthorization(
        app manifest: AppManifest, share: Set<HKSampleType>, read readTypes: Set<HKObjectType>,
        presenter: any HKAuthorizationPresenter
    ) async throws {
        try validate(manifest: manifest, share: share, read: readTypes)
        try register(manifest)
        if try isGuestMode() { return }

        let app = manifest.bundleIdentifier
        let shareIDs = Set(share.map(\.identifier))
        let readIDs = Set(readTypes.map(\.identifier))
        try markRequested(app: app, share: shareIDs, read: readIDs)
        let pending = try pendingTypes(app: app, share: shareIDs, read: readIDs)
        let required = Set(manifest.requiredReadTypeIdentifiers ?? [])
        if !pending.share.isEmpty || !pending.read.isEmpty {
            let sheet = AuthorizationSheet(app: manifest, shareTypes: pending.share, readTypes: pending.read,
                                           requiredReadTypes: required.intersection(pending.read))
            switch await presenter.present(sheet) {
            case .dismissed:
                throw HKError(.errorUserCanceled, "the person closed the authorization sheet without deciding")
            case .decided(let allowedShare, let allowedRead):
                try record(app: app, share: pending.share, allowed: allowedShare, read: pending.read, allowedRead: allowedRead)
            }
        }
        // Required clinical types: if any requested one is denied, the whole request fails, naming none.
        let requestedRequired = required.intersection(readIDs)
        if !requestedRequired.isEmpty {
            for type in requestedRequired where try !canRead(app: app, type: type) {
                throw HKError(.errorRequiredAuthorizationDenied,
                              "the person did not allow access to all of the health records this app requires")
            }
        }
    }

    private func validate(manifest: AppManifest, share: Set<HKSampleType>, read readTypes: Set<HKObjectType>) throws {
        if let perObject = readTypes.first(where: { $0.requiresPerObjectAuthorization() }) {
            // HealthKit raises here ("Authorization to read the following types is disallowed"); an error names the way.
            throw HKError.invalidArgument("""
                reading \(perObject.identifier) is authorized object by object: ask with requestPerObjectReadAuthorization(for:predicate:), \
                not requestAuthorization(toShare:read:)
                """)
        }
        if readTypes.contains(where: { $0 is HKMedicationDoseEventType }) {
            throw HKError.invalidArgument("""
                medication dose events are read with the medications they belong to: ask for those with \
                requestPerObjectReadAuthorization(for: HKObjectType.userAnnotatedMedicationType(), predicate:)
                """)
        }
        for type in share {
            if type is HKMedicationDoseEventType {
                throw HKError.invalidArgument("medication dose events are read-only: the person logs them; \(type.identifier) cannot be requested for sharing")
            }
            if type is HKClinicalType {
                throw HKError.invalidArgument("clinical types are read-only: \(type.identifier) cannot be requested for sharing")
            }
            if type is HKElectrocardiogramType {
                throw HKError.invalidArgument("electrocardiograms are read-only: \(type.identifier) cannot be requested for sharing")
            }
            if type is HKCorrelationType {
                throw HKError.invalidArgument(
                    "\(type.identifier) cannot be requested for sharing; request its member types (e.g. systolic and diastolic blood pressure)")
            }
        }
        if !share.isEmpty, (manifest.updateUsageDescription ?? "").isEmpty {
            throw HKError.invalidArgument(
                "\(manifest.bundleIdentifier) must declare NSHealthUpdateUsageDescription in its manifest to request write access")
        }
        let clinical = readTypes.filter { $0 is HKClinicalType }
        if readTypes.count > clinical.count, (manifest.shareUsageDescription ?? "").isEmpty {
            throw HKError.invalidArgument(
                "\(manifest.bundleIdentifier) must declare NSHealthShareUsageDescription in its manifest to request read access")
        }
        if !clinical.isEmpty, (manifest.clinicalUsageDescription ?? "").isEmpty {
            throw HKError.invalidArgument(
                "\(manifest.bundleIdentifier) must declare NSHealthClinicalHealthRecordsShareUsageDescription in its manifest to request health records")
        }
        if let required = manifest.requiredReadTypeIdentifiers, !required.isEmpty {
            let clinicalIDs = Set(HealthCatalog.otherTypes.filter { $0.kind == "clinical" }.map(\.identifier))
            if let stray = required.first(where: { !clinicalIDs.contains($0) }) {
                throw HKError.invalidArgument(
                    "NSHealthRequiredReadAuthorizationTypeIdentifiers may list only clinical types; \(stray) is not one")
            }
            guard Set(required).count >= 3 else {
                throw HKError.invalidArgument(
                    "NSHealthRequiredReadAuthorizationTypeIdentifiers must list three or more clinical types, not \(Set(required).count)")
            }
        }
    }

    /// The types the person has not decided yet, per direction.
    private func pendingTypes(app: String, share: Set<String>, read readTypes: Set<String>) throws -> (share: Set<String>, read: Set<String>) {
        let rows = try read { db in
            try AuthorizationRecord.filter(AuthorizationRecord.Columns.app == app).fetchAll(db)
        }
        let byType = Dictionary(uniqueKeysWithValues: rows.map { ($0.typeIdentifier, $0) })
        return (share.filter { byType[$0]?.share == nil }, readTypes.filter { byType[$0]?.read == nil })
    }

    private func markRequested(app: String, share: Set<String>, read readTypes: Set<String>) throws {
        let now = Date().timeIntervalSince1970
        try write { db in
            for type in share.union(readTypes) {
                try db.execute(sql: """
                    INSERT INTO authorization (app, typeIdentifier, shareRequested, readRequested, updatedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app, typeIdentifier) DO UPDATE SET
                        shareRequested = shareRequested OR excluded.shareRequested,
                        readRequested = readRequested OR excluded.readRequested
                    """, arguments: [app, type, share.contains(type), readTypes.contains(type), now])
            }
        }
    }

    private func record(app: String, share: Set<String>, allowed: Set<String>, read readTypes: Set<String>, allowedRead: Set<String>) throws {
        let now = Date().timeIntervalSince1970
        try write { db in
            for type in share {
                try db.execute(sql: "UPDATE authorization SET share = ?, updatedAt = ? WHERE app = ? AND typeIdentifier = ?",
                               arguments: [allowed.contains(type), now, app, type])
            }
            for type in readTypes {
                try db.execute(sql: "UPDATE authorization SET read = ?, updatedAt = ? WHERE app = ? AND typeIdentifier = ?",
                               arguments: [allowedRead.contains(type), now, app, type])
            }
        }
    }

    // MARK: - The person's side

    /// Every app the store knows, by name, with the types each asked for and the person's decisions.
    package func apps() throws -> [AppAccess] {
        try read { db in
            let apps = try AppRecord.order(sql: "name COLLATE NOCASE, bundleIdentifier").fetchAll(db)
            return try apps.map { app in
                let required = try String.fetchAll(db, sql: "SELECT typeIdentifier FROM requiredReadType WHERE app = ? ORDER BY typeIdentifier",
                                                   arguments: [app.bundleIdentifier])
                let manifest = AppManifest(
                    bundleIdentifier: app.bundleIdentifier, name: app.name, version: app.version,
                    shareUsageDescription: app.shareUsageDescription, updateUsageDescription: app.updateUsageDescription,
                    clinicalUsageDescription: app.clinicalUsageDescription, requiredReadTypeIdentifiers: required.isEmpty ? nil : required)
                let rows = try AuthorizationRecord.filter(AuthorizationRecord.Columns.app == app.bundleIdentifier)
                    .order(AuthorizationRecord.Columns.typeIdentifier).fetchAll(db)
                return AppAccess(app: manifest, types: rows.map {
                    AppAccess.TypeAccess(typeIdentifier: $0.typeIdentifier, shareRequested: $0.shareRequested,
                                         readRequested: $0.readRequested, share: $0.share, read: $0.read)
                })
            }
        }
    }

    /// Sets an app's permission for a type, as the person does in the Health app. Applies at once.
    /// `nil` leaves that direction as it is. Allowing writes of a read-only type (clinical records,
    /// characteristics) is an error.
    package func setPermission(app: String, type: String, share: Bool?, read readAllowed: Bool?) throws {
        guard let objectType = HKObjectType.type(forIdentifier: type) else {
            throw HKError.invalidArgument("\"\(type)\" is not a HealthKit type identifier")
        }
        if share == true, !(objectType is HKSampleType) || objectType is HKClinicalType || objectType is HKElectrocardiogramType {
            throw HKError.invalidArgument("\(type) is read-only: no app may write it")
        }
        let now = Date().timeIntervalSince1970
        try write { db in
            guard try AppRecord.fetchOne(db, key: app) != nil else {
                throw HKError.invalidArgument("no app \"\(app)\" is known to this store")
            }
            try db.execute(sql: """
                INSERT INTO authorization (app, typeIdentifier, share, read, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (app, typeIdentifier) DO UPDATE SET
                    share = coalesce(excluded.share, share), read = coalesce(excluded.read, read), updatedAt = excluded.updatedAt
                """, arguments: [app, type, share, readAllowed, now])
        }
    }

    package func isGuestMode() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT guestMode FROM person WHERE id = 1") } ?? false
    }

    package func setGuestMode(_ on: Bool) throws {
        try write { db in try db.execute(sql: "UPDATE person SET guestMode = ? WHERE id = 1", arguments: [on]) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T { try database.read(body) }
    private func write<T>(_ body: (Database) throws -> T) throws -> T { try database.write(body) }
}
