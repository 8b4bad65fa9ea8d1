import Foundation
import Testing
@testable import HealthModel

/// Sources, revisions, devices, characteristics and locations archive every field.
@Suite("Value object coding")
struct ValueObjectCodingTests {
    @Test func sourcesRevisionsAndDevicesComeBackWithEveryField() throws {
        let revision = CodingFixtures.revision
        let back = try #require(try roundTrip(revision))
        #expect(back == revision && back.source.name == "Steps" && back.version == "3.1" && back.productType == "iPhone14,2")
        let os = back.operatingSystemVersion
        #expect((os.majorVersion, os.minorVersion, os.patchVersion) == (17, 2, 1))
        let bare = HKSourceRevision(source: HKSource(name: "n", bundleIdentifier: "b"), version: nil)
        let backBare = try #require(try roundTrip(bare))
        #expect(backBare == bare && backBare.version == nil && backBare.productType == nil)
        #expect(backBare.operatingSystemVersion.majorVersion == HKSourceRevisionAnyOperatingSystem.majorVersion)
        #expect(try roundTrip(CodingFixtures.device) == CodingFixtures.device)
        let empty = HKDevice(name: nil, manufacturer: nil, model: nil, hardwareVersion: nil, firmwareVersion: nil, softwareVersion: nil,
                             localIdentifier: nil, udiDeviceIdentifier: "only this")
        #expect(try roundTrip(empty) == empty)
    }

    @Test func characteristicObjectsComeBack() throws {
        #expect(try roundTrip(HKBiologicalSexObject(biologicalSex: .female))?.biologicalSex == .female)
        #expect(try roundTrip(HKBloodTypeObject(bloodType: .abNegative))?.bloodType == .abNegative)
        #expect(try roundTrip(HKFitzpatrickSkinTypeObject(skinType: .V))?.skinType == .V)
        #expect(try roundTrip(HKWheelchairUseObject(wheelchairUse: .yes))?.wheelchairUse == .yes)
        #expect(try roundTrip(HKActivityMoveModeObject(activityMoveMode: .appleMoveTime))?.activityMoveMode == .appleMoveTime)
    }

    @Test func aCharacteristicWithAnUnknownValueDoesNotDecode() throws {
        let data = try forgedArchive(of: HKBloodTypeObject(bloodType: .oNegative), replacing: ["bloodType": 42])
        #expect(decoded(HKBloodTypeObject.self, from: data) == nil)
    }

    #if !canImport(CoreLocation)
    @Test func aLocationComesBackExactly() throws {
        let location = CLLocation(coordinate: CLLocationCoordinate2D(latitude: 37.785_834_1, longitude: -122.406_417_3), altitude: 4.25,
                                  horizontalAccuracy: 8, verticalAccuracy: -1, course: 206.3, speed: 0.1 + 0.2,
                                  timestamp: CodingFixtures.start)
        let back = try #require(try roundTrip(location))
        #expect(back == location && back.speed.bitPattern == location.speed.bitPattern)
        #expect(location.copy() as? CLLocation === location)
    }
    #endif

    @Test func copyingValueObjectsGivesThemselves() {
        let source = CodingFixtures.revision.source
        #expect(source.copy() as? HKSource === source)
        #expect(CodingFixtures.revision.copy() as? HKSourceRevision === CodingFixtures.revision)
        #expect(CodingFixtures.device.copy() as? HKDevice === CodingFixtures.device)
        let sex = HKBiologicalSexObject(biologicalSex: .male)
        #expect(sex.copy() as? HKBiologicalSexObject === sex)
    }
}
