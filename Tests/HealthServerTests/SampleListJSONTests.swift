import Foundation
@testable import HealthAPI
import OpenHealthKit
import Testing
import TestSupport

/// The sample list's JSON written and read by hand (`SampleListJSON`), held against the generated `Codable` code it
/// stands in for: each reads what the other writes, value for value, and the hand reader refuses what the generated
/// one refuses, naming the field.
@Suite("Sample lists coded by hand")
struct SampleListJSONTests {
    static let start = Date(timeIntervalSinceReferenceDate: 815_000_000.123_456_7)

    /// The list of ``samples()``, one of whose samples carries its source and device itself (as a correlation's member
    /// does, or an older daemon's sample), for the reader.
    static func list() -> Components.Schemas.SampleList {
        var list = WireSample.list(samples())
        list.samples[2].source = .init(name: "Sleep", bundleIdentifier: "com.example.sleep", version: nil, productType: nil, operatingSystemVersion: nil)
        list.samples[2].sourceIndex = nil
        list.samples[2].device = .init(name: "Bed")
        return .init(samples: list.samples, sources: list.sources, devices: list.devices)
    }

    /// Every kind of sample field: a quantity with every kind of metadata value (strings needing escapes among them),
    /// a category sample, a series summary, a workout and a correlation (their fields spliced in from the generated
    /// code), devices and sources.
    static func samples() -> [HKSample] {
        let heart = HKQuantityType(.heartRate), perMinute = HKUnit.count().unitDivided(by: .minute())
        let watch = HKDevice(name: "Watch \"Ultra\"\n", manufacturer: "Acme/Apple", model: "W\u{1}2", hardwareVersion: "2", firmwareVersion: nil,
                             softwareVersion: "11.1", localIdentifier: "é😀\\", udiDeviceIdentifier: nil)
        let revision = HKSourceRevision(source: HKSource(name: "Pulse ✓", bundleIdentifier: "com.example.pulse"), version: "3",
                                        productType: "Watch7,1", operatingSystemVersion: .init(majorVersion: 11, minorVersion: 1, patchVersion: 0))
        let metadata: [String: HKMetadataValue] = [
            "HKHeartRateMotionContext": .integer(1), "ratio": .double(0.1), "tiny": .double(1e-300), "big": .double(-1.5e300),
            "flag": .bool(true), "no": .bool(false), "text": .string("tab\there \"quoted\" \u{7f} \u{0} / end"), "HKWasUserEntered": .bool(false),
            "when": .date(start.addingTimeInterval(0.000_1)), "dose": .quantity(HKQuantity(unit: .gramUnit(with: .milli), doubleValue: 2.5)),
            "odd/key~": .string(""),
        ]
        let reading = HKQuantitySample.make(type: heart, quantity: HKQuantity(unit: perMinute, doubleValue: 61.3), start: start, end: start,
                                            uuid: UUID(), metadata: metadata, sourceRevision: revision, device: watch)
        let plain = HKQuantitySample.make(type: heart, quantity: HKQuantity(unit: perMinute, doubleValue: 60), start: start.addingTimeInterval(60),
                                          end: start.addingTimeInterval(61), uuid: UUID(), metadata: nil, sourceRevision: revision, device: nil)
        let sleep = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: 3, start: start, end: start.addingTimeInterval(3600))
        let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 120),
                                        start: start, end: start)
        let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 80),
                                         start: start, end: start)
        let pressure = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: start, end: start, objects: [systolic, diastolic])
        let run = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(1800))
        func beats(_ value: Double) -> HKQuantity { HKQuantity(unit: perMinute, doubleValue: value) }
        let series = HKDiscreteQuantitySample(
            type: heart, average: beats(61),
            series: .init(minimum: beats(58), maximum: beats(63.5), mostRecent: beats(60), mostRecentDateInterval: DateInterval(start: start, duration: 1)),
            start: start, end: start.addingTimeInterval(3), count: 3, uuid: UUID(), metadata: nil, sourceRevision: revision, device: watch)
        return [reading, plain, sleep, pressure, run, series]
    }

    static func generatedEncoder() -> JSONEncoder { ExactDateTranscoder.jsonEncoder() }

    static func generatedDecoder() -> JSONDecoder { ExactDateTranscoder.jsonDecoder() }

    @Test func theHandReadsWhatTheGeneratedCodeWrites() throws {
        let list = Self.list()
        let written = try Self.generatedEncoder().encode(list)
        #expect(try SampleListJSON.decode(Array(written)) == list)
        // And its own writing, which is the same JSON.
        let samples = Self.samples(), own = WireSample.list(samples)
        #expect(try SampleListJSON.decode(SampleListJSON.encode(samples)) == .init(samples: own.samples, sources: own.sources, devices: own.devices))
    }

    /// The daemon writes its samples straight from the objects: the generated code reads the list `WireSample.list` makes
    /// (a series summary and the fields spliced in included), and the hand reader gives back the objects.
    @Test func theGeneratedCodeReadsWhatTheHandWrites() throws {
        let samples = Self.samples()
        let list = WireSample.list(samples)
        let written = try SampleListJSON.encode(samples)
        #expect(try Self.generatedDecoder().decode(Components.Schemas.SampleList.self, from: Data(written))
                == .init(samples: list.samples, sources: list.sources, devices: list.devices))
        let back = try WireSample.stored(SampleListJSON.decode(written).samples, sources: list.sources, devices: list.devices)
        #expect(back.map(\.uuid) == samples.map(\.uuid))
        // Every kind of metadata value comes back as it was (the first sample has them all).
        #expect(back[0].metadataValues == samples[0].metadataValues && back[0].metadataValues?.count == 11)
    }

    /// An anchored answer is a sample list with more members (deleted objects, the anchor): written after the list, and
    /// read by the caller, a misread one named.
    @Test func anAnchoredAnswerCarriesItsOtherMembers() throws {
        let samples = Self.samples()
        let deleted = [Components.Schemas.DeletedObject(uuid: UUID().uuidString, syncIdentifier: "sync/1", syncVersion: 3)]
        let written = try SampleListJSON.encode(samples) { members in
            try members.encoded("deletedObjects", deleted)
            members.string("anchor", "AAEC")
            members.integer("anchorValue", 42)
        }
        let list = WireSample.list(samples)
        #expect(try Self.generatedDecoder().decode(Components.Schemas.AnchoredChanges.self, from: Data(written))
                == .init(samples: list.samples, sources: list.sources, devices: list.devices, deletedObjects: deleted, anchor: "AAEC", anchorValue: 42))
        var read: (deleted: [Components.Schemas.DeletedObject]?, anchor: String?, value: Int?)
        func more(_ key: String, _ member: inout SampleListJSON.Member) throws -> Bool {
            switch key {
            case "deletedObjects": read.deleted = try member.decoded([Components.Schemas.DeletedObject].self)
            case "anchor": read.anchor = try member.string()
            case "anchorValue": read.value = try member.integer()
            default: return false
            }
            return true
        }
        let back = try SampleListJSON.decode(written, more: more)
        #expect(back.samples == list.samples && read.deleted == deleted && read.anchor == "AAEC" && read.value == 42)
        let error = try #require(throws: WireFieldError.self) { try SampleListJSON.decode(Array(#"{"samples":[],"anchorValue":"x"}"#.utf8), more: more) }
        #expect(error.field == "/anchorValue")
        let inner = try #require(throws: WireFieldError.self) {
            try SampleListJSON.decode(Array(#"{"samples":[],"deletedObjects":[{"uuid":1}]}"#.utf8), more: more)
        }
        #expect(inner.field == "/deletedObjects/0/uuid")
    }

    /// Whitespace, escaped keys and `null` for an absent field read as the generated decoder reads them.
    @Test func anyValidSpellingReads() throws {
        let text = """
             { "sources" : null , "samples" : [ { "uuid" : "\(UUID())" , "t\\u0079pe" : "HKQuantityTypeIdentifierStepCount" ,
              "startDate":"2026-11-24T10:00:00+01:00", "endDate" : "2026-11-24T09:01:00.5Z", "quantity": {"unit":"count","value":6E0},
              "device": null, "metadata": {"k": "\\ud83d\\ude00\\/"} } ] }\n
            """
        let list = try SampleListJSON.decode(Array(text.utf8))
        #expect(try Self.generatedDecoder().decode(Components.Schemas.SampleList.self, from: Data(text.utf8)) == list)
        #expect(list.samples[0].metadata?.additionalProperties["k"] == .case1("😀/"))
        #expect(list.samples[0].startDate == (try ExactDateTranscoder().decode("2026-11-24T09:00:00Z")))
    }

    /// What the generated decoder refuses, the hand reader refuses too, naming the field.
    @Test(arguments: [
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","colour":1}]}"#, "/samples/0/colour"),
        (#"{"samples":[{"type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z"}]}"#, "/samples/0/uuid"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24","endDate":"2026-11-24T10:00:00Z"}]}"#, "/samples/0/startDate"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","value":"3"}]}"#, "/samples/0/value"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":1}}]}"#, "/samples/0/quantity/unit"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","metadata":{"a/b":[1]}}]}"#, "/samples/0/metadata/a~1b"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","count":1.5}]}"#, "/samples/0/count"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","workout":{"duration":1}}]}"#, "/samples/0/workout/activityType"),
        (#"{"samples":[],"devices":[{"name":"W","colour":"red"}]}"#, "/devices/0/colour"),
        (#"{"samples":[],"sources":[{"name":"W"}]}"#, "/sources/0/bundleIdentifier"),
        ("{\"samples\":[{\"uuid\":\"u\u{1}\"}]}", "/samples/0/uuid"),   // a control character not escaped
        (#"{"samples":[]} x"#, ""),
        (#"{"samples":[01]}"#, "/samples/0"),
        (#"{"sources":[]}"#, "/samples"),
    ])
    func whatTheGeneratedCodeRefusesIsRefusedNamingTheField(text: String, field: String) throws {
        #expect(throws: (any Error).self) { try Self.generatedDecoder().decode(Components.Schemas.SampleList.self, from: Data(text.utf8)) }
        let error = try #require(throws: WireFieldError.self) { try SampleListJSON.decode(Array(text.utf8)) }
        #expect(error.field == field, "\(error)")
    }

    /// A batch an app saves (`POST /v1/objects`): every kind of sample, each carrying its own source and device, reads as
    /// the generated code reads it.
    @Test func aBatchToSaveReadsAsTheGeneratedCodeReadsIt() throws {
        let batch = Components.Schemas.SampleBatch(samples: Self.samples().map { WireSample.wire($0) })
        let written = Array(try Self.generatedEncoder().encode(batch))
        #expect(try SampleListJSON.decodeBatch(written) == batch)
        #expect(try SampleListJSON.decodeBatch(written) == Self.generatedDecoder().decode(Components.Schemas.SampleBatch.self, from: Data(written)))
    }

    /// What the generated decoder refuses in a batch, the hand reader refuses too, naming the field.
    @Test(arguments: [
        (#"{"samples":[],"colour":1}"#, "/colour"),
        (#"{"objects":[]}"#, "/objects"),
        (#"{}"#, "/samples"),
        (#"{"samples":{}}"#, "/samples"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","colour":1}]}"#, "/samples/0/colour"),
        (#"{"samples":[{"uuid":"u","type":7,"startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z"}]}"#, "/samples/0/type"),
        (#"{"samples":[{"uuid":"u","type":"t","startDate":"2026-11-24T10:00:00Z"}]}"#, "/samples/0/endDate"),
        (#"{"samples":[]} x"#, ""),
    ])
    func whatTheGeneratedCodeRefusesInABatchIsRefusedNamingTheField(text: String, field: String) throws {
        #expect(throws: (any Error).self) { try Self.generatedDecoder().decode(Components.Schemas.SampleBatch.self, from: Data(text.utf8)) }
        let error = try #require(throws: WireFieldError.self) { try SampleListJSON.decodeBatch(Array(text.utf8)) }
        #expect(error.field == field, "\(error)")
    }

    /// Bytes that are not UTF-8 inside a string are refused, as `JSONDecoder` refuses them, not read as U+FFFD.
    @Test func aStringThatIsNotUTF8IsRefused() throws {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80]] {
            for escaped in [false, true] {
                let name = Array(#"{"samples":[{"uuid":"u","type":"t\#(escaped ? "\\n" : "")"#.utf8) + bad
                let text = name + Array(#"","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z"}]}"#.utf8)
                #expect(throws: (any Error).self) { try Self.generatedDecoder().decode(Components.Schemas.SampleBatch.self, from: Data(text)) }
                let error = try #require(throws: WireFieldError.self) { try SampleListJSON.decodeBatch(text) }
                #expect(error.field == "/samples/0/type" && error.message.hasPrefix("a string that is not UTF-8"), "\(error)")
                #expect(throws: WireFieldError.self) { try SampleListJSON.decode(text) }
            }
        }
    }

    /// `text` mutated at random, `count` times (a byte removed, doubled, replaced by one of JSON's or a letter, two
    /// swapped, one to three times each), each handed to `compare`; how many `compare` took.
    static func mutations(of text: [UInt8], count: Int, seed: UInt64, _ compare: ([UInt8]) -> Bool) -> Int {
        var random = PredicateRandom(state: seed)
        let replacements = Array(#"{}[],:"\ 0-1.5eE+atrufnlsx"#.utf8)
        var taken = 0
        for _ in 0..<count {
            var mutated = text
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<mutated.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: mutated.remove(at: at)
                case 1: mutated.insert(mutated[at], at: at)
                case 2: mutated[at] = replacements.randomElement(using: &random)!
                default: mutated.swapAt(at, Int.random(in: 0..<mutated.count, using: &random))
                }
                if mutated.isEmpty { mutated = text }
            }
            if compare(mutated) { taken += 1 }
        }
        return taken
    }

    /// The daemon saves what the hand reader takes without asking the generated code, so it must never take a batch the
    /// generated code refuses, nor read one otherwise: thousands of batches mutated at random, each read by both alike
    /// (taken with the same values, or refused by both).
    @Test func aMutatedBatchIsReadByHandAsTheGeneratedCodeReadsIt() throws {
        let batch = Components.Schemas.SampleBatch(samples: Self.samples().map { WireSample.wire($0) })
        let taken = Self.mutations(of: Array(try Self.generatedEncoder().encode(batch)), count: 3_000, seed: 0x5A_5E_BA_7C) { text in
            let hand = try? SampleListJSON.decodeBatch(text)
            let generated = try? Self.generatedDecoder().decode(Components.Schemas.SampleBatch.self, from: Data(text))
            #expect(generated == hand, "\(String(decoding: text, as: UTF8.self))")
            return hand != nil
        }
        #expect(taken > 100, "too few mutations kept the batch valid to compare: \(taken)")
    }

    /// The same for the sample lists a remote store reads from the daemon: it must read whatever the generated code reads.
    @Test func aMutatedListIsReadByHandAsTheGeneratedCodeReadsIt() throws {
        let taken = Self.mutations(of: Array(try Self.generatedEncoder().encode(Self.list())), count: 3_000, seed: 0x11_57) { text in
            let hand = try? SampleListJSON.decode(text)
            let generated = try? Self.generatedDecoder().decode(Components.Schemas.SampleList.self, from: Data(text))
            #expect(generated == hand, "\(String(decoding: text, as: UTF8.self))")
            return hand != nil
        }
        #expect(taken > 100, "too few mutations kept the list valid to compare: \(taken)")
    }

    /// Random strings of every kind of character, and random numbers, come back exactly.
    @Test func randomTextAndNumbersComeBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        let characters: [Character] = ["a", "é", "\"", "\\", "/", "\n", "\u{0}", "\u{1f}", "\u{7f}", "😀", "\u{2028}", " ", "~", "\u{fffd}"]
        for _ in 0..<200 {
            let text = String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in characters.randomElement(using: &generator)! })
            let number = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            let value = number.isFinite ? number : Double.random(in: -1e6...1e6, using: &generator)
            let sample = HKQuantitySample.make(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: value),
                                               start: Self.start, end: Self.start, uuid: UUID(), metadata: [text: .string(text), text + "n": .double(value)],
                                               sourceRevision: HKSourceRevision(source: HKSource(name: text, bundleIdentifier: text), version: text),
                                               device: HKDevice(name: text, manufacturer: nil, model: nil, hardwareVersion: nil, firmwareVersion: nil,
                                                                softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil))
            let written = try SampleListJSON.encode([sample])
            let list = WireSample.list([sample])
            #expect(list.samples[0].metadata?.additionalProperties == [text: .case1(text), text + "n": .case2(value)])
            #expect(try SampleListJSON.decode(written) == .init(samples: list.samples, sources: list.sources, devices: list.devices))
            #expect(try Self.generatedDecoder().decode(Components.Schemas.SampleList.self, from: Data(written))
                    == .init(samples: list.samples, sources: list.sources, devices: list.devices))
        }
    }

    /// A UUID's text reads as Foundation reads it, in either case, and what Foundation refuses is refused.
    @Test func uuidsReadAsFoundationReadsThem() {
        for _ in 0..<500 {
            let uuid = UUID()
            #expect(UUID(wireText: uuid.uuidString) == uuid && UUID(wireText: uuid.uuidString.lowercased()) == uuid)
        }
        for text in ["", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF", "E621E1F8C36C-495A-93FC-0C247A3E6E5F0",
                     "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5é", "{621E1F8-C36C-495A-93FC-0C247A3E6E5}"] {
            #expect(UUID(wireText: text) == nil && UUID(uuidString: text) == nil, "\(text)")
        }
    }

    /// JSON has no text for infinity or NaN: writing one fails rather than send what no reader takes.
    @Test func aNumberJSONCannotWriteIsAnError() {
        let sample = HKQuantitySample.make(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1), start: Self.start,
                                           end: Self.start, uuid: UUID(), metadata: ["ratio": .double(.infinity)], sourceRevision: HKSourceRevision(source: HKSource(name: "Steps", bundleIdentifier: "com.example.steps"), version: nil),
                                           device: nil)
        #expect(throws: JSONWriter.NotFinite.self) { try SampleListJSON.encode([sample]) }
    }
}
