import Foundation
import HealthModel
import HealthStore
import Hummingbird
import Logging
import OpenHealthKit

/// The person's Health app in a browser, served by the daemon on its loopback (or HTTPS) listener: sign-in, the
/// authorization sheets apps wait on, the Summary with charts, sources and permissions, the access log and deliveries.
///
/// Pages are rendered on the server (HTML with inline SVG charts); the stylesheet and a small script come from the
/// repository (``WebAssets``); every form works without script. ``WebGuard`` puts every request through the session,
/// CSRF and header rules.
struct HealthWebApp: Sendable {
    let person: HealthPerson
    let locking: StoreLocking
    let sessions: PersonSessions
    let registrations: AppRegistrations
    /// Makes a write kept while the store was locked (signing in to a locked encrypted store replays them).
    let replay: @Sendable (LockedWrite) async throws -> Bool
    /// Whether the listener is HTTPS: then the session cookie is `Secure`.
    let secureCookies: Bool
    /// The code the first-run page needs, printed by `health serve` in the address it gives.
    let setupCode: String
    /// The export import the pages start and follow (one at a time).
    let imports: StoreImport
    /// The small export bundled with `health`, offered on an empty store.
    let sampleExport: URL?
    let logger: Logger

    var directory: URL { locking.database.directory }

    /// The session cookie: HttpOnly, SameSite=Strict, the whole site, `Secure` over HTTPS.
    func cookie(value: String, maxAge: Int) -> Cookie {
        Cookie(name: PersonSessions.cookieName, value: value, maxAge: maxAge, path: "/", secure: secureCookies, httpOnly: true,
               sameSite: .strict)
    }

    /// The web app's router: every page behind ``WebGuard``.
    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: WebGuard(sessions: sessions, locking: locking, logger: logger))
        WebAssets.add(to: router)
        SignInPages(app: self).add(to: router)
        SummaryPage(app: self).add(to: router)
        TypePage(app: self).add(to: router)
        WorkoutPages(app: self).add(to: router)
        MePage(app: self).add(to: router)
        MedicationsPage(app: self).add(to: router)
        RecordsPages(app: self).add(to: router)
        TransferPages(app: self).add(to: router)
        RequestPages(app: self).add(to: router)
        SourcesPages(app: self).add(to: router)
        LogPages(app: self).add(to: router)
        return router
    }

    /// Keeps the last year's chart days of every quantity type ahead (after an import, when the daemon starts).
    @Sendable func warmUpCharts() async {
        await ChartDays(person: person, database: locking.database).warmUp(calendar: calendar, logger: logger)
    }

    /// The person's time zone: what days, weeks and months begin by.
    func calendar() throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try person.timeZone()
        calendar.firstWeekday = 2
        return calendar
    }
}

/// Readable names of HealthKit's type identifiers: "HKQuantityTypeIdentifierStepCount" is "Step Count".
enum TypeNames {
    /// A unit as the Health app writes it after a figure: "steps" and "floors" rather than "count".
    static func unit(_ unit: HKUnit, of type: HKSampleType) -> String {
        guard unit.unitString == "count" else { return unit.unitString }
        switch type.identifier {
        case HKQuantityTypeIdentifier.stepCount.rawValue: return "steps"
        case HKQuantityTypeIdentifier.flightsClimbed.rawValue: return "floors"
        case HKQuantityTypeIdentifier.pushCount.rawValue: return "pushes"
        case HKQuantityTypeIdentifier.swimmingStrokeCount.rawValue: return "strokes"
        default: return "count"
        }
    }

    /// A type's name on the pages (the terminal's too; see `TerminalPresenter.displayName`).
    static func title(_ identifier: String) -> String { TerminalPresenter.displayName(identifier) }
}
