/// One app as the person sees it in the Health app's "Apps" list: its manifest and, per type it asked
/// for (or the person set), what it asked and what the person decided.
///
/// ```swift
/// for app in try person.apps() {
///     print(app.app.name)
///     for type in app.types { print(" ", type.typeIdentifier, type.share ?? "not decided") }
/// }
/// ```
public struct AppAccess: Sendable, Hashable {
    /// The app, as it registered with the store.
    public let app: AppManifest
    /// Per type, by identifier.
    public let types: [TypeAccess]

    /// What one app asked for one type, and what the person decided.
    public struct TypeAccess: Sendable, Hashable {
        public let typeIdentifier: String
        /// The app asked to write this type.
        public let shareRequested: Bool
        /// The app asked to read this type.
        public let readRequested: Bool
        /// Writing allowed (`true`), denied (`false`) or not decided (`nil`).
        public let share: Bool?
        /// Reading allowed (`true`), denied (`false`) or not decided (`nil`).
        public let read: Bool?

        public init(typeIdentifier: String, shareRequested: Bool, readRequested: Bool, share: Bool?, read: Bool?) {
            self.typeIdentifier = typeIdentifier
            self.shareRequested = shareRequested
            self.readRequested = readRequested
            self.share = share
            self.read = read
        }
    }

    public init(app: AppManifest, types: [TypeAccess]) {
        self.app = app
        self.types = types
    }
}
