/// What the person is asked: the "authorization sheet" an app's request puts in front of them.
/// It lists only the types the person has not decided yet.
///
/// ```swift
/// struct AlwaysAllow: HKAuthorizationPresenter {
///     func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response {
///         .decided(share: sheet.shareTypes, read: sheet.readTypes)
///     }
/// }
/// ```
public struct AuthorizationSheet: Sendable, Hashable {
    /// The app asking.
    public let app: AppManifest
    /// Identifiers of the types the app asks to write, not decided yet.
    public let shareTypes: Set<String>
    /// Identifiers of the types the app asks to read, not decided yet.
    public let readTypes: Set<String>
    /// Identifiers of the clinical types the app declares it cannot work without.
    public let requiredReadTypes: Set<String>

    public init(app: AppManifest, shareTypes: Set<String>, readTypes: Set<String>, requiredReadTypes: Set<String> = []) {
        self.app = app
        self.shareTypes = shareTypes
        self.readTypes = readTypes
        self.requiredReadTypes = requiredReadTypes
    }

    /// The person's answer.
    public enum Response: Sendable, Hashable {
        /// The person decided every listed type: those in `share`/`read` are allowed, the rest denied.
        case decided(share: Set<String>, read: Set<String>)
        /// The person closed the sheet without deciding; nothing changes.
        case dismissed
    }
}

/// Puts an ``AuthorizationSheet`` in front of the person and returns their answer: a scripted person in
/// tests, a terminal prompt in the CLI, a web page in the daemon.
public protocol HKAuthorizationPresenter: Sendable {
    func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response
    /// Asks which verifiable records to share with an app (see ``RecordSharingSheet``); by default, none (cancelled).
    func present(_ sheet: RecordSharingSheet) async -> RecordSharingSheet.Response
    /// Asks which objects of a type read object by object an app may read (see ``ObjectAuthorizationSheet``); by
    /// default, the sheet is closed (nothing changes).
    func present(_ sheet: ObjectAuthorizationSheet) async -> ObjectAuthorizationSheet.Response
}
