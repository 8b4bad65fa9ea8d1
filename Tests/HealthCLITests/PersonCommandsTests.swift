import Foundation
import GRDB
import Testing

/// The person's commands and the terminal authorization sheet, on a real store in a temporary folder.
@Suite("health CLI: the person's side")
struct PersonCommandsTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            {"CFBundleIdentifier": "com.example.steps", "CFBundleName": "Steps", "CFBundleShortVersionString": "1.0",
             "NSHealthShareUsageDescription": "Steps charts your steps.",
             "NSHealthUpdateUsageDescription": "Steps saves the walks you log."}
            """.utf8).write(to: folder.appendingPathComponent("steps.json"))
    }

    func health(_ arguments: String..., input: String = "") async throws -> CLIRun {
        try await runHealth(arguments, input: input, in: folder)
    }

    @Test func importWithoutAPathBringsTheBundledSampleAndShowsTheSummary() async throws {
        let first = try await health("import")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("No export given: importing the bundled sample"))
        #expect(first.stdout.contains("9051 samples added, 0 already in the store"))
        #expect(first.stdout.contains("The store now holds (health summary):"))
        #expect(first.stdout.contains("7743      Step Count                         2026-10-21 – 2026-11-03  Alex’s Apple Watch, Alex’s iPhone"))
        #expect(try await health("import").stdout.contains("0 samples added, 9051 already in the store"))
    }

    /// An import keeps the charts' days ahead, as the daemon does after a web upload: the Health app's first view of a
    /// year reads them instead of computing them.
    @Test func importKeepsTheChartsDaysAhead() async throws {
        let store = folder.appendingPathComponent("charts")
        let run = try await health("import", "--store", store.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("The charts' days of the last year of each type kept for the Health app, in "), "\(run.stdout)")
        let database = try DatabaseQueue(path: store.appendingPathComponent("health.sqlite").path)
        let steps = try await database.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM dailyStatistics JOIN sampleType ON code = typeCode WHERE identifier = 'HKQuantityTypeIdentifierStepCount' AND day >= 0
                """) ?? 0
        }
        #expect(steps >= 14, "the sample's two weeks of steps, a day each: \(steps)")
        // Nothing new, nothing to keep.
        #expect(try await health("import", "--store", store.path).stdout.contains("kept for the Health app") == false)
    }

    @Test func withoutStoreEveryCommandUsesThePerUserDataFolderWhereverItRuns() async throws {
        #expect(try await health("generate", "--days", "1").status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("openhealthkit/health.sqlite").path))
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        var run = try await runHealth(["summary"], in: elsewhere)
        #expect(run.status != 0 && run.stderr.contains("there is no store in"))  // another user's data folder, never made
        run = try await health("summary")
        #expect(run.stdout.contains("Step Count"))
    }

    @Test func theTerminalSheetAsksEachUndecidedTypeAndRecordsTheAnswers() async throws {
        let run = try await health("authorize", "--app", "steps.json", "--write", "stepCount", "--read", "stepCount", "heartRate",
                             input: "y\nperhaps\nn\ny\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Steps (com.example.steps) would like to access your health data."))
        #expect(run.stdout.contains("Why it reads: Steps charts your steps."))
        #expect(run.stdout.contains("Allow Steps to write Step Count? [y/n/q]"))
        #expect(run.stdout.contains("Please answer y (allow), n (deny) or q"))
        #expect(run.stdout.hasSuffix("HKQuantityTypeIdentifierStepCount: sharingAuthorized\n"))
        let apps = try await health("apps")
        #expect(apps.stdout == """
            Steps (com.example.steps 1.0)
              HKQuantityTypeIdentifierHeartRate  read denied
              HKQuantityTypeIdentifierStepCount  write allowed, read allowed

            """)
        // Decided types are not asked again.
        let again = try await health("authorize", "--app", "steps.json", "--write", "stepCount", input: "")
        #expect(!again.stdout.contains("would like to access"))
    }

    @Test func closingTheSheetDecidesNothing() async throws {
        let run = try await health("authorize", "--app", "steps.json", "--write", "stepCount", input: "q\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("closed the authorization sheet without deciding"))
        #expect(try await health("apps").stdout.contains("write not decided"))
    }

    @Test func thePersonChangesPermissionsGuestModeCharacteristicsAndPriority() async throws {
        _ = try await health("authorize", "--app", "steps.json", "--write", "stepCount", input: "y\n")
        #expect(try await health("permission", "com.example.steps", "stepCount", "--write", "deny").status == 0)
        #expect(try await health("apps").stdout.contains("write denied"))
        #expect(try await health("permission", "com.example.steps", "--revoke-all").stdout.contains("revoked"))
        #expect(try await health("guest", "on").stdout == "guest mode: on\n")
        #expect(try await health("guest").stdout == "guest mode: on\n")
        #expect(try await health("characteristic", "bloodType", "AB+").status == 0)
        #expect(try await health("priority", "stepCount", "com.example.steps").stdout == "1. Steps (com.example.steps)\n")
    }

    @Test func badInputIsAOneLineErrorNamingTheProblem() async throws {
        let unknownApp = try await health("permission", "com.example.nobody", "stepCount", "--read", "allow")
        #expect(unknownApp.status == 1)
        #expect(unknownApp.stderr.contains("com.example.nobody"))
        let badType = try await health("priority", "stepz")
        #expect(badType.stderr.contains("\"stepz\" is not a HealthKit type"))
        let badValue = try await health("characteristic", "bloodType", "Z")
        #expect(badValue.stderr.contains("\"Z\" is not a bloodType"))
        _ = try await health("authorize", "--app", "steps.json", "--write", "stepCount", input: "y\n")
        let badUnit = try await health("add", "--app", "steps.json", "stepCount", "5", "kg")
        #expect(badUnit.stderr.contains("unit \"kg\" is not compatible with HKQuantityTypeIdentifierStepCount"))
        let notAllowed = try await health("add", "--app", "steps.json", "heartRate", "60", "count/min")
        #expect(notAllowed.stderr.contains("has not been given permission to save HKQuantityTypeIdentifierHeartRate"))
        let badManifest = try await health("authorize", "--app", "missing.json", "--write", "stepCount")
        #expect(badManifest.stderr.contains("missing.json"))
    }

    @Test func generateFillsTheStoreWithASyntheticPersonWhoseSourcesArePrioritized() async throws {
        let run = try await health("generate", "--days", "2", "--heart-rate-interval", "120", "--store", "generated")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(run.stdout.contains("samples in"))
        let order = try await health("priority", "stepCount", "--store", "generated")
        #expect(order.stdout.hasPrefix("1. Alex’s Apple Watch"), "\(order.stdout)")
        #expect(try await health("generate", "--days", "0", "--store", "generated").status != 0)
    }

    @Test func recordsImportAnExportAndListThemAndReimportingAddsNothing() async throws {
        let export = Fixtures.file("fhir/apple-health-export-sample/apple_health_export")
        let first = try await health("records", "import", export.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "13 files: 12 records added, 0 updated, 0 unchanged, 1 patient resources kept, 0 ignored, 0 rejected\n")
        let labs = try await health("records", "list", "--type", "labResultRecord")
        #expect(labs.stdout == "2024-03-01T17:15:02Z  LabResultRecord     Blood Group  [Example Health System (R4): Observation/bloodgroup FHIR 4.0.1]\n")
        #expect(try await health("records", "import", export.path).stdout.hasPrefix("13 files: 0 records added, 0 updated, 12 unchanged"))

        try Data("{\"resourceType\": \"Condition\"}".utf8).write(to: folder.appendingPathComponent("bad.json"))
        let bad = try await health("records", "import", "bad.json", "--provider", "City Clinic")
        #expect(bad.stdout.contains("rejected: bad.json (Condition): the Condition resource has no id"))
        #expect(bad.status != 0 && bad.stderr.contains("no health record was imported: all 1 were rejected"))  // not a quiet success
    }

    @Test func cardsAreVerifiedAgainstTrustedIssuersOnly() async throws {
        let shc = Fixtures.file("fhir/shc")
        let card = shc.appendingPathComponent("examples/example-00-e-file.smart-health-card").path
        let untrusted = try await health("cards", "import", card)
        #expect(untrusted.status != 0 && untrusted.stdout.contains("is not among the trusted issuers"))
        // A failure says so on standard error, naming the file and why (found by the command-line fuzz: it was silent).
        #expect(untrusted.stderr == "Error: the card in \(card) was not imported: the issuer https://spec.smarthealth.cards/examples/issuer is not among the trusted issuers; trust it, or import the card as unverified\n",
                "\(untrusted.stderr)")
        let kid = "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s"
        let trust = try await health("cards", "trust", "https://spec.smarthealth.cards/examples/issuer",
                               "--jwks", shc.appendingPathComponent("issuer/.well-known/jwks.json").path,
                               "--crl", shc.appendingPathComponent("issuer/.well-known/crl/\(kid).json").path)
        #expect(trust.status == 0, "\(trust.stderr)")
        #expect(try await health("cards", "import", card).stdout
                    == "verified: John B. Anyperson, 2022-09-05, 3 items from https://spec.smarthealth.cards/examples/issuer\n")
        let revoked = try await health("cards", "import", shc.appendingPathComponent("examples/example-03-e-file.smart-health-card").path)
        #expect(revoked.status != 0 && revoked.stdout.contains("revoked"))
        #expect(try await health("cards", "list").stdout.hasPrefix("verified   John B. Anyperson, 2022-09-05"))
    }

    @Test func importAndSummaryShowWhatAnExportBroughtAndReimportingAddsNothing() async throws {
        let export = Fixtures.file("apple-health-export/dogsheep_healthkit-to-sqlite/export.xml")
        let first = try await health("import", export.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("4 samples added, 0 already in the store"))
        #expect(try await health("import", export.path).stdout.contains("0 samples added, 4 already in the store"))
        let summary = try await health("summary").stdout
        #expect(summary.contains("1         Heart Rate                         2018-09-10 – 2018-09-10  Apple\u{00A0}Watch"))
        #expect(summary.contains("Workouts") && summary.contains("2         activity summaries (daily rings)"))
        // The watch's heart rate carries a device and its workout does not: one source all the same.
        let sources = try await health("sources").stdout.split(separator: "\n")
        #expect(sources.count == 3 && sources[0].hasPrefix("2         Apple\u{00A0}Watch (com.apple.health."))
        #expect(sources[1] == "1         Health Mate (export.Health Mate)")
        // The workout's inline route was recorded by the phone.
        #expect(sources[2].hasPrefix("1         Simon’s iPhone (com.apple.health.") && summary.contains("Workout Routes"))
        let json = try await health("import", export.path, "--json").stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["alreadyStored"] as? Int == 4)
    }

    @Test func queryAndStatsReadTheWholeStoreInThePersonsPreferredUnits() async throws {
        #expect(try await health("generate", "--days", "7", "--heart-rate-interval", "600").status == 0)
        #expect(try await health("prefer", "bodyMass", "kg").stdout == "HKQuantityTypeIdentifierBodyMass: kg\n")
        let csv = try await health("query", "bodyMass", "--format", "csv").stdout.split(separator: "\n")
        #expect(csv.first == "start,end,value,unit,source")
        #expect(csv.count > 1 && csv.dropFirst().allSatisfy { $0.hasSuffix(",kg,Health") })
        #expect(try await health("prefer", "bodyMass", "lb").status == 0)
        let pounds = try await health("query", "bodyMass", "--format", "csv").stdout.split(separator: "\n").dropFirst()
        #expect(pounds.count == csv.count - 1 && pounds.allSatisfy { $0.hasSuffix(",lb,Health") })
        #expect(try await health("prefer").stdout.contains("Body Mass                          lb           yours"))
        #expect(try await health("prefer", "bodyMass", "m").stderr.contains("is not a unit of HKQuantityTypeIdentifierBodyMass"))
        let rates = try await health("query", "heartRate", "--limit", "2").stdout.split(separator: "\n")
        #expect(rates.count == 2 && rates.allSatisfy { $0.contains("count/min") && $0.hasSuffix("Alex’s Apple Watch") })

        let days = try await health("stats", "stepCount", "--by", "day", "--from", "2026-11-02", "--to", "2026-11-03").stdout.split(separator: "\n")
        #expect(days.count == 2 && days.allSatisfy { $0.contains(" count ") && $0.contains("█") })
        let bySource = try await health("stats", "stepCount", "--by", "day", "--from", "2026-11-02", "--to", "2026-11-02", "--separate-by-source").stdout
        #expect(bySource.contains("Alex’s Apple Watch") && bySource.contains("Alex’s iPhone"))
        let wrong = try await health("stats", "heartRate", "--sum")
        #expect(wrong.status != 0 && wrong.stderr.contains("is not summed"))
    }
}
