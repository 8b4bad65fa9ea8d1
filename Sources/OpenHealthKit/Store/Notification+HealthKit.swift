public import Foundation

extension Notification.Name {
    /// Posted by each open `HKHealthStore`, with itself as the object, when the person changes a preferred unit
    /// (`HealthPerson.setPreferredUnit(_:for:)`, `health prefer`) in this process: read `preferredUnits(for:)` again.
    /// As in HealthKit, observe it with the store as the object, or hear it once per open store.
    public static let HKUserPreferencesDidChange = Notification.Name(HKUserPreferencesDidChangeNotification)
}

extension HKHealthStore {
    /// The message form of `HKUserPreferencesDidChange`, posted on the main actor with the store as its subject:
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: store, for: .userPreferencesDidChange) { _ in reloadUnits() }
    /// ```
    public struct HKUserPreferencesDidChangeMessage: NotificationCenter.MainActorMessage {
        public typealias Subject = HKHealthStore

        public static var name: Notification.Name { .HKUserPreferencesDidChange }

        public init() {}

        @MainActor public static func makeMessage(_ notification: Notification) -> Self? { Self() }

        @MainActor public static func makeNotification(_ message: Self) -> Notification { Notification(name: name) }
    }
}

extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<HKHealthStore.HKUserPreferencesDidChangeMessage> {
    /// Identifies ``HKHealthStore/HKUserPreferencesDidChangeMessage`` for `addObserver(of:for:using:)`.
    public static var userPreferencesDidChange: NotificationCenter.BaseMessageIdentifier<HKHealthStore.HKUserPreferencesDidChangeMessage> {
        .init()
    }
}
