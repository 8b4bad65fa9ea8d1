import GRDB

/// A row of `authorization`: what the person decided for one app and one type.
struct AuthorizationRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "authorization"

    var app: String
    var typeIdentifier: String
    /// true allowed, false denied, nil never decided.
    var share: Bool?
    var read: Bool?
    var shareRequested: Bool
    var readRequested: Bool
    var updatedAt: Double

    enum Columns {
        static let app = Column(CodingKeys.app)
        static let typeIdentifier = Column(CodingKeys.typeIdentifier)
    }
}

/// A row of `app`: an app's manifest as the store knows it.
struct AppRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "app"

    var bundleIdentifier: String
    var name: String
    var version: String?
    var shareUsageDescription: String?
    var updateUsageDescription: String?
    var clinicalUsageDescription: String?
    var registeredAt: Double
}
