import Foundation
import HealthModel
import HealthStore
import Hummingbird
import NIOCore

/// The person's routes for locking and unlocking the store (`health lock`, `health unlock`), outside the apps' API:
/// each proves the passphrase (or names the key file), so an app that can reach the daemon can neither unlock the
/// store nor lock it. Wrong ones in a row are limited (``StoreLocking``).
///
/// - `GET /person/lock` — `{"state": "unlocked" | "locked" | "replaying"}`
/// - `POST /person/lock` with `{"passphrase": …}` or `{"keyFile": path}` — locks; the same answer.
/// - `POST /person/unlock` with the same — unlocks and replays the writes kept meanwhile:
///   `{"state": "unlocked", "replayed": n, "refused": n}`, and `"damaged": "…"` when the journal was altered.
enum LockRoutes {
    static let prefix = "/person"

    private struct Proof: Decodable {
        var passphrase: String?
        var keyFile: String?
    }

    static func add(to router: Router<BasicRequestContext>, locking: StoreLocking, api: HealthAPIService) {
        router.get("person/lock") { _, _ in answer(["state": locking.mode.rawValue]) }
        router.post("person/lock") { request, _ in
            let proof = try await proof(request)
            try await refusals { try locking.lock(proof: proof) }
            return answer(["state": locking.mode.rawValue])
        }
        router.post("person/unlock") { request, _ in
            let proof = try await proof(request)
            let replayed = try await refusals { try await locking.unlock(proof, apply: api.replay) }
            var object: [String: Any] = ["state": locking.mode.rawValue, "replayed": replayed.applied, "refused": replayed.refused]
            if let damaged = replayed.damaged {
                object["damaged"] = "the journal of writes kept while locked was damaged or altered at byte \(damaged.at): the writes before it were made, none after it; it was set aside as \(damaged.setAsideAs)"
            }
            return answer(object)
        }
    }

    private static func proof(_ request: Request) async throws -> StoreUnlock {
        let body = try await request.body.collect(upTo: 64 << 10)
        guard let proof = try? JSONDecoder().decode(Proof.self, from: Data(buffer: body)) else {
            throw Problem(.badRequest, "invalid request body", detail: #"expected {"passphrase": "…"} or {"keyFile": "/path"}"#,
                          code: .errorInvalidArgument)
        }
        switch (proof.passphrase, proof.keyFile) {
        case (let passphrase?, nil): return .passphrase(passphrase)
        case (nil, let path?): return .keyFile(URL(fileURLWithPath: path))
        default:
            throw Problem(.badRequest, "invalid request body", detail: "give the passphrase or the key file, one of them",
                          code: .errorInvalidArgument, field: "/passphrase")
        }
    }

    /// The person's refusals as problems: a wrong passphrase is 403, too many of them 429 with `Retry-After`.
    private static func refusals<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch LockingError.refused(let error) {
            throw Problem(.forbidden, "not unlocked", detail: error.message, code: .errorAuthorizationDenied)
        } catch LockingError.tooManyAttempts(let wait) {
            var problem = Problem(.tooManyRequests, "too many attempts", detail: "five wrong passphrases in a row: wait a minute")
            problem.headers[.retryAfter] = "\(max(1, wait.components.seconds))"
            throw problem
        } catch let error as HKError {
            throw Problem(error)
        }
    }

    private static func answer(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
