public import Foundation

extension HKHealthStore.Configuration {
    /// The configuration `HKHealthStore()` uses, from the environment:
    /// - `OPENHEALTHKIT_STORE`: the store folder (default: the per-user data folder, ``defaultStoreDirectory(_:)``);
    /// - `OPENHEALTHKIT_APP`: a manifest JSON file with Info.plist's keys (default `openhealthkit-app.json`
    ///   beside the executable);
    /// - `OPENHEALTHKIT_PERSON`: a ``ScriptedPresenter/Script`` JSON file (default: deny everything);
    /// - or, to call the daemon that owns the person's store (`health serve`) instead of opening it:
    ///   `OPENHEALTHKIT_SERVER` (its Unix socket path or URL, as `health serve` prints them) and `OPENHEALTHKIT_TOKEN`
    ///   (the app's bearer token). The manifest is then optional, and the person answers where the daemon asks.
    /// Where the person's store lives unless told otherwise: `OPENHEALTHKIT_STORE`, else the per-user data folder —
    /// `$XDG_DATA_HOME/openhealthkit`, else `~/.local/share/openhealthkit` (on macOS
    /// `~/Library/Application Support/OpenHealthKit`), so every program and `health` command of one user finds the
    /// same store wherever it runs.
    public static func defaultStoreDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let store = environment["OPENHEALTHKIT_STORE"], !store.isEmpty { return URL(fileURLWithPath: store) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("openhealthkit")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        #if os(macOS)
        return home.appendingPathComponent("Library/Application Support/OpenHealthKit")
        #else
        return home.appendingPathComponent(".local/share/openhealthkit")
        #endif
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<HKHealthStore.Configuration, HKError>
    {
        if let address = environment["OPENHEALTHKIT_SERVER"], !address.isEmpty {
            guard let token = environment["OPENHEALTHKIT_TOKEN"], !token.isEmpty else {
                return .failure(HKError(.errorHealthDataUnavailable,
                                        "OPENHEALTHKIT_SERVER is set but OPENHEALTHKIT_TOKEN is not: set it to the token the app received when the person approved it"))
            }
            guard address.hasPrefix("/") || address.hasPrefix("http://") || address.hasPrefix("https://") else {
                return .failure(HKError(.errorHealthDataUnavailable,
                                        "OPENHEALTHKIT_SERVER is \"\(address)\": give the daemon's Unix socket path (starting with /) or an http:// or https:// URL"))
            }
            let manifest = environment["OPENHEALTHKIT_APP"].flatMap { try? JSONDecoder().decode(AppManifest.self, from: Data(contentsOf: URL(fileURLWithPath: $0))) }
            return .success(.init(server: HKHealthStore.Server(address: address, token: token), app: manifest ?? AppManifest(bundleIdentifier: "", name: "")))
        }
        let store = defaultStoreDirectory(environment)
        let executableFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        let appFile = environment["OPENHEALTHKIT_APP"].map { URL(fileURLWithPath: $0) }
            ?? executableFolder.appendingPathComponent("openhealthkit-app.json")
        let manifest: AppManifest
        do {
            manifest = try JSONDecoder().decode(AppManifest.self, from: Data(contentsOf: appFile))
        } catch {
            return .failure(HKError(.errorHealthDataUnavailable,
                                    "no app manifest: set OPENHEALTHKIT_APP to a JSON file with CFBundleIdentifier and CFBundleName (\(appFile.path): \(error))"))
        }
        var script = ScriptedPresenter.Script.denyAll
        if let personFile = environment["OPENHEALTHKIT_PERSON"] {
            do {
                script = try JSONDecoder().decode(ScriptedPresenter.Script.self, from: Data(contentsOf: URL(fileURLWithPath: personFile)))
            } catch {
                return .failure(HKError(.errorInvalidArgument, "OPENHEALTHKIT_PERSON \(personFile) is not a person script: \(error)"))
            }
        }
        return .success(.init(storeDirectory: store, app: manifest, presenter: ScriptedPresenter(script)))
    }
}
