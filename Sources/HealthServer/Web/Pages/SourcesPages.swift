import Foundation
import HealthModel
import HealthStore
import Hummingbird
import OpenHealthKit

/// Sources, as the Health app's "Sources" lists them:
/// - `GET /sources` — the apps that connect to the daemon (approve, deny or revoke each), the apps with permissions,
///   and the devices and apps whose data the store holds;
/// - `GET /sources/apps/{bundle}` — one app's read and write switch for each type it asked for; `POST` applies them at
///   once: a type turned off is refused on the app's next call, and its open streams close;
/// - `POST /sources/registrations/{id}` — approve, deny or revoke a connecting app;
/// - `POST /sources/apps/{bundle}/objects/{uuid}` — stop letting the app read one vision prescription.
struct SourcesPages {
    let app: HealthWebApp

    func add(to router: Router<BasicRequestContext>) {
        router.get("sources") { request, _ in try list(done: request.uri.queryParameters.get("done")) }
        router.post("sources/registrations/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let registration = try app.registrations.all().first(where: { $0.id == id }) else {
                throw WebRefusal(.notFound, "No app registration has that id.")
            }
            let state: AppRegistrations.State
            switch WebForm.current["decision"] {
            case "approve": state = .approved
            case "deny": state = .denied
            case "revoke": state = .revoked
            default: throw WebRefusal(.badRequest, "Choose Approve, Deny or Revoke.")
            }
            try app.person.decideRegistration(registration.id, state)
            return WebPage.redirect(to: "/sources?done=\(state.rawValue)")
        }
        router.get("sources/apps/:bundle") { request, context in
            try appPage(try access(context), done: request.uri.queryParameters.get("done") != nil)
        }
        router.post("sources/apps/:bundle/objects/:uuid") { _, context in
            let access = try access(context)
            guard let uuid = UUID(uuidString: context.parameters.get("uuid") ?? "") else { throw WebRefusal(.notFound, "No such object.") }
            try app.person.withdrawObjectReadGrant(app: access.app.bundleIdentifier, uuid: uuid)
            return WebPage.redirect(to: "/sources/apps/\(access.app.bundleIdentifier)?done=saved")
        }
        router.post("sources/apps/:bundle") { _, context in
            let access = try access(context)
            let form = WebForm.current
            let share = Set(form.all("share")), read = Set(form.all("read"))
            for type in access.types {
                guard let objectType = HKObjectType.type(forIdentifier: type.typeIdentifier) else { continue }
                // Only the directions the app asked for, and only what changed.
                let offersShare = type.shareRequested || type.share != nil, offersRead = type.readRequested || type.read != nil
                let newShare: Bool? = offersShare && share.contains(type.typeIdentifier) != (type.share == true)
                    ? share.contains(type.typeIdentifier) : nil
                let newRead: Bool? = offersRead && read.contains(type.typeIdentifier) != (type.read == true)
                    ? read.contains(type.typeIdentifier) : nil
                if newShare != nil || newRead != nil {
                    try app.person.setPermission(app: access.app.bundleIdentifier, type: objectType, share: newShare, read: newRead)
                }
            }
            return WebPage.redirect(to: "/sources/apps/\(access.app.bundleIdentifier)?done=saved")
        }
    }

    private func access(_ context: BasicRequestContext) throws -> AppAccess {
        let bundle = context.parameters.get("bundle") ?? ""
        guard let access = try app.person.apps().first(where: { $0.app.bundleIdentifier == bundle }) else {
            throw WebRefusal(.notFound, "No app \(bundle) has asked this store for anything.")
        }
        return access
    }

    private func list(done: String?) throws -> Response {
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).year().hour().minute()
        style.timeZone = try app.calendar().timeZone
        let registrations: [HTML] = try app.registrations.all().map { registration in
            let buttons: [HTML] = switch registration.state {
            case .pending: [button(registration.id, "approve", "Approve"), button(registration.id, "deny", "Deny", secondary: true)]
            case .approved: [button(registration.id, "revoke", "Revoke", secondary: true)]
            case .denied, .revoked: []
            }
            return """
                <tr><td>\(registration.manifest.name)<br><span class="muted">\(registration.manifest.bundleIdentifier)</span></td>\
                <td>\(registration.state.rawValue)</td><td class="hide-narrow">\(registration.createdAt.formatted(style))</td><td>\(buttons)</td></tr>
                """
        }
        let apps: [HTML] = try app.person.apps().map { access in
            let allowed = access.types.filter { $0.share == true || $0.read == true }.count
            return "<li><a href=\"/sources/apps/\(access.app.bundleIdentifier)\">\(access.app.name)</a> <span class=\"muted\">— \(allowed) of \(access.types.count) type\(access.types.count == 1 ? "" : "s") allowed</span></li>"
        }
        // Without counts: counting a year of samples per source takes most of a second.
        let sources: [HTML] = try app.person.sourcesPresent().map { source in
            "<tr><td>\(source.name)</td><td class=\"muted hide-narrow\">\(source.bundleIdentifier)</td></tr>"
        }
        let notice: String? = switch done {
        case "approved": "Approved: the app can now claim its credential."
        case "denied": "Denied."
        case "revoked": "Revoked: the app's credential no longer works."
        default: nil
        }
        return WebPage.render("Sources", section: .sources, """
            \(WebPage.notice(notice, error: false))
            <h2>Apps connecting to this store</h2>
            \(registrations.isEmpty ? "<p class=\"muted\">No app has asked to connect.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">App</th><th scope="col">State</th>\
                <th scope="col" class="hide-narrow">Asked</th><th scope="col">Decide</th></tr></thead><tbody>\(registrations)</tbody></table></div>
                """)
            <h2>Apps and their permissions</h2>
            \(apps.isEmpty ? "<p class=\"muted\">No app has asked for any data.</p>" as HTML : "<ul>\(apps)</ul>")
            <h2>Devices and apps with data here</h2>
            \(sources.isEmpty ? "<p class=\"muted\">No data yet.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">Source</th><th scope="col" class="hide-narrow">Identifier</th>\
                </tr></thead><tbody>\(sources)</tbody></table></div>
                """)
            """)
    }

    private func button(_ id: String, _ decision: String, _ title: String, secondary: Bool = false) -> HTML {
        """
        <form method="post" action="/sources/registrations/\(id)" class="inline">\(WebPage.csrfField())\
        <button type="submit" name="decision" value="\(decision)" class="small\(secondary ? " secondary" : "")">\(title)</button></form>
        """
    }

    private func appPage(_ access: AppAccess, done: Bool) throws -> Response {
        func rows(_ kind: String, _ types: [AppAccess.TypeAccess], on: (AppAccess.TypeAccess) -> Bool) -> [HTML] {
            types.sorted { TypeNames.title($0.typeIdentifier) < TypeNames.title($1.typeIdentifier) }.map { type in
                let id = "\(kind)-\(type.typeIdentifier)"
                return """
                    <li><label for="\(id)">\(TypeNames.title(type.typeIdentifier))</label>\
                    <input type="checkbox" id="\(id)" name="\(kind)" value="\(type.typeIdentifier)"\(on(type) ? " checked" as HTML : .empty)></li>
                    """
            }
        }
        // What the app asked for, and what the person decided without being asked (`health permission`).
        let write = access.types.filter { $0.shareRequested || $0.share != nil }, read = access.types.filter { $0.readRequested || $0.read != nil }
        // Objects read one by one (vision prescriptions): each the person let it read, with a button to stop.
        let objects: [HTML] = try app.person.objectReadGrants(app: access.app.bundleIdentifier).map { object in
            """
            <li>\(ObjectAuthorizationSheet.summary(of: object)) <form method="post" class="inline" \
            action="/sources/apps/\(access.app.bundleIdentifier)/objects/\(object.uuid.uuidString)">\(WebPage.csrfField())\
            <button type="submit" class="secondary">Stop sharing</button></form></li>
            """
        }
        let medications: [HTML] = try app.person.sharedMedications(app: access.app.bundleIdentifier).map { tracked in
            """
            <li>\(tracked.medication.summary) <form method="post" class="inline" \
            action="/sources/apps/\(access.app.bundleIdentifier)/objects/\(tracked.uuid.uuidString)">\(WebPage.csrfField())\
            <button type="submit" class="secondary">Stop sharing</button></form></li>
            """
        }
        return WebPage.render(access.app.name, section: .sources, """
            \(WebPage.notice(done ? "Saved. The app's next call sees the change." : nil, error: false))
            <p class="muted">\(access.app.bundleIdentifier)</p>
            <form method="post" action="/sources/apps/\(access.app.bundleIdentifier)">
            \(WebPage.csrfField())
            \(write.isEmpty ? .empty : "<fieldset><legend>Allow “\(access.app.name)” to write</legend><ul class=\"switches\">\(rows("share", write) { $0.share == true })</ul></fieldset>" as HTML)
            \(read.isEmpty ? .empty : "<fieldset><legend>Allow “\(access.app.name)” to read</legend><ul class=\"switches\">\(rows("read", read) { $0.read == true })</ul></fieldset>" as HTML)
            <div class="actions"><button type="submit">Save</button></div>
            </form>
            \(objects.isEmpty ? .empty : "<h2>Vision prescriptions it may read</h2><ul>\(objects)</ul>" as HTML)
            \(medications.isEmpty ? .empty : "<h2>Medications it may read</h2><ul>\(medications)</ul>" as HTML)
            """)
    }
}
