import Foundation
import HealthModel
import HealthStore
import Hummingbird
import OpenHealthKit

/// What apps wait on the person for, as HealthKit's sheets put it:
/// - `GET /requests` — the authorization requests and record-sharing sheets waiting, oldest first;
/// - `GET /requests/{id}` — an authorization sheet: the app's name and usage descriptions, each type it asks to write
///   and to read with its own switch, health records apart with the clinical types the app requires; "Turn On All";
///   "Allow" answers with the switches as set, "Don't Allow" denies every type. The app's parked request completes at
///   once;
/// - `GET /shares/{id}` — a record-sharing sheet: which of the matching verifiable records to share;
/// - `GET /objects/{id}` — a per-object sheet: which vision prescriptions the app may read, each switch as it is now.
struct RequestPages {
    let app: HealthWebApp

    func add(to router: Router<BasicRequestContext>) {
        router.get("requests") { request, _ in try list(answered: request.uri.queryParameters.get("done") == "answered") }
        router.get("requests/:id") { _, context in
            try sheetPage(try request(context), share: nil, read: nil, stage: .data)
        }
        router.post("requests/:id") { _, context in
            let request = try request(context)
            let form = WebForm.current
            let share = Set(form.all("share")).intersection(request.sheet.shareTypes)
            let read = Set(form.all("read")).intersection(request.sheet.readTypes)
            let stage = Stage(rawValue: form["stage"] ?? "") ?? .data
            switch form["action"] {
            case "all":
                // Turn On All sets every switch of this sheet; the person still says Allow (the other sheet's stay).
                let clinical = request.sheet.readTypes.filter(Self.isClinical)
                return try stage == .records
                    ? sheetPage(request, share: share, read: read.union(clinical), stage: .records)
                    : sheetPage(request, share: request.sheet.shareTypes, read: read.union(request.sheet.readTypes.subtracting(clinical)), stage: .data)
            case "next":
                return try sheetPage(request, share: share, read: read, stage: .records)
            case "allow":
                return try answer(request, .decided(share: share, read: read))
            case "deny":
                return try answer(request, .decided(share: [], read: []))
            default:
                throw WebRefusal(.badRequest, "Choose Allow or Don't Allow.")
            }
        }
        router.get("objects/:id") { _, context in try objectPage(try objectRead(context)) }
        router.post("objects/:id") { _, context in
            let request = try objectRead(context)
            let form = WebForm.current
            let offered = Set(request.sheet.objects.map(\.uuid))
            let chosen = Set(form.all("object").compactMap(UUID.init(uuidString:))).intersection(offered)
            let response: ObjectAuthorizationSheet.Response
            switch form["action"] {
            case "allow": response = .allow(chosen)
            case "cancel": response = .dismissed
            default: throw WebRefusal(.badRequest, "Choose Allow or Cancel.")
            }
            guard try app.person.answerObjectReadRequest(request.id, response) else { return stoppedWaiting(request.sheet.app.name) }
            return WebPage.redirect(to: "/requests?done=answered")
        }
        router.get("shares/:id") { _, context in try sharePage(try recordShare(context)) }
        router.post("shares/:id") { _, context in
            let request = try recordShare(context)
            let form = WebForm.current
            let offered = Set(request.sheet.records.map(\.record.uuid))
            let chosen = Set(form.all("record").compactMap(UUID.init(uuidString:))).intersection(offered)
            let response: RecordSharingSheet.Response = form["action"] == "share" ? .share(chosen) : .cancelled
            guard try app.person.answerRecordSharingRequest(request.id, response) else { return stoppedWaiting(request.sheet.app.name) }
            return WebPage.redirect(to: "/requests?done=answered")
        }
    }

    private func objectRead(_ context: BasicRequestContext) throws -> PendingObjectReads.Request {
        let id = context.parameters.get("id") ?? ""
        guard let request = try app.person.pendingObjectReadRequests().first(where: { $0.id == id }) else {
            throw WebRefusal(.notFound, "No app waits for this answer any more (it was answered, or the app stopped waiting).")
        }
        return request
    }

    private func request(_ context: BasicRequestContext) throws -> PendingAuthorizations.Request {
        let id = context.parameters.get("id") ?? ""
        guard let request = try app.person.pendingAuthorizationRequests().first(where: { $0.id == id }) else {
            throw WebRefusal(.notFound, "No app waits for this answer any more (it was answered, or the app stopped waiting).")
        }
        return request
    }

    private func recordShare(_ context: BasicRequestContext) throws -> PendingRecordShares.Request {
        let id = context.parameters.get("id") ?? ""
        guard let request = try app.person.pendingRecordSharingRequests().first(where: { $0.id == id }) else {
            throw WebRefusal(.notFound, "No app waits for this answer any more (it was answered, or the app stopped waiting).")
        }
        return request
    }

    private func answer(_ request: PendingAuthorizations.Request, _ response: AuthorizationSheet.Response) throws -> Response {
        guard try app.person.answerAuthorizationRequest(request.id, response) else { return stoppedWaiting(request.sheet.app.name) }
        return WebPage.redirect(to: "/requests?done=answered")
    }

    private func stoppedWaiting(_ name: String) -> Response {
        WebPage.message(title: "Too late", text: "\(name) stopped waiting before your answer; it will ask again.", status: .conflict)
    }

    private func list(answered: Bool = false) throws -> Response {
        let requests = try app.person.pendingAuthorizationRequests()
        let shares = try app.person.pendingRecordSharingRequests()
        let objectReads = try app.person.pendingObjectReadRequests()
        // Apps asking to connect at all wait for the person too: their decision is under Sources.
        let connecting = try app.registrations.all().filter { $0.state == .pending }
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).hour().minute()
        style.timeZone = try app.calendar().timeZone
        let items: [HTML] = requests.map { request in
            let count = request.sheet.shareTypes.union(request.sheet.readTypes).count
            return "<li><a href=\"/requests/\(request.id)\">\(request.sheet.app.name)</a> asks for \(count) type\(count == 1 ? "" : "s") <span class=\"muted\">(\(request.createdAt.formatted(style)))</span></li>"
        } + shares.map { request in
            "<li><a href=\"/shares/\(request.id)\">\(request.sheet.app.name)</a> asks for \(request.sheet.records.count) verifiable record\(request.sheet.records.count == 1 ? "" : "s") <span class=\"muted\">(\(request.createdAt.formatted(style)))</span></li>"
        } + objectReads.map { request in
            "<li><a href=\"/objects/\(request.id)\">\(request.sheet.app.name)</a> asks which \(TypeNames.title(request.sheet.typeIdentifier).lowercased())s it may read <span class=\"muted\">(\(request.createdAt.formatted(style)))</span></li>"
        } + connecting.map { registration in
            "<li>\(registration.manifest.name) asks to connect to this store: <a href=\"/sources\">approve or deny it under Sources</a> <span class=\"muted\">(\(registration.createdAt.formatted(style)))</span></li>"
        }
        return WebPage.render("Requests", section: .requests, """
            \(WebPage.notice(answered ? "Answered: the app has your answer." : items.isEmpty ? nil : "Each app waits until you answer.", error: false))
            \(items.isEmpty ? "<p>No app is waiting for an answer.</p>" as HTML : "<ul>\(items)</ul>")
            """)
    }

    /// A request with health records puts them on a sheet of their own, after the data's (as HealthKit does).
    enum Stage: String { case data, records }

    static func isClinical(_ identifier: String) -> Bool { HKObjectType.type(forIdentifier: identifier) is HKClinicalType }

    private func sheetPage(_ request: PendingAuthorizations.Request, share: Set<String>?, read: Set<String>?, stage requested: Stage) throws -> Response {
        let sheet = request.sheet
        let isClinical = Self.isClinical
        func switches(_ identifiers: Set<String>, name: String, on: Set<String>?) -> [HTML] {
            identifiers.sorted { TypeNames.title($0) < TypeNames.title($1) }.map { identifier in
                let id = "\(name)-\(identifier)"
                let required = sheet.requiredReadTypes.contains(identifier)
                return """
                    <li><label for="\(id)">\(TypeNames.title(identifier))\(required ? " <span class=\"muted\">(required by the app)</span>" as HTML : .empty)</label>\
                    <input type="checkbox" id="\(id)" name="\(name)" value="\(identifier)"\(on?.contains(identifier) == true ? " checked" as HTML : .empty)></li>
                    """
            }
        }
        let write = sheet.shareTypes
        let readData = sheet.readTypes.filter { !isClinical($0) }
        let records = sheet.readTypes.filter(isClinical)
        let hasData = !write.isEmpty || !readData.isEmpty
        let stage: Stage = records.isEmpty ? .data : hasData ? requested : .records
        // The other sheet's choices ride along, so Allow answers both.
        let carried: [HTML] = (stage == .data ? records.filter { read?.contains($0) == true }.map { ("read", $0) }
            : Array(write.filter { share?.contains($0) == true }.map { ("share", $0) }) + readData.filter { read?.contains($0) == true }.map { ("read", $0) })
            .map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" }
        var sections: [HTML] = []
        if stage == .data, !write.isEmpty {
            sections.append("""
                <fieldset><legend>Allow “\(sheet.app.name)” to write data</legend>
                \(sheet.app.updateUsageDescription.map { "<p class=\"usage\">\($0)</p>" as HTML } ?? .empty)
                <ul class="switches">\(switches(write, name: "share", on: share))</ul></fieldset>
                """)
        }
        if stage == .data, !readData.isEmpty {
            sections.append("""
                <fieldset><legend>Allow “\(sheet.app.name)” to read data</legend>
                \(sheet.app.shareUsageDescription.map { "<p class=\"usage\">\($0)</p>" as HTML } ?? .empty)
                <ul class="switches">\(switches(readData, name: "read", on: read))</ul></fieldset>
                """)
        }
        if stage == .records {
            sections.append("""
                <fieldset class="records"><legend>Health records</legend>
                <p>“\(sheet.app.name)” asks to read your health records. Records you share include what your providers \
                wrote, and the app keeps what it reads.</p>
                \((sheet.app.clinicalUsageDescription ?? sheet.app.shareUsageDescription).map { "<p class=\"usage\">\($0)</p>" as HTML } ?? .empty)
                <ul class="switches">\(switches(records, name: "read", on: read))</ul></fieldset>
                """)
        }
        return WebPage.render("“\(sheet.app.name)” would like to access your health data", section: .requests, """
            <p class="muted">\(sheet.app.bundleIdentifier). Your answer applies at once; change it later under Sources.</p>
            <form method="post" action="/requests/\(request.id)">
            \(WebPage.csrfField())<input type="hidden" name="stage" value="\(stage.rawValue)">\(carried)
            <div class="actions"><button type="submit" name="action" value="all" class="secondary">Turn On All</button></div>
            \(sections)
            <div class="actions">\(stage == .data && !records.isEmpty
                ? "<button type=\"submit\" name=\"action\" value=\"next\">Next: health records</button>" as HTML
                : "<button type=\"submit\" name=\"action\" value=\"allow\">Allow</button>")
            <button type="submit" name="action" value="deny" class="secondary">Don’t Allow</button></div>
            </form>
            """)
    }

    private func objectPage(_ request: PendingObjectReads.Request) throws -> Response {
        let sheet = request.sheet
        let rows: [HTML] = sheet.objects.map { candidate in
            let id = "object-\(candidate.uuid.uuidString)"
            return """
                <li><label for="\(id)">\(candidate.summary)</label>\
                <input type="checkbox" id="\(id)" name="object" value="\(candidate.uuid.uuidString)"\(candidate.allowed ? " checked" as HTML : .empty)></li>
                """
        }
        let what = TypeNames.title(sheet.typeIdentifier).lowercased()
        return WebPage.render("“\(sheet.app.name)” asks to read your \(what)s", section: .requests, """
            <p>Choose which ones it may read (those it saved are on unless you turned them off). You can change this later under Sources.</p>
            \(sheet.app.shareUsageDescription.map { "<p class=\"usage\">\($0)</p>" as HTML } ?? .empty)
            <form method="post" action="/objects/\(request.id)">
            \(WebPage.csrfField())
            \(rows.isEmpty ? "<p>You have none.</p>" as HTML : "<ul class=\"switches\">\(rows)</ul>")
            <div class="actions"><button type="submit" name="action" value="allow">Allow</button>
            <button type="submit" name="action" value="cancel" class="secondary">Cancel</button></div>
            </form>
            """)
    }

    private func sharePage(_ request: PendingRecordShares.Request) throws -> Response {
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        style.timeZone = try app.calendar().timeZone
        let rows: [HTML] = request.sheet.records.map { candidate in
            let record = candidate.record
            let id = "record-\(record.uuid.uuidString)"
            return """
                <li><label for="\(id)">\(record.recordTypes.joined(separator: ", ")) — \(record.subject.fullName), issued by \
                \(record.issuerIdentifier) on \(record.issuedDate.formatted(style)) \
                \(candidate.verified ? "<strong>verified</strong>" as HTML : "<span class=\"muted\">not verified</span>")</label>\
                <input type="checkbox" id="\(id)" name="record" value="\(record.uuid.uuidString)"></li>
                """
        }
        return WebPage.render("“\(request.sheet.app.name)” asks for verifiable records", section: .requests, """
            <p>Choose which records to share. The app receives them as they were signed.</p>
            <form method="post" action="/shares/\(request.id)">
            \(WebPage.csrfField())
            <ul class="switches">\(rows)</ul>
            <div class="actions"><button type="submit" name="action" value="share">Share</button>
            <button type="submit" name="action" value="cancel" class="secondary">Don’t Share</button></div>
            </form>
            """)
    }
}
