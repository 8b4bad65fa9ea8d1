import Foundation
#if canImport(Glibc)
import Glibc
#endif
import OpenHealthKit
import Testing
import TestSupport

/// The web Health app end to end in a real headless browser: an app process asks for authorization and waits; the
/// person — Debian's chromium, driven by selenium (PyPI) through chromium-driver, in `Scripts/web_e2e.py` — sets the
/// passphrase, opens the app's sheet, switches on two types and allows; the app's call completes, it saves its steps,
/// and the sample shows on the Summary and in the type's chart.
///
/// The screenshots of every main page (and the script's and the app's output) are kept as artifacts, in
/// `$OPENHEALTHKIT_ARTIFACTS/web` (set by `.ci/run`) or else `.build-artifacts/web` in the package.
@Suite("The web Health app in a real browser")
struct WebBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let environment = ProcessInfo.processInfo.environment
    /// On CI the browser, its driver and selenium must be there (`.ci/run` installs them): missing, the test fails.
    static let onCI = environment["CI"] == "true"
    static let browserInstalled = executable("chromium", override: "CHROMIUM") != nil && executable("chromedriver", override: "CHROMEDRIVER") != nil
    /// The venv `Scripts/web_e2e.sh --install` makes.
    static let seleniumPython = repository.appendingPathComponent(".build-venv/selenium/bin/python")

    static let appName = "Step Counter", bundleIdentifier = "com.example.stepcounter", steps = 4321

    /// Where the screenshots go.
    static var artifacts: URL {
        let root = environment["OPENHEALTHKIT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? repository.appendingPathComponent(".build-artifacts")
        return root.appendingPathComponent("web")
    }

    @Test(.enabled(if: browserInstalled || onCI,
                   "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver); .ci/run installs them"),
          .timeLimit(.minutes(5)))
    func personAllowsAWaitingAppInTheBrowserAndSeesItsSteps() async throws {
        if Self.onCI {
            try #require(Self.executable("chromium", override: "CHROMIUM") != nil,
                         "CI: chromium is not installed (.ci/run installs the Debian package chromium)")
            try #require(Self.executable("chromedriver", override: "CHROMEDRIVER") != nil,
                         "CI: chromedriver is not installed (.ci/run installs the Debian package chromium-driver)")
            try #require(FileManager.default.isExecutableFile(atPath: Self.seleniumPython.path),
                         "CI: selenium is not installed in \(Self.seleniumPython.path) (.ci/run runs Scripts/web_e2e.sh --install)")
        }
        let folder = Self.artifacts
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let daemon = try await DaemonHarness.start(tcp: true)
        var children: [Child] = []
        do {
            let port = try #require(daemon.tcpPort)
            // The app is connected (approved, its token claimed) but allowed nothing yet: it asks at its first launch.
            let token = try await daemon.connect(Self.bundleIdentifier, name: Self.appName)
            let stepCounter = ServeCommandTests.executable.deletingLastPathComponent().appendingPathComponent("step-counter")
            let app = try Child(stepCounter, ["authorize", "\(Self.steps)"],
                                environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent",
                                              "OPENHEALTHKIT_SERVER": daemon.socketPath, "OPENHEALTHKIT_TOKEN": token])
            children.append(app)
            let script = Self.repository.appendingPathComponent("Scripts/web_e2e.sh")
            let browser = try Child(URL(fileURLWithPath: "/bin/bash"),
                                    [script.path, "http://127.0.0.1:\(port)", DaemonHarness.setupCode, folder.path,
                                     "--steps", "\(Self.steps)", "--app-name", Self.appName, "--bundle-id", Self.bundleIdentifier])
            children.append(browser)

            let (browserRun, appRun) = await withTaskCancellationHandler {
                let browserRun = await browser.finished()
                // The person answered (the script waited for the saved sample), or the script gave up: either way the app
                // has nothing more to wait for. It is stopped if it does not end by itself soon.
                app.stop(after: browserRun.status == 0 ? 30 : 0)
                return (browserRun, await app.finished())
            } onCancel: {
                browser.stop()
                app.stop()
            }
            try? Data(browserRun.output.utf8).write(to: folder.appendingPathComponent("web_e2e.log"))
            try? Data(appRun.output.utf8).write(to: folder.appendingPathComponent("step-counter.log"))

            #expect(browserRun.status == 0, "Scripts/web_e2e.sh exited \(browserRun.status):\n\(browserRun.output.suffix(8000))")
            #expect(appRun.status == 0, "step-counter exited \(appRun.status):\n\(appRun.output)")
            #expect(appRun.output.contains("authorization answered; step count: sharing authorized\n"), "\(appRun.output)")
            #expect(appRun.output.contains("saved \(Self.steps) steps\n"), "\(appRun.output)")

            // The person's side: the app's one sample, and the switches as the person set them in the browser.
            let person = try daemon.person()
            let stored = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [])
                .result(for: person.healthStore)
            #expect(stored.map(\.sourceRevision.source.bundleIdentifier) == [Self.bundleIdentifier])
            #expect(stored.map { $0.quantity.doubleValue(for: .count()) } == [Double(Self.steps)])
            let access = try #require(try person.apps().first { $0.app.bundleIdentifier == Self.bundleIdentifier })
            let decided = Dictionary(uniqueKeysWithValues: access.types.map { ($0.typeIdentifier, $0) })
            let stepCount = try #require(decided[HKQuantityTypeIdentifier.stepCount.rawValue])
            let heartRate = try #require(decided[HKQuantityTypeIdentifier.heartRate.rawValue])
            #expect(stepCount.share == true && stepCount.read == true, "\(stepCount)")
            #expect(heartRate.read != true, "\(heartRate)")
            #expect(try person.pendingAuthorizationRequests().isEmpty)

            if browserRun.status == 0 {
                let saved = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                for page in ["01-setup", "02-requests", "03-sheet", "03-sheet-phone", "04-summary", "04-summary-phone", "05-type-day",
                             "05-type-day-phone", "06-sources", "07-access-log", "08-deliveries", "09-signin"] {
                    #expect(saved.contains("\(page).png"), "no screenshot \(page).png in \(folder.path): \(saved.sorted())")
                }
            }
        } catch {
            await Self.tearDown(daemon, children)
            throw error
        }
        await Self.tearDown(daemon, children)
    }

    /// Stops the processes, closes any sheet still waiting, and stops the daemon. The daemon's graceful stop waits for
    /// the requests in flight, and a request parked on a sheet waits for the person (5 minutes) even after its app is
    /// gone: when the browser failed before answering, nobody else would close the sheet.
    private static func tearDown(_ daemon: DaemonHarness, _ children: [Child]) async {
        children.forEach { $0.stop() }
        if let person = try? daemon.person(), let waiting = try? person.pendingAuthorizationRequests() {
            for request in waiting { _ = try? person.answerAuthorizationRequest(request.id, .dismissed) }
        }
        await daemon.stop()
    }

    /// The program `name` on PATH (or at the path in the environment variable `override`), as Scripts/web_e2e.sh finds it.
    static func executable(_ name: String, override: String) -> String? {
        if let path = environment[override], !path.isEmpty { return FileManager.default.isExecutableFile(atPath: path) ? path : nil }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A process the test starts, whose output (standard output and error together) it collects; stopped with SIGTERM
/// (then SIGKILL) when the test is done with it, however the test ends.
private final class Child: Sendable {
    let process: ChildProcess
    private let output: FileHandle

    /// Starts `executable` (from the calling task: see `runToEnd`), with `environment` or else the test's.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        let process = ChildProcess(), pipe = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.output = pipe.fileHandleForReading
    }

    /// Waits, on a thread of its own, until the process ends: its exit status and everything it printed.
    func finished() async -> (status: Int32, output: String) {
        await onOwnThread { [process, output] in
            let text = String(decoding: output.readAll(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    /// Sends SIGTERM `seconds` from now if the process still runs then, and SIGKILL 10 s later if it still runs.
    func stop(after seconds: Double = 0) {
        let process = process
        guard process.isRunning else { return }
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            guard process.isRunning else { return }
            process.terminate()
            let killing = Date().addingTimeInterval(10)
            while process.isRunning, Date() < killing { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
