import AsyncHTTPClient
import Foundation
@testable import HealthServer
import NIOCore
import NIOHTTP1
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)

/// An export made for a test: `count` step samples (100, 101, … steps, a minute apart on 10 June 2025) in a new store,
/// exported as a phone exports them. Remove `folder` after.
private func smallExport(count: Int) throws -> (zip: URL, folder: URL) {
    let folder = try DaemonHarness.privateFolder()
    let person = try HealthPerson(storeDirectory: folder.appendingPathComponent("store"))
    let start = WebAppHarness.at("2025-06-10", "08:00")
    for index in 0..<count {
        let when = start.addingTimeInterval(Double(index) * 60)
        try person.addEntry(steps, value: Double(100 + index), unit: .count(), start: when, end: when)
    }
    let zip = folder.appendingPathComponent("export.zip")
    _ = try person.exportHealthData(to: zip, timeZone: TimeZone(identifier: "UTC")!)
    return (zip, folder)
}

/// Samples per type in a store (what an import added).
private func counts(_ person: HealthPerson) throws -> [String: Int] {
    Dictionary(try person.summary().map { ($0.type.identifier, $0.count) }, uniquingKeysWith: +)
}

private extension WebClient.Page {
    /// `yes` while the import page says an import runs, `no` when none does.
    var importStatusRunning: String? { Self.tags("div", in: body).first { $0["id"] == "import-status" }?["data-running"] }

    /// The token the import page's script sends in `X-CSRF-Token` (the upload form's `data-csrf`).
    var importScriptToken: String? { forms.first { $0["id"] == "upload-form" }?["data-csrf"] }
}

private extension WebAppHarness {
    /// The import page once no import runs (after up to five minutes: a loaded machine imports slowly).
    func importPageOnceEnded() async throws -> WebClient.Page {
        let deadline = ContinuousClock.now + .seconds(300)
        while true {
            let page = try await browser.get("/import")
            if page.importStatusRunning != "yes" || ContinuousClock.now > deadline { return page }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// Bringing an export in (`/import`, its events) and taking the store out (`/export.zip`).
@Suite("The web app: import and export")
struct WebAppMoreTransferTests {
    @Test func anExportSentAsTheRawBodyIsImportedAndItsEventsEndWithTheCount() async throws {
        // What the bundled export holds, imported into a store of its own.
        let reference = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: reference) }
        let referencePerson = try HealthPerson(storeDirectory: reference.appendingPathComponent("store"))
        let expected = try referencePerson.importExport(at: WebAppMoreFixtures.sampleExport)
        #expect(expected.addedTotal == 9_051)
        try await WebAppHarness.with { web in
            let page = try await web.browser.get("/import")
            #expect(page.status == 200 && page.heading == "Import and export" && page.importStatusRunning == "no")
            #expect(page.notice == nil && page.message == nil, "nothing imported yet")
            let token = try #require(page.importScriptToken)
            #expect(token == page.csrf)
            let accepted = try await WebAppMoreHTTP.send(web.browser, .POST, "/import",
                                                         headers: [("content-type", "application/zip"), ("x-csrf-token", token)],
                                                         body: .bytes(ByteBuffer(bytes: try Data(contentsOf: WebAppMoreFixtures.sampleExport))))
            #expect(accepted.status == 202 && accepted.header("content-type") == "application/json", "\(accepted.status) \(accepted.text)")
            let json = try #require(try JSONSerialization.jsonObject(with: accepted.data) as? [String: Any], "\(accepted.text)")
            #expect(["importing", "finished"].contains(json["phase"] as? String) && json["name"] as? String == "export.zip", "\(json)")

            // The events: the import's progress, ending (and the stream with it) once it has finished.
            let events = try await WebAppMoreHTTP.send(web.browser, .GET, "/import/events")
            #expect(events.status == 200 && events.header("content-type") == "text/event-stream", "\(events.status)")
            let phases = events.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { event -> [String: Any] in
                #expect(event.hasPrefix("data: "), "\(event)")
                return (try? JSONSerialization.jsonObject(with: Data(event.dropFirst(6).utf8))) as? [String: Any] ?? [:]
            }
            let last = try #require(phases.last, "\(events.text)")
            #expect(phases.dropLast().allSatisfy { $0["phase"] as? String == "importing" }, "\(events.text)")
            #expect(last["phase"] as? String == "finished" && last["added"] as? Int == 9_051 && last["name"] as? String == "export.zip", "\(last)")
            let message = try #require(last["message"] as? String)
            #expect(message.hasPrefix("export.zip: 9,051 samples added") && message.hasSuffix(" s)."), "\(message)")

            #expect(try counts(web.daemon.person()) == counts(referencePerson), "the export's samples, every type")
            let done = try await web.browser.get("/import")
            #expect(done.importStatusRunning == "no" && done.notice == "Imported \(message)", "\(done.notice ?? "")")
            // Events once nothing runs: the last state, at once.
            let again = try await WebAppMoreHTTP.send(web.browser, .GET, "/import/events")
            #expect(again.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.count == 1 && again.text.contains("\"phase\":\"finished\""))
        }
    }

    @Test func anExportSentWithTheFormIsImportedAndTheImportPageSaysSo() async throws {
        let (zip, folder) = try smallExport(count: 5)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await WebAppHarness.with { web in
            let page = try await web.browser.get("/import")
            let form = try #require(page.forms.first { $0["id"] == "upload-form" })
            let token = try #require(page.uploadFormToken("/import"))
            #expect(form["enctype"] == "multipart/form-data" && token == page.csrf)
            var body = WebAppMoreMultipart()
            body.file("file", fileName: "my-export.zip", type: "application/zip", try Data(contentsOf: zip))
            let sent = try await WebAppMoreHTTP.upload(web.browser, "/import?csrf=\(token)", body)
            #expect(sent.status == 303 && sent.header("location") == "/import", "\(sent.status) \(sent.page.message ?? sent.text)")
            let done = try await web.importPageOnceEnded()
            let notice = try #require(done.notice, "\(done.body)")
            #expect(notice.hasPrefix("Imported my-export.zip: 5 samples added") && notice.hasSuffix(" s)."), "\(notice)")
            #expect(try await web.samples(steps).map { $0.quantity.doubleValue(for: .count()) } == [100, 101, 102, 103, 104])

            // The same again adds nothing twice.
            let token2 = try #require(done.uploadFormToken("/import"))
            let again = try await WebAppMoreHTTP.upload(web.browser, "/import?csrf=\(token2)", body)
            #expect(again.status == 303, "\(again.status)")
            let twice = try #require(try await web.importPageOnceEnded().notice)
            #expect(twice.hasPrefix("Imported my-export.zip: 0 samples added, 5 already in the store"), "\(twice)")
            #expect(try web.daemon.person().sampleCount(of: steps) == 5)
        }
    }

    @Test func aSecondUploadWhileOneIsBeingReceivedIs409AndTheFirstGoesOn() async throws {
        let (zip, folder) = try smallExport(count: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: zip)
        try await WebAppHarness.with { web in
            let token = try #require(try await web.browser.get("/import").importScriptToken)
            let headers = [("content-type", "application/zip"), ("x-csrf-token", token)]
            // The first upload sends its first bytes and holds the rest: the importer is taken until they arrive.
            let (stream, sending) = AsyncStream<ByteBuffer>.makeStream()
            let first = Task {
                try await WebAppMoreHTTP.send(web.browser, .POST, "/import", headers: headers, body: .stream(stream, length: .known(Int64(bytes.count))))
            }
            sending.yield(ByteBuffer(bytes: bytes.prefix(64)))
            var receiving = try await web.browser.get("/import")
            let deadline = ContinuousClock.now + .seconds(120)
            while receiving.importStatusRunning != "yes", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                receiving = try await web.browser.get("/import")
            }
            #expect(receiving.importStatusRunning == "yes" && receiving.notice?.hasPrefix("Receiving the export: ") == true, "\(receiving.notice ?? "")")
            #expect(receiving.body.contains("<meta http-equiv=\"refresh\" content=\"2\">"), "the page reloads itself while an import runs")

            let second = try await WebAppMoreHTTP.send(web.browser, .POST, "/import", headers: headers, body: .bytes(ByteBuffer(bytes: bytes)))
            #expect(second.status == 409, "\(second.status)")
            #expect(second.page.heading == "One import at a time", "\(second.page.heading ?? "")")
            #expect(second.page.message?.hasPrefix("Wait until it ends: an export is being uploaded (") == true, "\(second.page.message ?? "")")
            var form = WebAppMoreMultipart()
            form.file("file", fileName: "export.zip", type: "application/zip", bytes)
            let third = try await WebAppMoreHTTP.upload(web.browser, "/import?csrf=\(token)", form)
            #expect(third.status == 409, "\(third.status)")

            sending.yield(ByteBuffer(bytes: bytes.dropFirst(64)))
            sending.finish()
            let answer = try await first.value
            #expect(answer.status == 202, "\(answer.status) \(answer.text)")
            let notice = try #require(try await web.importPageOnceEnded().notice)
            #expect(notice.hasPrefix("Imported export.zip: 3 samples added"), "\(notice)")
            #expect(try web.daemon.person().sampleCount(of: steps) == 3)
        }
    }

    @Test func anUploadWithAWrongTokenIsRefusedAndImportsNothing() async throws {
        let (zip, folder) = try smallExport(count: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: zip)
        try await WebAppHarness.with { web in
            let token = try #require(try await web.browser.get("/import").importScriptToken)
            let refusal = "This upload had expired or was not sent from the import page, so nothing was imported. Reload the page and try again."
            for header in [nil, "", "forged", String(token.dropLast())] {
                let refused = try await WebAppMoreHTTP.send(web.browser, .POST, "/import",
                                                            headers: [("content-type", "application/zip")] + (header.map { [("x-csrf-token", $0)] } ?? []),
                                                            body: .bytes(ByteBuffer(bytes: bytes)))
                #expect(refused.status == 403, "\(header ?? "no header"): \(refused.status)")
                #expect(refused.page.message == refusal, "\(refused.page.message ?? refused.text)")
            }
            var form = WebAppMoreMultipart()
            form.file("file", fileName: "export.zip", type: "application/zip", bytes)
            for path in ["/import", "/import?csrf=forged"] {
                let refused = try await WebAppMoreHTTP.upload(web.browser, path, form)
                #expect(refused.status == 403 && refused.page.message == refusal, "\(path): \(refused.status)")
            }
            // The right token from another site.
            let foreign = try await WebAppMoreHTTP.send(web.browser, .POST, "/import",
                                                        headers: [("content-type", "application/zip"), ("x-csrf-token", token), ("origin", "https://evil.example")],
                                                        body: .bytes(ByteBuffer(bytes: bytes)))
            #expect(foreign.status == 403, "\(foreign.status)")
            // Something that is neither a zip nor a file form.
            let text = try await WebAppMoreHTTP.send(web.browser, .POST, "/import", headers: [("content-type", "text/plain"), ("x-csrf-token", token)],
                                                     body: .bytes(ByteBuffer(bytes: bytes)))
            #expect(text.status == 415 && text.page.message == "Upload the export.zip that the Health app exported.", "\(text.status)")
            let page = try await web.browser.get("/import")
            #expect(page.importStatusRunning == "no" && page.notice == nil && page.message == nil, "no import was begun")
            #expect(try web.daemon.person().sampleCount(of: steps) == 0)
        }
    }

    @Test func anUploadThatIsNotAZipFailsAndTheImportPageSaysWhy() async throws {
        try await WebAppHarness.with { web in
            let token = try #require(try await web.browser.get("/import").importScriptToken)
            let sent = try await WebAppMoreHTTP.send(web.browser, .POST, "/import", headers: [("content-type", "application/zip"), ("x-csrf-token", token)],
                                                     body: .bytes(ByteBuffer(string: "This is a shopping list, not an export.\n")))
            #expect(sent.status == 202, "\(sent.status) \(sent.text)")
            let page = try await web.importPageOnceEnded()
            #expect(page.importStatusRunning == "no")
            let message = try #require(page.message, "\(page.body)")
            #expect(message.hasPrefix("export.zip was not imported: ") && message.count > "export.zip was not imported: ".count + 5, "\(message)")
            #expect(page.notice == nil)
            let events = try await WebAppMoreHTTP.send(web.browser, .GET, "/import/events")
            #expect(events.text.contains("\"phase\":\"failed\""), "\(events.text)")
            #expect(try web.daemon.person().summary().isEmpty)

            // An empty upload is refused at once.
            let empty = try await WebAppMoreHTTP.send(web.browser, .POST, "/import", headers: [("content-type", "application/zip"), ("x-csrf-token", token)],
                                                      body: .bytes(ByteBuffer()))
            #expect(empty.status == 400 && empty.page.message == "The upload was empty: choose the export.zip file.", "\(empty.status) \(empty.page.message ?? "")")
        }
    }

    @Test func theSampleExportIsNotOfferedWhenTheDaemonHasNone() async throws {
        try await WebAppHarness.with { web in
            let page = try await web.browser.get("/import")
            #expect(!page.forms.contains { $0["action"] == "/import/sample" }, "no sample form")
            let sample = try await web.browser.post("/import/sample")
            #expect(sample.status == 404 && sample.isHTML, "\(sample.status)")
            #expect(sample.message == "This daemon has no bundled sample export.", "\(sample.message ?? "")")
            #expect(try await web.browser.get("/import").importStatusRunning == "no")
            #expect(try web.daemon.person().summary().isEmpty)
        }
    }

    @Test func theStoreIsDownloadedAsAnExportThatImportsBackWhole() async throws {
        try await WebAppHarness.with { web in
            _ = try web.utc()
            let bpm = HKUnit.count().unitDivided(by: .minute())
            for (index, value) in [1_200.0, 3_400, 560].enumerated() {
                try web.entry(steps, value, .count(), at: WebAppHarness.at("2025-06-1\(index)", "09:00"))
            }
            try web.entry(heartRate, 61, bpm, at: WebAppHarness.at("2025-06-10", "07:00"))
            try web.entry(heartRate, 75, bpm, at: WebAppHarness.at("2025-06-11", "07:00"))
            #expect(try await web.browser.get("/import").body.contains("<a class=\"button secondary\" href=\"/export.zip\" download>"))

            let download = try await WebAppMoreHTTP.send(web.browser, .GET, "/export.zip")
            #expect(download.status == 200 && download.header("content-type") == "application/zip", "\(download.status)")
            let disposition = try #require(download.header("content-disposition"))
            // Named for the day it was made in the person's time zone, as YYYY-MM-DD whatever the daemon's locale.
            let named = try #require(disposition.wholeMatch(of: /attachment; filename="health-export-([0-9]{4})-([0-9]{2})-([0-9]{2})\.zip"/), "\(disposition)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try web.daemon.person().timeZone()
            let days = [Date(), Date().addingTimeInterval(-120)].map { calendar.dateComponents([.year, .month, .day], from: $0) }
            let parts = [named.output.1, named.output.2, named.output.3].compactMap { Int($0) }
            #expect(days.contains { parts == [$0.year!, $0.month!, $0.day!] }, "\(disposition)")
            #expect(download.header("content-length") == String(download.data.count))
            #expect(download.data.starts(with: [0x50, 0x4B, 0x03, 0x04]), "a zip's local file header")
            #expect(download.data.range(of: Data("apple_health_export/export.xml".utf8)) != nil, "apple_health_export/export.xml in the zip")

            // Imported into a new store, the download gives back the same samples.
            let folder = try DaemonHarness.privateFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let zip = folder.appendingPathComponent("download.zip")
            try download.data.write(to: zip)
            let person = try HealthPerson(storeDirectory: folder.appendingPathComponent("store"))
            let result = try person.importExport(at: zip)
            #expect(result.addedTotal == 5 && result.problems.isEmpty, "\(result.added) \(result.problems)")
            let back = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [SortDescriptor(\.startDate)])
                .result(for: person.healthStore)
            #expect(back.map { $0.quantity.doubleValue(for: .count()) } == [1_200, 3_400, 560])
            #expect(back.map(\.startDate) == (0..<3).map { WebAppHarness.at("2025-06-1\($0)", "09:00") })
            #expect(try person.sampleCount(of: heartRate) == 2)

            // Signed out, the download is the sign-in page's.
            let signedOut = try await WebAppMoreHTTP.send(web.newBrowser(), .GET, "/export.zip")
            #expect(signedOut.status == 303 && signedOut.header("location") == "/signin?next=%2Fexport%2Ezip", "\(signedOut.status) \(signedOut.header("location") ?? "")")
        }
    }
}
