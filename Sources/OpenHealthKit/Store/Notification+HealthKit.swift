public import Foundation

extension Notification.Name {
    /// Posted when the person changes a preferred unit (`HealthPerson.setPreferredUnit(_:for:)`, `health prefer`) in
    /// this process: read `preferredUnits(for:)` again.
    public static let HKUserPreferencesDidChange = Notification.Name(HKUserPreferencesDidChangeNotification)
}
