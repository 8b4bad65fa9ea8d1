import Foundation
import Synchronization
import Testing
@testable import OpenHealthKit

/// Two apps writing steps into one store: "phone" (first to write) and "watch".
struct TwoSources {
    let phone: HKHealthStore
    let watch: HKHealthStore
    let folder: URL

    static func make(readerMayRead: Bool = true) async throws -> TwoSources {
        var phoneApp = AppManifest.stepsApp
        phoneApp.bundleIdentifier = "com.example.phone"
        phoneApp.name = "Phone"
        let script: ScriptedPresenter.Script = readerMayRead ? .allowAll : .init(default: .allow, read: [steps.identifier: .deny])
        let (phone, _, folder) = makeStore(app: phoneApp, script)
        var watchApp = AppManifest.stepsApp
        watchApp.bundleIdentifier = "com.example.watch"
        watchApp.name = "Watch"
        let (watch, _, _) = makeStore(app: watchApp, .allowAll, in: folder)
        for store in [phone, watch] { try await store.requestAuthorization(toShare: [steps, heartRate], read: [steps, heartRate]) }
        return TwoSources(phone: phone, watch: watch, folder: folder)
    }
}
