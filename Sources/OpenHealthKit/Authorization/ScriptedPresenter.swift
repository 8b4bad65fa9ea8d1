import Foundation
import Synchronization

/// A scripted person for tests and CI: answers every authorization sheet from a script and keeps a log
/// of the sheets it was shown.
///
/// The script is JSON (the file `OPENHEALTHKIT_PERSON` names), per type and per direction:
///
/// ```json
/// {
///   "default": "deny",
///   "share": { "HKQuantityTypeIdentifierStepCount": "allow" },
///   "read":  { "HKQuantityTypeIdentifierStepCount": "allow", "HKQuantityTypeIdentifierHeartRate": "deny" },
///   "dismiss": false,
///   "guestMode": false,
///   "shareRecords": "allow",
///   "readObjects": "allow"
/// }
/// ```
///
/// `readObjects` answers per-object requests (vision prescriptions): `allow` lets the app read every object listed,
/// `deny` none of them (`default` when not set); `dismiss` closes that sheet too.
///
/// `shareRecords` answers verifiable-record queries: `allow` shares every matching record, `deny` shares none, and
/// when `dismiss` is true the sheet is closed (the query fails with `errorUserCanceled`).
public final class ScriptedPresenter: HKAuthorizationPresenter {
    /// What the scripted person does.
    public struct Script: Codable, Sendable, Hashable {
        public enum Answer: String, Codable, Sendable { case allow, deny }

        /// The answer for any type the script does not list.
        public var `default`: Answer
        /// Answers for writing, by type identifier.
        public var share: [String: Answer]
        /// Answers for reading, by type identifier.
        public var read: [String: Answer]
        /// Close the sheet without deciding.
        public var dismiss: Bool
        /// Put the store in guest mode when `HKHealthStore()` opens it from the environment.
        public var guestMode: Bool?
        /// Whether to share the matching verifiable records when an app asks (`default` when not set).
        public var shareRecords: Answer?
        /// Whether to let the app read every object listed on a per-object sheet (`default` when not set).
        public var readObjects: Answer?

        public init(default: Answer = .deny, share: [String: Answer] = [:], read: [String: Answer] = [:],
                    dismiss: Bool = false, guestMode: Bool? = nil, shareRecords: Answer? = nil, readObjects: Answer? = nil) {
            self.default = `default`
            self.share = share
            self.read = read
            self.dismiss = dismiss
            self.guestMode = guestMode
            self.shareRecords = shareRecords
            self.readObjects = readObjects
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.default = try c.decodeIfPresent(Answer.self, forKey: .default) ?? .deny
            share = try c.decodeIfPresent([String: Answer].self, forKey: .share) ?? [:]
            read = try c.decodeIfPresent([String: Answer].self, forKey: .read) ?? [:]
            dismiss = try c.decodeIfPresent(Bool.self, forKey: .dismiss) ?? false
            guestMode = try c.decodeIfPresent(Bool.self, forKey: .guestMode)
            shareRecords = try c.decodeIfPresent(Answer.self, forKey: .shareRecords)
            readObjects = try c.decodeIfPresent(Answer.self, forKey: .readObjects)
        }

        /// Allows everything asked.
        public static let allowAll = Script(default: .allow)
        /// Denies everything asked.
        public static let denyAll = Script(default: .deny)
    }

    public let script: Script
    private let shown = Mutex<[AuthorizationSheet]>([])
    private let sharingShown = Mutex<[RecordSharingSheet]>([])
    private let objectsShown = Mutex<[ObjectAuthorizationSheet]>([])

    public init(_ script: Script) {
        self.script = script
    }

    /// The sheets this person has been shown, oldest first.
    public var presentedSheets: [AuthorizationSheet] { shown.withLock { $0 } }

    /// The record-sharing sheets this person has been shown, oldest first.
    public var presentedRecordSheets: [RecordSharingSheet] { sharingShown.withLock { $0 } }

    /// The per-object sheets this person has been shown, oldest first.
    public var presentedObjectSheets: [ObjectAuthorizationSheet] { objectsShown.withLock { $0 } }

    public func present(_ sheet: ObjectAuthorizationSheet) async -> ObjectAuthorizationSheet.Response {
        objectsShown.withLock { $0.append(sheet) }
        if script.dismiss { return .dismissed }
        return .allow((script.readObjects ?? script.default) == .allow ? Set(sheet.objects.map(\.uuid)) : [])
    }

    public func present(_ sheet: RecordSharingSheet) async -> RecordSharingSheet.Response {
        sharingShown.withLock { $0.append(sheet) }
        if script.dismiss { return .cancelled }
        return .share((script.shareRecords ?? script.default) == .allow ? Set(sheet.records.map(\.record.uuid)) : [])
    }

    public func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response {
        shown.withLock { $0.append(sheet) }
        if script.dismiss { return .dismissed }
        let share = sheet.shareTypes.filter { (script.share[$0] ?? script.default) == .allow }
        let read = sheet.readTypes.filter { (script.read[$0] ?? script.default) == .allow }
        return .decided(share: share, read: read)
    }
}
