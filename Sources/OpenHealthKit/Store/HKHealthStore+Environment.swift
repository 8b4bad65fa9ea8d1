public import Foundation

extension HKHealthStore.Configuration {
    /// The configuration `HKHealthStore()` uses, from the environment:
    /// - `OPENHEALTHKIT_STORE`: the store folder (default `.openhealthkit` in the working directory);
    /// - `OPENHEALTHKIT_APP`: a manifest JSON file with Info.plist's keys (default `openhealthkit-app.json`
    ///   beside the executable);
    /// - `OPENHEALTHKIT_PERSON`: a ``ScriptedPresenter/Script`` JSON file (default: deny everything).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<HKHealthStore.Configuration, HKError>
    {
        let store = URL(fileURLWithPath: environment["OPENHEALTHKIT_STORE"] ?? ".openhealthkit")
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
