import Foundation
import HealthAPI
import OpenHealthKit
import Testing

/// The sample lists the daemon sends, without a daemon: each source revision and device once, named by index, and the
/// remote store's side making each of them once.
@Suite("Sample lists on the wire")
struct WireSampleListTests {
    static let start = Date(timeIntervalSinceReferenceDate: 815_000_000.25)
    static let watch = HKDevice(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: "2", firmwareVersion: nil,
                                softwareVersion: "11.1", localIdentifier: nil, udiDeviceIdentifier: nil)

    static func reading(_ minute: Int, device: HKDevice?, app: String) -> HKQuantitySample {
        let revision = HKSourceRevision(source: HKSource(name: app, bundleIdentifier: "com.example.\(app)"), version: "3",
                                        productType: "Watch7,1", operatingSystemVersion: .init(majorVersion: 11, minorVersion: 1, patchVersion: 0))
        return HKQuantitySample.make(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 60),
                                     start: start.addingTimeInterval(Double(minute) * 60), end: start.addingTimeInterval(Double(minute) * 60),
                                     uuid: UUID(), metadata: ["HKHeartRateMotionContext": .integer(1)], sourceRevision: revision, device: device)
    }

    /// Equal parts are sent once even when they are different objects, and come back equal to what was sent, shared by
    /// the samples that name them.
    @Test func eachPartIsSentAndMadeOnce() throws {
        let sameWatch = HKDevice(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: "2", firmwareVersion: nil,
                                 softwareVersion: "11.1", localIdentifier: nil, udiDeviceIdentifier: nil)
        let samples = (0..<40).map { minute in
            Self.reading(minute, device: [Self.watch, sameWatch, nil][minute % 3], app: minute < 20 ? "Pulse" : "Other")
        }
        let list = WireSample.list(samples)
        #expect(list.sources?.map(\.bundleIdentifier) == ["com.example.Pulse", "com.example.Other"])
        #expect(list.devices == [.init(name: "Watch", manufacturer: "Acme", model: "W2", hardwareVersion: "2", softwareVersion: "11.1")])
        #expect(list.samples.allSatisfy { $0.source == nil && $0.device == nil })
        let back = try WireSample.stored(list.samples, sources: list.sources, devices: list.devices)
        #expect(back.map(\.uuid) == samples.map(\.uuid))
        for (sent, got) in zip(samples, back) {
            #expect(got.device == sent.device && got.sourceRevision == sent.sourceRevision && got.metadataValues == sent.metadataValues)
        }
        let devices = back.compactMap(\.device)
        #expect(devices.count == 27 && devices.allSatisfy { $0 === devices[0] }, "one HKDevice for the list's one device")
        #expect(back[0].sourceRevision === back[19].sourceRevision && back[0].sourceRevision !== back[20].sourceRevision)
    }

    /// A sample naming a part the list does not have is an error naming the field, not a crash.
    @Test(arguments: ["sourceIndex", "deviceIndex"])
    func anIndexOutsideTheListIsNamed(_ field: String) throws {
        var list = WireSample.list([Self.reading(0, device: Self.watch, app: "Pulse")])
        if field == "sourceIndex" { list.samples[0].sourceIndex = 1 } else { list.samples[0].deviceIndex = 3 }
        #expect(throws: WireFieldError("/samples/0/\(field)", field == "sourceIndex" ? "1 is not an index of the list's 1 sources"
                                                                                  : "3 is not an index of the list's 1 devices")) {
            try WireSample.stored(list.samples, sources: list.sources, devices: list.devices)
        }
    }

    /// A sample carrying its own source and device (an older daemon's answer, a correlation's member) still reads.
    @Test func aSampleCarryingItsPartsStillReads() throws {
        let sample = Self.reading(0, device: Self.watch, app: "Pulse")
        let back = try #require(try WireSample.stored([WireSample.wire(sample)]).first)
        #expect(back.device == sample.device && back.sourceRevision == sample.sourceRevision)
    }
}
