public import Foundation

/// The domain of every error OpenHealthKit reports, as in HealthKit.
public let HKErrorDomain = "com.apple.healthkit"

/// An error reported by OpenHealthKit, with HealthKit's codes and domain.
///
/// Match on the code, exactly as with HealthKit:
///
/// ```swift
/// do {
///     try await store.save(sample)
/// } catch HKError.errorAuthorizationDenied {
///     // ask the person again
/// } catch let error as HKError {
///     print(error.code, error.message)
/// }
/// ```
///
/// Unlike HealthKit, every error carries a specific ``message`` that names the problem
/// (the unit string and position, both units of a failed conversion, the offending metadata key…).
/// Messages never contain health values unless the caller passed them in.
/// Two errors are equal when their codes are equal, so tests can write `#expect(throws: HKError(.errorInvalidArgument))`.
public struct HKError: Error, CustomNSError, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// HealthKit's error codes (`HKErrorCode`), with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case unknownError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorDatabaseInaccessible = 6
        case errorUserCanceled = 7
        case errorAnotherWorkoutSessionStarted = 8
        case errorUserExitedWorkoutSession = 9
        case errorRequiredAuthorizationDenied = 10
        case errorNoData = 11
        case errorWorkoutActivityNotAllowed = 12
        case errorDataSizeExceeded = 13
        case errorBackgroundWorkoutSessionNotAllowed = 14
        case errorNotPermissibleForGuestUserMode = 15

        /// Deprecated alias of ``unknownError`` (same raw value, 0).
        @available(*, deprecated, renamed: "unknownError")
        public static var noError: Code { .unknownError }

        public var description: String {
            switch self {
            case .unknownError: "unknownError"
            case .errorHealthDataUnavailable: "errorHealthDataUnavailable"
            case .errorHealthDataRestricted: "errorHealthDataRestricted"
            case .errorInvalidArgument: "errorInvalidArgument"
            case .errorAuthorizationDenied: "errorAuthorizationDenied"
            case .errorAuthorizationNotDetermined: "errorAuthorizationNotDetermined"
            case .errorDatabaseInaccessible: "errorDatabaseInaccessible"
            case .errorUserCanceled: "errorUserCanceled"
            case .errorAnotherWorkoutSessionStarted: "errorAnotherWorkoutSessionStarted"
            case .errorUserExitedWorkoutSession: "errorUserExitedWorkoutSession"
            case .errorRequiredAuthorizationDenied: "errorRequiredAuthorizationDenied"
            case .errorNoData: "errorNoData"
            case .errorWorkoutActivityNotAllowed: "errorWorkoutActivityNotAllowed"
            case .errorDataSizeExceeded: "errorDataSizeExceeded"
            case .errorBackgroundWorkoutSessionNotAllowed: "errorBackgroundWorkoutSessionNotAllowed"
            case .errorNotPermissibleForGuestUserMode: "errorNotPermissibleForGuestUserMode"
            }
        }
    }

    /// The HealthKit error code.
    public let code: Code
    /// A human-readable explanation naming the problem.
    public let message: String
    /// Which of the store's own refusals this is, for the code inside the package that acts on it (the web Health app's
    /// sign-in telling a wrong passphrase from a damaged store). Apps see only ``code`` and ``message``.
    package private(set) var reason: Reason?

    /// The refusals the package's own code tells apart without reading a message.
    package enum Reason: Sendable, Hashable {
        /// The passphrase does not open the store (or does not match the plain store's check).
        case wrongPassphrase
        /// The key file does not open the store.
        case wrongKeyFile
    }

    /// Creates an error the way HealthKit's imported error struct does.
    /// A `NSLocalizedDescriptionKey` string in `userInfo` becomes the ``message``.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.message = (userInfo[NSLocalizedDescriptionKey] as? String) ?? code.description
    }

    /// Creates an error with a specific message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Creates an error with a specific message and the refusal it is.
    package init(_ code: Code, _ message: String, reason: Reason?) {
        self.code = code
        self.message = message
        self.reason = reason
    }

    public static var errorDomain: String { HKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var userInfo: [String: Any] { errorUserInfo }
    public var errorDescription: String? { message }
    public var description: String { "HKError(\(code)): \(message)" }

    public static func == (lhs: HKError, rhs: HKError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var unknownError: Code { .unknownError }
    public static var errorHealthDataUnavailable: Code { .errorHealthDataUnavailable }
    public static var errorHealthDataRestricted: Code { .errorHealthDataRestricted }
    public static var errorInvalidArgument: Code { .errorInvalidArgument }
    public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
    public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
    public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
    public static var errorUserCanceled: Code { .errorUserCanceled }
    public static var errorAnotherWorkoutSessionStarted: Code { .errorAnotherWorkoutSessionStarted }
    public static var errorUserExitedWorkoutSession: Code { .errorUserExitedWorkoutSession }
    public static var errorRequiredAuthorizationDenied: Code { .errorRequiredAuthorizationDenied }
    public static var errorNoData: Code { .errorNoData }
    public static var errorWorkoutActivityNotAllowed: Code { .errorWorkoutActivityNotAllowed }
    public static var errorDataSizeExceeded: Code { .errorDataSizeExceeded }
    public static var errorBackgroundWorkoutSessionNotAllowed: Code { .errorBackgroundWorkoutSessionNotAllowed }
    public static var errorNotPermissibleForGuestUserMode: Code { .errorNotPermissibleForGuestUserMode }
}

/// Lets `catch HKError.errorInvalidArgument` match, as with Apple's imported error structs.
public func ~= (code: HKError.Code, error: any Error) -> Bool {
    (error as? HKError)?.code == code
}

extension HKError {
    /// Shorthand for the most common error: an argument HealthKit would reject.
    package static func invalidArgument(_ message: String) -> HKError {
        HKError(.errorInvalidArgument, message)
    }
}
