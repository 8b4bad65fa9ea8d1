import Foundation
import HealthAPI
import OpenHealthKit
import Testing
import TestSupport

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)

/// `requestAuthorization` through the daemon: the request waits until the person answers, as HealthKit's sheet does.
@Suite("The daemon: authorization requests")
struct AuthorizationRequestTests {
    /// The person's waiting requests, once there are `count`.
    static func waiting(_ daemon: DaemonHarness, count: Int = 1) async throws -> [String: AuthorizationSheet] {
        for _ in 0..<1_200 {   // up to 30 s: CI runs every suite at once on two cores
            let requests = try daemon.person().pendingAuthorizationRequests()
            if requests.count >= count { return Dictionary(uniqueKeysWithValues: requests.map { ($0.id, $0.sheet) }) }
            try await Task.sleep(for: .milliseconds(25))
        }
        return [:]
    }

    @Test func theRequestWaitsForThePersonsAnswerAndDecidedTypesAreNotAskedAgain() async throws {
        try await DaemonHarness.with { daemon in
            let client = daemon.client(token: try await daemon.connect("com.example.steps", name: "Steps"))
            let body = Components.Schemas.AuthorizationRequest(share: [steps.identifier], read: [steps.identifier, heartRate.identifier])
            let request = Task { try await client.requestAuthorization(body: .json(body)) }
            let waiting = try await Self.waiting(daemon)
            let (id, sheet) = try #require(waiting.first)
            #expect(sheet.app.bundleIdentifier == "com.example.steps")
            #expect(sheet.shareTypes == [steps.identifier] && sheet.readTypes == [steps.identifier, heartRate.identifier])
            try daemon.person().answerAuthorizationRequest(id, .decided(share: [steps.identifier], read: [steps.identifier]))
            _ = try await request.value.noContent
            let statuses = try await client.authorizationStatus(body: .json(.init(types: [steps.identifier, heartRate.identifier]))).ok.body.json
            #expect(statuses.statuses == [.sharingAuthorized, .notDetermined])
            // Everything asked is decided: the same request completes at once, with nothing put to the person.
            _ = try await client.requestAuthorization(body: .json(body)).noContent
            #expect(try daemon.person().pendingAuthorizationRequests().isEmpty)
        }
    }

    @Test func noAnswerInTimeIsADismissedSheet() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps")
            let answer = try await daemon.raw(.POST, "/v1/authorization/requests",
                                              body: #"{"share":["\#(steps.identifier)"],"read":[],"timeoutSeconds":1}"#, token: token)
            #expect(answer.status == 409, "\(answer.body)")
            #expect(answer.json["code"] as? Int == HKError.Code.errorUserCanceled.rawValue)
            #expect(try daemon.person().pendingAuthorizationRequests().isEmpty, "the expired request no longer waits")
            let late = try daemon.person().answerAuthorizationRequest("nonexistent", .decided(share: [], read: []))
            #expect(!late)
        }
    }

    @Test func aTypeAnAppCannotWriteOrAnUnknownOneIs400() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.steps")
            let unknown = try await daemon.raw(.POST, "/v1/authorization/requests", body: #"{"share":[],"read":["HKQuantityTypeIdentifierSteps"]}"#, token: token)
            #expect(unknown.status == 400 && unknown.json["field"] as? String == "/read/0", "\(unknown.body)")
            let characteristic = try await daemon.raw(.POST, "/v1/authorization/requests",
                                                      body: #"{"share":["HKCharacteristicTypeIdentifierBloodType"],"read":[]}"#, token: token)
            #expect(characteristic.status == 400 && characteristic.json["field"] as? String == "/share/0", "\(characteristic.body)")
        }
    }

    /// The person answers at the terminal: `health authorize --pending` shows the waiting sheet and the app gets the answer.
    @Test func healthAuthorizePendingAnswersAtTheTerminal() async throws {
        try await DaemonHarness.with { daemon in
            let client = daemon.client(token: try await daemon.connect("com.example.steps", name: "Steps"))
            let request = Task { try await client.requestAuthorization(body: .json(.init(share: [steps.identifier], read: [heartRate.identifier]))) }
            _ = try await Self.waiting(daemon)
            let shown = try await daemon.answerAtTheTerminal("y\nn\n")
            #expect(shown == """
                Steps (com.example.steps) would like to access your health data.
                  Why it reads: Shows your data.
                  Why it writes: Logs your data.
                Allow Steps to write Step Count? [y/n/q] Allow Steps to read Heart Rate? [y/n/q] Answered.

                """, "\(shown)")
            _ = try await request.value.noContent
            let statuses = try await client.authorizationStatus(body: .json(.init(types: [steps.identifier]))).ok.body.json.statuses
            #expect(statuses == [.sharingAuthorized])
            let none = try await ChildProcess.run(ServeCommandTests.executable, arguments: ["authorize", "--pending", "--store", daemon.store.path])
            #expect(none == "No app is waiting for an answer.\n")
        }
    }
}

extension DaemonHarness {
    /// The person at the terminal: `health authorize --pending` on this daemon's store, answering with `input`; what
    /// it printed.
    func answerAtTheTerminal(_ input: String) async throws -> String {
        let process = ChildProcess()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["authorize", "--pending", "--store", store.path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let reading = stdout.fileHandleForReading
        let shown = await onOwnThread { String(decoding: reading.readAll(), as: UTF8.self) }
        await process.ended()
        #expect(process.terminationStatus == 0)
        return shown
    }
}

extension ChildProcess {
    /// Runs `executable` to the end; its standard output.
    static func run(_ executable: URL, arguments: [String]) async throws -> String {
        try await runToEnd(executable, arguments, withErrors: false).output
    }
}
