import Foundation
import OpenHealthKit
import Testing

/// What a careless or hostile client sends: each is a 400 (or 413) problem document naming what is wrong, and
/// nothing is written.
@Suite("The daemon: bad input")
struct BadInputTests {
    static let sample = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKQuantityTypeIdentifierStepCount","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:10:00Z","quantity":{"value":12,"unit":"count"}}"#

    @Test(arguments: [
        (#"{"samples":[{"#, nil as String?),
        (#"{"samples":[\#(sample.dropLast()),"extra":1}]}"#, "/samples/0/extra"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: #""value":12"#, with: #""value":"12""#))]}"#, "/samples/0/quantity/value"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: "6F9619FF", with: "nope"))]}"#, "/samples/0/uuid"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: "StepCount", with: "StepCounts"))]}"#, "/samples/0/type"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: #""unit":"count""#, with: #""unit":"furlong""#))]}"#, "/samples/0/quantity/unit"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: #""unit":"count""#, with: #""unit":"kg""#))]}"#, "/samples/0"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: #","quantity":{"value":12,"unit":"count"}"#, with: ""))]}"#, "/samples/0/quantity"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: "2026-11-24T10:00:00Z", with: "2026-02-30T10:00:00Z"))]}"#, "/samples/0/startDate"),
        (#"{"samples":[\#(sample.replacingOccurrences(of: "2026-11-24T10:10:00Z", with: "yesterday"))]}"#, "/samples/0/endDate"),
        (#"{"sample":[]}"#, "/samples"),
    ])
    func aBadSaveIs400NamingTheFieldAndWritesNothing(body: String, field: String?) async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            let answer = try await daemon.raw(.POST, "/v1/objects", body: body, token: token)
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.header("content-type") == "application/problem+json")
            #expect(answer.json["status"] as? Int == 400 && answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue, "\(answer.body)")
            #expect(answer.json["field"] as? String == field, "\(answer.body)")
            #expect(!((answer.json["detail"] as? String) ?? "").isEmpty)
            let stored = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKQuantityTypeIdentifierStepCount"}"#, token: token)
            #expect(stored.body == #"{"samples":[]}"#)
        }
    }

    /// The document allows null nowhere: an optional field sent as null is refused, naming it (found by schemathesis:
    /// the generated decoder read `"timeoutSeconds": null` as no timeout and parked the request). "null" in a string is
    /// text like any other.
    @Test func aNullIs400NamingTheFieldAndTheWordInAStringIsNot() async throws {
        try await DaemonHarness.with { daemon in
            let registration = try await daemon.raw(.POST, "/v1/registrations", body: """
                {"CFBundleIdentifier":"com.example.n","CFBundleName":"N","NSHealthRequiredReadAuthorizationTypeIdentifiers":null}
                """)
            #expect(registration.status == 400 && registration.json["field"] as? String == "/NSHealthRequiredReadAuthorizationTypeIdentifiers",
                    "\(registration.body)")
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.log", share: [steps], read: [steps])
            let request = try await daemon.raw(.POST, "/v1/authorization/requests", body: #"{"share":[],"read":[],"timeoutSeconds":null}"#, token: token)
            #expect(request.status == 400 && request.json["field"] as? String == "/timeoutSeconds", "\(request.body)")
            #expect(request.json["detail"] as? String == "/timeoutSeconds: null is not a value this API takes here; leave an optional field out")
            let withNull = Self.sample.dropLast() + #","metadata":{"note":null}}"#
            let save = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(withNull)]}"#, token: token)
            #expect(save.status == 400 && save.json["field"] as? String == "/samples/0/metadata/note", "\(save.body)")
            // A predicate's fields take any value, null among them (an open end of a date range).
            let openEnded = try await daemon.raw(.POST, "/v1/queries/samples", body: """
                {"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"dateRange","start":null,"end":null,"options":0}}
                """, token: token)
            #expect(openEnded.status == 200, "\(openEnded.body)")
            let withWord = Self.sample.dropLast() + #","metadata":{"note":"null \"n\" none"}}"#
            let saved = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(withWord)]}"#, token: token)
            #expect(saved.status == 204, "\(saved.body)")
        }
    }

    @Test func aBodyOverTheLimitIs413BeforeAnythingIsRead() async throws {
        try await DaemonHarness.with(maximumBodyBytes: 4096) { daemon in
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.log", share: [steps])
            let many = "{\"samples\":[" + Array(repeating: Self.sample, count: 40).joined(separator: ",") + "]}"
            let answer = try await daemon.raw(.POST, "/v1/objects", body: many, token: token)
            #expect(answer.status == 413)
            #expect(answer.json["detail"] as? String == "the request body is over the daemon's limit of 4096 bytes; send smaller batches")
            let chunked = try await daemon.raw(.POST, "/v1/registrations", body: many,
                                               headers: [("content-type", "application/json"), ("transfer-encoding", "chunked")])
            #expect(chunked.status == 413)
        }
    }

    @Test func aBodyThatIsNotJSONIs415OrA400() async throws {
        try await DaemonHarness.with { daemon in
            let text = try await daemon.raw(.POST, "/v1/registrations", body: "CFBundleIdentifier=x", headers: [("content-type", "text/plain")])
            #expect(text.status == 415 && text.header("content-type") == "application/problem+json", "\(text.status) \(text.body)")
            let empty = try await daemon.raw(.POST, "/v1/registrations", body: "")
            #expect(empty.status == 400 && empty.header("content-type") == "application/problem+json", "\(empty.status) \(empty.body)")
        }
    }

    /// The document's limits on lengths, sizes and ranges hold: each broken one is 400 naming the field.
    @Test(arguments: [
        ("/v1/registrations", #"{"CFBundleIdentifier":"\#(String(repeating: "a", count: 256))","CFBundleName":"Long"}"#, "/CFBundleIdentifier"),
        ("/v1/registrations", #"{"CFBundleIdentifier":"com.example.empty","CFBundleName":""}"#, "/CFBundleName"),
        ("/v1/registrations", #"{"CFBundle\u0049dentifier":"\#(String(repeating: "\\u00e9", count: 256))","CFBundleName":"Escaped"}"#, "/CFBundleIdentifier"),
        ("/v1/authorization/status", #"{"types":[\#(Array(repeating: #""x""#, count: 513).joined(separator: ","))]}"#, "/types"),
        ("/v1/authorization/requests", #"{"share":[],"read":[],"timeoutSeconds":3601}"#, "/timeoutSeconds"),
        ("/v1/queries/statistics", #"{"type":"HKQuantityTypeIdentifierStepCount","options":["cumulativeSum"],"intervalComponents":{"day":-1}}"#, "/intervalComponents/day"),
    ])
    func aBodyBeyondTheDocumentsLimitsIs400(path: String, body: String, field: String) async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.limits", share: [steps], read: [steps])
            let answer = try await daemon.raw(.POST, path, body: body, token: token)
            #expect(answer.status == 400 && answer.header("content-type") == "application/problem+json", "\(answer.status) \(answer.body)")
            #expect(answer.json["field"] as? String == field, "\(answer.body)")
            #expect(answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue, "\(answer.body)")
        }
    }

    /// A predicate the daemon cannot read — an unknown kind, a missing value, a comparison that does not exist, compounds
    /// nested past the limit — is 400 naming the place in it, for a query and for deleting by predicate alike.
    @Test(arguments: [
        ("/v1/queries/samples", #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"everything"}}"#, "/predicate/kind"),
        ("/v1/queries/samples", #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"not"}}"#, "/predicate/filter"),
        ("/v1/queries/samples", #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"and","filters":[{"kind":"categoryValue","operator":"~","value":1}]}}"#,
         "/predicate/filters/0/operator"),
        ("/v1/queries/samples", #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":\#(String(repeating: #"{"kind":"not","filter":"#, count: 70))\#(#"{"kind":"noCorrelation"}"#)\#(String(repeating: "}", count: 70))}"#,
         nil),
        ("/v1/objects/delete-matching", #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"uuids","uuids":["nope"]}}"#, "/predicate/uuids/0"),
        ("/v1/objects/delete-matching", #"{"type":"HKQuantityTypeIdentifierStepCounts","predicate":{"kind":"noCorrelation"}}"#, "/type"),
    ] as [(String, String, String?)])
    func aPredicateTheDaemonCannotReadIs400(path: String, body: String, field: String?) async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.predicates", share: [steps], read: [steps])
            let answer = try await daemon.raw(.POST, path, body: body, token: token)
            expectInvalidArgument(answer, field: field)
        }
    }

    /// An anchored query the daemon cannot run — an anchor it did not make, two anchors, a type that has no samples (a
    /// characteristic), no type at all — is 400 naming the field; so is a sample query of such a type.
    @Test(arguments: [
        (#"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}],"anchor":"not base64!"}"#, "/anchor" as String?),
        (#"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}],"anchor":"AAAA"}"#, nil),
        (#"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"}],"anchor":"AAAA","anchorValue":3}"#, "/anchorValue"),
        (#"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount"},{"type":"HKCharacteristicTypeIdentifierBloodType"}]}"#, "/queries/1/type"),
        (#"{"queries":[{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"nope"}}]}"#, "/queries/0/predicate/kind"),
        (#"{"queries":[]}"#, "/queries"),
    ])
    func aBadAnchoredQueryIs400(body: String, field: String?) async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount)
            let token = try await daemon.connect("com.example.anchors", share: [steps], read: [steps])
            let answer = try await daemon.raw(.POST, "/v1/queries/anchored", body: body, token: token)
            expectInvalidArgument(answer, field: field)
            let characteristic = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKCharacteristicTypeIdentifierBloodType"}"#,
                                                      token: token)
            #expect(characteristic.status == 400 && characteristic.json["field"] as? String == "/type", "\(characteristic.body)")
        }
    }

    /// A path the API has, with a method it does not take: 405 with the methods it does (RFC 9110); no such path: 404.
    @Test func aMethodThePathDoesNotTakeIs405() async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.methods")
            let trace = try await daemon.raw(.TRACE, "/v1/queries/samples", token: token)
            #expect(trace.status == 405 && trace.header("allow") == "POST", "\(trace.status) \(trace.body)")
            let get = try await daemon.raw(.GET, "/v1/registrations/abc/credential")
            #expect(get.status == 405 && get.header("allow") == "POST", "\(get.status) \(get.body)")
            let put = try await daemon.raw(.PUT, "/openapi.json")
            #expect(put.status == 405 && put.header("allow") == "GET", "\(put.status) \(put.body)")
            let nowhere = try await daemon.raw(.GET, "/v1/nowhere", token: token)
            #expect(nowhere.status == 404, "\(nowhere.status) \(nowhere.body)")
        }
    }

    /// A 400 problem document with HealthKit's invalid-argument code, naming `field` when given.
    private func expectInvalidArgument(_ answer: RawResponse, field: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 400 && answer.header("content-type") == "application/problem+json", "\(answer.status) \(answer.body)",
                sourceLocation: sourceLocation)
        if let field { #expect(answer.json["field"] as? String == field, "\(answer.body)", sourceLocation: sourceLocation) }
        #expect(answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue, "\(answer.body)", sourceLocation: sourceLocation)
    }
}
