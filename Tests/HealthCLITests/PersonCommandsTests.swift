import Foundation
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

    func health(_ arguments: String..., input: String = "") throws -> CLIRun {
        try runHealth(arguments, input: input, in: folder)
    }

    @Test func importWithoutAPathBringsTheBundledSampleAndShowsTheSummary() throws {
        let first = try health("import")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("No export given: importing the bundled sample"))
        #expect(first.stdout.contains("9051 samples added, 0 already in the store"))
        #expect(first.stdout.contains("The store now holds (health summary):"))
        #expect(first.stdout.contains("7743      Step Count                         2026-10-21 – 2026-11-03  Alex’s Apple Watch, Alex’s iPhone"))
        #expect(try health("import").stdout.contains("0 samples added, 9051 already in the store"))
    }

    @Test func withoutStoreEveryCommandUsesThePerUserDataFolderWhereverItRuns() throws {
        #expect(try health("generate", "--days", "1").status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("openhealthkit/health.sqlite").path))
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        var run = try runHealth(["summary"], in: elsewhere)
        #expect(run.status != 0 && run.stderr.contains("there is no store in"))  // another user's data folder, never made
        run = try health("summary")
        #expect(run.stdout.contains("Step Count"))
    }

    @Test func theTerminalSheetAsksEachUndecidedTypeAndRecordsTheAnswers() throws {
        let run = try health("authorize", "--app", "steps.json", "--write", "stepCount", "--read", "stepCount", "heartRate",
                             input: "y\nperhaps\nn\ny\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Steps (com.example.steps) would like to access your health data."))
        #expect(run.stdout.contains("Why it reads: Steps charts your steps."))
        #expect(run.stdout.contains("Allow Steps to write Step Count? [y/n/q]"))
        #expect(run.stdout.contains("Please answer y (allow), n (deny) or q"))
        #expect(run.stdout.hasSuffix("HKQuantityTypeIdentifierStepCount: sharingAuthorized\n"))
        let apps = try health("apps")
        #expect(apps.stdout == """
            Steps (com.example.steps 1.0)
              HKQuantityTypeIdentifierHeartRate  read denied
              HKQuantityTypeIdentifierStepCount  write allowed, read allowed

            """)
        // Decided types are not asked again.
        let again = try health("authorize", "--app", "steps.json", "--write", "stepCount", input: "")
        #expect(!again.stdout.contains("would like to access"))
    }

    @Test func closingTheSheetDecidesNothing() throws {
        let run = try health("authorize", "--app", "steps.json", "--write", "stepCount", input: "q\n")
        #expect(run.status == 1)
        #expect(run.stderr.contains("closed the authorization sheet without deciding"))
        #expect(try health("apps").stdout.contains("write not decided"))
    }

    @Test func thePersonChangesPermissionsGuestModeCharacteristicsAndPriority() throws {
        _ = try health("authorize", "--app", "steps.json", "--write", "stepCount", input: "y\n")
        #expect(try health("permission", "com.example.steps", "stepCount", "--write", "deny").status == 0)
        #expect(try health("apps").stdout.contains("write denied"))
        #expect(try health("permission", "com.example.steps", "--revoke-all").stdout.contains("revoked"))
        #expect(try health("guest", "on").stdout == "guest mode: on\n")
        #expect(try health("guest").stdout == "guest mode: on\n")
        #expect(try health("characteristic", "bloodType", "AB+").status == 0)
        #expect(try health("priority", "stepCount", "com.example.steps").stdout == "1. Steps (com.example.steps)\n")
    }

    @Test func badInputIsAOneLineErrorNamingTheProblem() throws {
        let unknownApp = try health("permission", "com.example.nobody", "stepCount", "--read", "allow")
        #expect(unknownApp.status == 1)
        #expect(unknownApp.stderr.contains("com.example.nobody"))
        let badType = try health("priority", "stepz")
        #expect(badType.stderr.contains("\"stepz\" is not a HealthKit type"))
        let badValue = try health("characteristic", "bloodType", "Z")
        #expect(badValue.stderr.contains("\"Z\" is not a bloodType"))
        _ = try health("authorize", "--app", "steps.json", "--write", "stepCount", input: "y\n")
        let badUnit = try health("add", "--app", "steps.json", "stepCount", "5", "kg")
        #expect(badUnit.stderr.contains("unit \"kg\" is not compatible with HKQuantityTypeIdentifierStepCount"))
        let notAllowed = try health("add", "--app", "steps.json", "heartRate", "60", "count/min")
        #expect(notAllowed.stderr.contains("has not been given permission to save HKQuantityTypeIdentifierHeartRate"))
        let badManifest = try health("authorize", "--app", "missing.json", "--write", "stepCount")
        #expect(badManifest.stderr.contains("missing.json"))
    }

    @Test func generateFillsTheStoreWithASyntheticPersonWhoseSourcesArePrioritized() throws {
        let run = try health("generate", "--days", "2", "--heart-rate-interval", "120", "--store", "generated")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(run.stdout.contains("samples in"))
        let order = try health("priority", "stepCount", "--store", "generated")
        #expect(order.stdout.hasPrefix("1. Alex’s Apple Watch"), "\(order.stdout)")
        #expect(try health("generate", "--days", "0", "--store", "generated").status != 0)
    }

    @Test func recordsImportAnExportAndListThemAndReimportingAddsNothing() throws {
        let export = Fixtures.file("fhir/apple-health-export-sample/apple_health_export")
        let first = try health("records", "import", export.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "13 files: 12 records added, 0 updated, 0 unchanged, 1 patient resources kept, 0 ignored, 0 rejected\n")
        let labs = try health("records", "list", "--type", "labResultRecord")
        #expect(labs.stdout == "2024-03-01T17:15:02Z  LabResultRecord     Blood Group  [Example Health System (R4): Observation/bloodgroup FHIR 4.0.1]\n")
        #expect(try health("records", "import", export.path).stdout.hasPrefix("13 files: 0 records added, 0 updated, 12 unchanged"))

        try Data("{\"resourceType\": \"Condition\"}".utf8).write(to: folder.appendingPathComponent("bad.json"))
        let bad = try health("records", "import", "bad.json", "--provider", "City Clinic")
        #expect(bad.stdout.contains("rejected: bad.json (Condition): the Condition resource has no id"))
        #expect(bad.status != 0 && bad.stderr.contains("no health record was imported: all 1 were rejected"))  // not a quiet success
    }

    @Test func cardsAreVerifiedAgainstTrustedIssuersOnly() throws {
        let shc = Fixtures.file("fhir/shc")
        let card = shc.appendingPathComponent("examples/example-00-e-file.smart-health-card").path
        let untrusted = try health("cards", "import", card)
        #expect(untrusted.status != 0 && untrusted.stdout.contains("is not among the trusted issuers"))
        // A failure says so on standard error, naming the file and why (found by the command-line fuzz: it was silent).
        #expect(untrusted.stderr == "Error: the card in \(card) was not imported: the issuer https://spec.smarthealth.cards/examples/issuer is not among the trusted issuers; trust it, or import the card as unverified\n",
                "\(untrusted.stderr)")
        let kid = "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s"
        let trust = try health("cards", "trust", "https://spec.smarthealth.cards/examples/issuer",
                               "--jwks", shc.appendingPathComponent("issuer/.well-known/jwks.json").path,
                               "--crl", shc.appendingPathComponent("issuer/.well-known/crl/\(kid).json").path)
        #expect(trust.status == 0, "\(trust.stderr)")
        #expect(try health("cards", "import", card).stdout
                    == "verified: John B. Anyperson, 2022-09-05, 3 items from https://spec.smarthealth.cards/examples/issuer\n")
        let revoked = try health("cards", "import", shc.appendingPathComponent("examples/example-03-e-file.smart-health-card").path)
        #expect(revoked.status != 0 && revoked.stdout.contains("revoked"))
        #expect(try health("cards", "list").stdout.hasPrefix("verified   John B. Anyperson, 2022-09-05"))
    }

    @Test func importAndSummaryShowWhatAnExportBroughtAndReimportingAddsNothing() throws {
        let export = Fixtures.file("apple-health-export/dogsheep_healthkit-to-sqlite/export.xml")
        let first = try health("import", export.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("4 samples added, 0 already in the store"))
        #expect(try health("import", export.path).stdout.contains("0 samples added, 4 already in the store"))
        let summary = try health("summary").stdout
        #expect(summary.contains("1         Heart Rate                         2018-09-10 – 2018-09-10  Apple\u{00A0}Watch"))
        #expect(summary.contains("Workouts") && summary.contains("2         activity summaries (daily rings)"))
        // The watch's heart rate carries a device and its workout does not: one source all the same.
        let sources = try health("sources").stdout.split(separator: "\n")
        #expect(sources.count == 3 && sources[0].hasPrefix("2         Apple\u{00A0}Watch (com.apple.health."))
        #expect(sources[1] == "1         Health Mate (export.Health Mate)")
        // The workout's inline route was recorded by the phone.
        #expect(sources[2].hasPrefix("1         Simon’s iPhone (com.apple.health.") && summary.contains("Workout Routes"))
        let json = try health("import", export.path, "--json").stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["alreadyStored"] as? Int == 4)
    }

    @Test func queryAndStatsReadTheWholeStoreInThePersonsPreferredUnits() throws {
        #expect(try health("generate", "--days", "7", "--heart-rate-interval", "600").status == 0)
        #expect(try health("prefer", "bodyMass", "kg").stdout == "HKQuantityTypeIdentifierBodyMass: kg\n")
        let csv = try health("query", "bodyMass", "--format", "csv").stdout.split(separator: "\n")
        #expect(csv.first == "start,end,value,unit,source")
        #expect(csv.count > 1 && csv.dropFirst().allSatisfy { $0.hasSuffix(",kg,Health") })
        #expect(try health("prefer", "bodyMass", "lb").status == 0)
        let pounds = try health("query", "bodyMass", "--format", "csv").stdout.split(separator: "\n").dropFirst()
        #expect(pounds.count == csv.count - 1 && pounds.allSatisfy { $0.hasSuffix(",lb,Health") })
        #expect(try health("prefer").stdout.contains("Body Mass                          lb           yours"))
        #expect(try health("prefer", "bodyMass", "m").stderr.contains("is not a unit of HKQuantityTypeIdentifierBodyMass"))
        let rates = try health("query", "heartRate", "--limit", "2").stdout.split(separator: "\n")
        #expect(rates.count == 2 && rates.allSatisfy { $0.contains("count/min") && $0.hasSuffix("Alex’s Apple Watch") })

        let days = try health("stats", "stepCount", "--by", "day", "--from", "2026-11-02", "--to", "2026-11-03").stdout.split(separator: "\n")
        #expect(days.count == 2 && days.allSatisfy { $0.contains(" count ") && $0.contains("█") })
        let bySource = try health("stats", "stepCount", "--by", "day", "--from", "2026-11-02", "--to", "2026-11-02", "--separate-by-source").stdout
        #expect(bySource.contains("Alex’s Apple Watch") && bySource.contains("Alex’s iPhone"))
        let wrong = try health("stats", "heartRate", "--sum")
        #expect(wrong.status != 0 && wrong.stderr.contains("is not summed"))
    }
}
