import Foundation
import OpenHealthKit
import Testing

/// States of mind on the web app's type page: a band of the day's valences with their average, and each one listed
/// with its kind, valence, classification and words.
@Suite("The web app: states of mind")
struct WebAppStateOfMindTests {
    @Test func theTypePageChartsValencesAndListsEachStateOfMind() async throws {
        try await WebAppHarness.with { web in
            let type = HKObjectType.stateOfMindType()
            let token = try await web.daemon.connect(AppManifest.steps.bundleIdentifier, share: [type], read: [type])
            let app = HKHealthStore(configuration: .init(server: .init(address: web.daemon.socketPath, token: token), app: .steps))
            try await app.save([
                HKStateOfMind(date: WebAppHarness.at("2025-05-06", "09:00"), kind: .momentaryEmotion, valence: -0.5, labels: [.stressed],
                              associations: [.work]),
                HKStateOfMind(date: WebAppHarness.at("2025-05-06", "21:00"), kind: .dailyMood, valence: 0.75, labels: [.happy, .grateful],
                              associations: [.family]),
            ])
            let page = try await web.browser.get("/types/\(type.identifier)?span=day&date=2025-05-06")
            #expect(page.status == 200)
            #expect(page.body.contains("2</span> <span class=\"muted\">logged, average valence 0.12"), "\(page.body)")
            #expect(page.body.contains("<title id=\"chart-title\">State of Mind: valence from -1 to 1</title>"))
            #expect(page.chartMarks("band").count == 2, "\(page.chartMarks("band"))")
            #expect(page.body.contains("daily mood 0.75 (veryPleasant): happy, grateful, family"))
            #expect(page.body.contains("emotion -0.5 (unpleasant): stressed, work"))
        }
    }
}
