package import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the parts of an HL7 CDA document HealthKit shows: the title, and the names of the patient, the author and
/// the custodian organization. Streaming (XMLParser), so a large document costs little memory.
package enum CDADocumentParser {
    static let namespace = "urn:hl7-org:v3"

    package static func parse(_ data: Data) throws -> HKCDADocument {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        // swift-corelibs' parse() can return true and still set parserError (a truncated document), so check both.
        let parsed = parser.parse()
        if let problem = reader.problem { throw HKError.invalidArgument(problem) }
        guard parsed, parser.parserError == nil else {
            let code = (parser.parserError as? NSError)?.code ?? 0
            let name = XMLParser.ErrorCode(rawValue: code).map { "\($0)" } ?? "error \(code)"
            throw HKError.invalidArgument("the CDA document is not well-formed XML (line \(parser.lineNumber): \(name))")
        }
        func required(_ value: String?, _ what: String, _ path: String) throws -> String {
            guard let value, !value.isEmpty else {
                throw HKError.invalidArgument("the CDA document has no \(what) (\(path))")
            }
            return value
        }
        return HKCDADocument(
            documentData: data,
            title: try required(reader.title, "title", "ClinicalDocument/title"),
            patientName: try required(reader.patientName, "patient name", "recordTarget/patientRole/patient/name"),
            authorName: try required(reader.authorName, "author name",
                                     "author/assignedAuthor/assignedPerson/name or representedOrganization/name"),
            custodianName: try required(reader.custodianName, "custodian name",
                                        "custodian/assignedCustodian/representedCustodianOrganization/name"))
    }

    /// Collects text by element path (local names under the root).
    private final class Reader: NSObject, XMLParserDelegate {
        var path: [String] = []
        var problem: String?
        enum Field { case title, patient, author, custodian }
        var found: [Field: String] = [:]
        var title: String? { found[.title] }
        var patientName: String? { found[.patient] }
        var authorName: String? { found[.author] }
        var custodianName: String? { found[.custodian] }
        /// The field being collected, the path depth where it started, and its text parts.
        private var collecting: (field: Field, depth: Int, parts: [String])?
        private var text = ""

        private static let targets: [([String], Field)] = [
            (["ClinicalDocument", "title"], .title),
            (["ClinicalDocument", "recordTarget", "patientRole", "patient", "name"], .patient),
            (["ClinicalDocument", "author", "assignedAuthor", "assignedPerson", "name"], .author),
            (["ClinicalDocument", "author", "assignedAuthor", "representedOrganization", "name"], .author),
            (["ClinicalDocument", "custodian", "assignedCustodian", "representedCustodianOrganization", "name"], .custodian),
        ]

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if path.isEmpty, elementName != "ClinicalDocument" || namespaceURI != CDADocumentParser.namespace {
                problem = "the document is not CDA: its root element is \(elementName) in namespace \(namespaceURI ?? "none"), "
                    + "not ClinicalDocument in \(CDADocumentParser.namespace)"
                parser.abortParsing()
                return
            }
            path.append(elementName)
            flushText()
            if collecting == nil, let target = Self.targets.first(where: { $0.0 == path }), found[target.1] == nil {
                collecting = (target.1, path.count, [])
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if collecting != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            flushText()
            if let current = collecting, current.depth == path.count {
                found[current.field] = current.parts.joined(separator: " ")
                collecting = nil
            }
            path.removeLast()
        }

        /// Adds the text seen since the last element boundary to the field being collected.
        private func flushText() {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { collecting?.parts.append(trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
            text = ""
        }
    }
}
