import Foundation
import Testing
@testable import HealthModel

@Suite("Sources and devices")
struct SourceAndDeviceTests {
    @Test func sourcesCompareByBundleIdentifier() {
        #expect(HKSource(name: "A", bundleIdentifier: "com.a") == HKSource(name: "Renamed", bundleIdentifier: "com.a"))
        #expect(HKSource(name: "A", bundleIdentifier: "com.a") != HKSource(name: "A", bundleIdentifier: "com.b"))
        #expect(!HKSource.default().bundleIdentifier.isEmpty)
    }

    @Test func sourceRevisionKeepsEveryField() {
        let os = OperatingSystemVersion(majorVersion: 17, minorVersion: 2, patchVersion: 1)
        let source = HKSource(name: "Steps", bundleIdentifier: "com.example.steps")
        let revision = HKSourceRevision(source: source, version: "3.1", productType: "iPhone14,2", operatingSystemVersion: os)
        #expect(revision.source == source)
        #expect(revision.version == "3.1")
        #expect(revision.productType == "iPhone14,2")
        #expect(revision.operatingSystemVersion.majorVersion == 17 && revision.operatingSystemVersion.patchVersion == 1)
        let plain = HKSourceRevision(source: source, version: nil)
        #expect(plain.operatingSystemVersion.majorVersion == HKSourceRevisionAnyOperatingSystem.majorVersion)
        #expect(plain != revision)
    }

    @Test func localDeviceDescribesThisMachine() {
        let local = HKDevice.local()
        #expect(local.name?.isEmpty == false)
        #expect(local.model == "Linux" || local.model == "macOS")
        #expect(local.softwareVersion != nil)
        #expect(local == HKDevice.local())
    }

    @Test func devicePropertiesAreReadableByKey() {
        let d = HKDevice(name: "n", manufacturer: "m", model: "mo", hardwareVersion: "h", firmwareVersion: "f",
                         softwareVersion: "s", localIdentifier: "l", udiDeviceIdentifier: "u")
        #expect([HKDevicePropertyKeyName, HKDevicePropertyKeyManufacturer, HKDevicePropertyKeyModel, HKDevicePropertyKeyHardwareVersion,
                 HKDevicePropertyKeyFirmwareVersion, HKDevicePropertyKeySoftwareVersion, HKDevicePropertyKeyLocalIdentifier,
                 HKDevicePropertyKeyUDIDeviceIdentifier].map { d.value(forProperty: $0) } == ["n", "m", "mo", "h", "f", "s", "l", "u"])
    }

    @Test func characteristicObjectsHoldTheirValues() {
        #expect(HKBiologicalSexObject(biologicalSex: .female).biologicalSex == .female)
        #expect(HKBloodTypeObject(bloodType: .abNegative).bloodType.rawValue == 6)
        #expect(HKFitzpatrickSkinTypeObject(skinType: .IV).skinType.rawValue == 4)
        #expect(HKWheelchairUseObject(wheelchairUse: .yes).wheelchairUse.rawValue == 2)
        #expect(HKActivityMoveModeObject(activityMoveMode: .appleMoveTime).activityMoveMode.rawValue == 2)
    }

    @Test func optionSetsHaveHealthKitsBits() {
        #expect(HKStatisticsOptions.cumulativeSum.rawValue == 16)
        #expect(HKStatisticsOptions.duration.rawValue == 64)
        #expect(HKStatisticsOptions([.discreteAverage, .discreteMin]).rawValue == 6)
        #expect(HKQueryOptions.strictEndDate.rawValue == 2)
    }
}
