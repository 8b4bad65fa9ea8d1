package import Foundation
import HealthModel
import ZIPFoundation

/// Packs a written export folder as Apple's `export.zip`: its entries under the folder's name
/// (`apple_health_export/export.xml`, `apple_health_export/clinical-records/…`), deflated, streamed file by file.
package enum ExportZip {
    package static func pack(_ folder: URL, into zip: URL) throws {
        do {
            try FileManager().zipItem(at: folder, to: zip, shouldKeepParent: true, compressionMethod: .deflate)
        } catch {
            throw HKError.invalidArgument("cannot write \(zip.path): \(error.localizedDescription)")
        }
    }
}
