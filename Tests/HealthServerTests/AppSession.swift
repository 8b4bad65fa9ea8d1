import Foundation
import HealthAPI
import HealthStore
import OpenHealthKit
import Synchronization
import Testing

/// Where an app's `HKHealthStore` sends its calls: the engine in the test's process (on a plain store, or on an encrypted
/// one, whose every page goes through `EncryptingVFS`), or a daemon over its Unix socket.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded, encrypted, remote

    var testDescription: String { rawValue }

    /// Whether the store is opened in the test's process.
    var isEmbedded: Bool { self != .remote }
}

/// Apps on one new store, through one backend, and the person answering their authorization requests and
/// record-sharing sheets as each app's script says: for an embedded store the script is the app's presenter; through a
/// daemon the person answers the daemon's waiting sheets with the same script (`health authorize --pending`). The same test body then runs on
/// both, which is how the suites show that an app cannot tell the two apart.
final class AppSession: Sendable {
    let backend: Backend
    let folder: URL
    private let daemon: DaemonHarness?
    private let scripts = Mutex<[String: ScriptedPresenter]>([:])
    private let answering = Mutex<Task<Void, Never>?>(nil)

    private init(backend: Backend, folder: URL, daemon: DaemonHarness?) {
        self.backend = backend
        self.folder = folder
        self.daemon = daemon
    }

    /// Runs `body` with a new store behind `backend`, and cleans up however it ends.
    static func with<T: Sendable>(_ backend: Backend, _ body: (AppSession) async throws -> T) async throws -> T {
        try await with(backend, daemonOnEncryptedStore: false, body)
    }

    /// The same, with the daemon serving an encrypted store, unlocked from its environment (`OPENHEALTHKIT_PASSPHRASE`).
    static let daemonPassphrase = "the daemon's store passphrase"

    static func with<T: Sendable>(_ backend: Backend, daemonOnEncryptedStore: Bool, _ body: (AppSession) async throws -> T) async throws -> T {
        let session: AppSession
        switch backend {
        case .embedded, .encrypted:
            let folder = try DaemonHarness.privateFolder()
            let store = folder.appendingPathComponent("store")
            if backend == .encrypted { try StoreEncryption.create(store, passphrase: "the person's passphrase", scrypt: .fast) }
            session = AppSession(backend: backend, folder: store, daemon: nil)
        case .remote:
            // `health serve` in its own process, as apps meet it (an app's synchronous calls block their thread while the
            // daemon answers, which a daemon on this process's threads could not).
            var folder: URL?
            if daemonOnEncryptedStore {
                folder = try DaemonHarness.privateFolder()
                try StoreEncryption.create(folder!.appendingPathComponent("store"), passphrase: daemonPassphrase, scrypt: .fast)
            }
            let (daemon, _, _) = try await ServeCommandTests.serve(folder: folder, environment: daemonOnEncryptedStore ? ["OPENHEALTHKIT_PASSPHRASE": daemonPassphrase] : [:])
            session = AppSession(backend: .remote, folder: daemon.store, daemon: daemon)
            session.startAnswering()
        }
        do {
            let result = try await body(session)
            await session.finish()
            return result
        } catch {
            await session.finish()
            throw error
        }
    }

    /// The person's side of the store.
    func person() throws -> HealthPerson { try HealthPerson(storeDirectory: folder) }

    /// The `HKHealthStore` of the app `manifest` describes, whose authorization requests the person answers with
    /// `script`. Through the daemon the app registers, the person approves it, and it calls with its token.
    func app(_ manifest: AppManifest, answering script: ScriptedPresenter.Script = .denyAll) async throws -> HKHealthStore {
        let presenter = ScriptedPresenter(script)
        scripts.withLock { $0[manifest.bundleIdentifier] = presenter }
        guard let daemon else {
            return HKHealthStore(configuration: .init(storeDirectory: folder, app: manifest, presenter: presenter))
        }
        return HKHealthStore(configuration: .init(server: .init(address: daemon.socketPath, token: try await token(for: manifest)), app: manifest))
    }

    /// The store of `manifest`'s app once it asked to share and read steps and heart rate and the person allowed both.
    func authorizedStepsStore(_ manifest: AppManifest = .steps) async throws -> HKHealthStore {
        let store = try await app(manifest, answering: .allowAll)
        try await store.requestAuthorization(toShare: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)],
                                             read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
        return store
    }

    /// The person's script answering `bundleIdentifier`'s requests, which records every sheet it was shown.
    func presenter(for bundleIdentifier: String) -> ScriptedPresenter? {
        scripts.withLock { $0[bundleIdentifier] }
    }

    /// Registers `manifest` with the daemon, has the person approve it, and claims its token.
    func token(for manifest: AppManifest) async throws -> String {
        guard let daemon else { throw HKError(.errorHealthDataUnavailable, "an embedded store has no daemon") }
        let client = daemon.client()
        let wire = Components.Schemas.AppManifest(
            cfBundleIdentifier: manifest.bundleIdentifier, cfBundleName: manifest.name, cfBundleShortVersionString: manifest.version,
            nsHealthShareUsageDescription: manifest.shareUsageDescription, nsHealthUpdateUsageDescription: manifest.updateUsageDescription,
            nsHealthClinicalHealthRecordsShareUsageDescription: manifest.clinicalUsageDescription,
            nsHealthRequiredReadAuthorizationTypeIdentifiers: manifest.requiredReadTypeIdentifiers)
        let registration = try await client.registerApp(body: .json(wire)).created.body.json
        _ = try person().decideRegistration(registration.id, .approved)
        return try await client.claimCredential(path: .init(registrationID: registration.id), body: .json(.init(secret: registration.secret)))
            .ok.body.json.token
    }

    /// The daemon's socket (remote only).
    var socketPath: String? { daemon?.socketPath }

    /// Through a daemon: the person answers each waiting request with the script of the app that asked.
    private func startAnswering() {
        let task = Task { [folder] in
            guard let person = try? HealthPerson(storeDirectory: folder) else { return }
            while !Task.isCancelled {
                if let waiting = try? person.pendingAuthorizationRequests() {
                    for request in waiting {
                        guard let presenter = scripts.withLock({ $0[request.sheet.app.bundleIdentifier] }) else { continue }
                        _ = try? person.answerAuthorizationRequest(request.id, await presenter.present(request.sheet))
                    }
                }
                if let waiting = try? person.pendingRecordSharingRequests() {
                    for request in waiting {
                        guard let presenter = scripts.withLock({ $0[request.sheet.app.bundleIdentifier] }) else { continue }
                        _ = try? person.answerRecordSharingRequest(request.id, await presenter.present(request.sheet))
                    }
                }
                if let waiting = try? person.pendingObjectReadRequests() {
                    for request in waiting {
                        guard let presenter = scripts.withLock({ $0[request.sheet.app.bundleIdentifier] }) else { continue }
                        _ = try? person.answerObjectReadRequest(request.id, await presenter.present(request.sheet))
                    }
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        answering.withLock { $0 = task }
    }

    private func finish() async {
        answering.withLock { $0?.cancel() }
        if let daemon { await daemon.stop() } else {
            StoreEncryption.forget(folder)
            try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
        }
    }
}

extension AppManifest {
    static let steps = AppManifest(bundleIdentifier: "com.example.steps", name: "Steps", version: "1.0",
                                   shareUsageDescription: "Charts your steps.", updateUsageDescription: "Logs your walks.")
    static let other = AppManifest(bundleIdentifier: "com.example.other", name: "Other", version: "2.3",
                                   shareUsageDescription: "Shows your data.", updateUsageDescription: "Logs your data.")
}
