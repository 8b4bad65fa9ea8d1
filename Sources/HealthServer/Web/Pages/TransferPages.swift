import Foundation
import HealthModel
import Hummingbird
import NIOCore
import OpenHealthKit

/// Bringing data in and taking it out:
/// - `GET /import` — the upload form and how the current import goes (reloading itself while one runs, for browsers
///   without script; with script, progress bars fed by the upload and by `GET /import/events`);
/// - `POST /import` — an export, as the raw body (`application/zip`, sent by the page's script with its CSRF token in
///   `X-CSRF-Token`) or as a form's file (`multipart/form-data`, the token in the address); streamed to a private
///   temporary file, then imported in the background. A second one while one runs is 409;
/// - `POST /import/sample` — imports the small sample export bundled with `health`;
/// - `GET /import/events` — Server-Sent Events: the import's progress every quarter second, until it ends;
/// - `GET /export.zip` — the whole store as an Apple Health export, made for this download.
struct TransferPages {
    let app: HealthWebApp
    /// The largest upload accepted.
    static let maximumUpload = 8 << 30

    func add(to router: Router<BasicRequestContext>) {
        router.get("import") { _, _ in page() }
        router.post("import") { request, _ in try await upload(request) }
        router.post("import/sample") { _, _ in
            guard let sample = app.sampleExport else { throw WebRefusal(.notFound, "This daemon has no bundled sample export.") }
            if let running = app.imports.begin() { return busy(running) }
            app.imports.run(sample, name: "the sample export", person: app.person, afterwards: app.warmUpCharts)
            return WebPage.redirect(to: "/import")
        }
        router.get("import/events") { _, _ in
            let imports = app.imports
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: ResponseBody { writer in
                // What is happening now, then every change until the import ends (or at once, when none runs).
                var last = ""
                while !Task.isCancelled {
                    let json = imports.json
                    if json != last {
                        try await writer.write(ByteBuffer(string: "data: \(json)\n\n"))
                        last = json
                    }
                    if !imports.phase.isRunning { break }
                    try await Task.sleep(for: .milliseconds(250))
                }
                try await writer.finish(nil)
            })
        }
        router.get("export.zip") { _, _ in try await export() }
    }

    private func busy(_ phase: StoreImport.Phase) -> Response {
        let how: String = switch phase {
        case .receiving(let bytes): "an export is being uploaded (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)) so far)"
        case .importing(let name, let bytes, let total, _):
            "\(name) is being imported (\(total > 0 ? Int(Double(bytes) / Double(total) * 100) : 0) %)"
        default: "an import is running"
        }
        return WebPage.message(title: "One import at a time", text: "Wait until it ends: \(how).", status: .conflict)
    }

    private func upload(_ request: Request) async throws -> Response {
        let contentType = request.headers[.contentType] ?? ""
        let isForm = contentType.lowercased().hasPrefix("multipart/form-data")
        // The token: the script's header, or the form's address (a file form cannot carry it before its file).
        try MultipartForm.checkToken(request, refusal: "This upload had expired or was not sent from the import page, so nothing was imported. Reload the page and try again.")
        guard isForm || contentType.lowercased().hasPrefix("application/zip") || contentType.lowercased().hasPrefix("application/octet-stream") else {
            throw WebRefusal(.unsupportedMediaType, "Upload the export.zip that the Health app exported.")
        }
        if let running = app.imports.begin() { return busy(running) }
        let folder: URL
        do { folder = try TransferFolder.make("openhealthkit-upload", for: app.directory) } catch let refusal as WebRefusal {
            app.imports.failed(refusal.message)
            throw refusal
        }
        do {
            let received = folder.appendingPathComponent("received")
            guard FileManager.default.createFile(atPath: received.path, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let handle = FileHandle(forWritingAtPath: received.path) else {
                throw WebRefusal(.internalServerError, "The upload could not be kept for importing.")
            }
            var bytes = 0
            do {
                for try await buffer in request.body {
                    bytes += buffer.readableBytes
                    guard bytes <= Self.maximumUpload else {
                        throw WebRefusal(.contentTooLarge, "The upload is larger than \(Self.maximumUpload >> 30) GB.")
                    }
                    try handle.write(contentsOf: buffer.readableBytesView)
                    app.imports.received(bytes)
                }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            var export = received
            var name = "export.zip"
            if isForm {
                let part = try MultipartFile.extract(from: received, contentType: contentType, into: folder.appendingPathComponent("export.zip"))
                export = part.url
                name = part.fileName ?? name
                try? FileManager.default.removeItem(at: received)
            } else {
                let zip = folder.appendingPathComponent("export.zip")
                try FileManager.default.moveItem(at: received, to: zip)
                export = zip
            }
            guard (try? export.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 > 0 else {
                throw WebRefusal(.badRequest, "The upload was empty: choose the export.zip file.")
            }
            // The folder goes once the import is done with the file.
            app.imports.run(export, name: name, person: app.person, removing: folder, afterwards: app.warmUpCharts)
        } catch let refusal as WebRefusal {
            app.imports.failed(refusal.message)
            try? FileManager.default.removeItem(at: folder)
            throw refusal
        } catch {
            app.imports.failed("the upload did not arrive whole (\(error))")
            try? FileManager.default.removeItem(at: folder)
            throw WebRefusal(.badRequest, "The upload did not arrive whole; nothing was imported.")
        }
        // The script reads the answer; a form is sent on to the page that shows the import going.
        return isForm ? WebPage.redirect(to: "/import") : Response(status: .accepted, headers: [.contentType: "application/json"],
                                                                    body: .init(byteBuffer: ByteBuffer(string: app.imports.json)))
    }

    private func page() -> Response {
        let phase = app.imports.phase
        let status: HTML
        switch phase {
        case .idle: status = .empty
        case .receiving(let bytes):
            status = "<p class=\"notice\" role=\"status\">Receiving the export: \(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)) so far.</p>"
        case .importing(let name, let bytes, let total, let samples):
            let percent = total > 0 ? Int(Double(bytes) / Double(total) * 100) : 0
            status = """
                <p class="notice" role="status">Importing \(name): \(samples.formatted()) samples read.</p>
                <progress id="import-progress" max="100" value="\(percent)">\(percent) %</progress>
                """
        case .finished(let summary): status = "<p class=\"notice\" role=\"status\">Imported \(StoreImport.describe(summary))</p>"
        case .failed(let name, let message): status = "<p class=\"message\" role=\"alert\">\(name) was not imported: \(message)</p>"
        }
        let csrf = PersonSession.current?.csrfToken ?? ""
        return WebPage.render("Import and export", section: .summary, refreshSeconds: phase.isRunning ? 2 : nil, """
            <div id="import-status" data-running="\(phase.isRunning ? "yes" : "no")">\(status)</div>
            <h2>Import your Health export</h2>
            <p>In Apple's Health app: your picture → Export All Health Data. Upload the <code>export.zip</code> it makes; what \
            is already in the store is not added twice.</p>
            <form method="post" action="/import?csrf=\(csrf)" enctype="multipart/form-data" class="stack" id="upload-form" data-csrf="\(csrf)">
            <label for="export-file">export.zip</label>
            <input id="export-file" name="file" type="file" accept=".zip,application/zip" required>
            <progress id="upload-progress" max="100" value="0" hidden></progress>
            <button type="submit">Import</button>
            </form>
            \(app.sampleExport == nil ? .empty : """
                <form method="post" action="/import/sample">\(WebPage.csrfField())\
                <p>No export at hand? <button type="submit" class="secondary">Import the sample export</button></p></form>
                """ as HTML)
            <h2>Export</h2>
            <p>Everything in the store as an Apple Health export (<code>export.xml</code> with its routes, ECGs and records), \
            made for this download.</p>
            <p><a class="button secondary" href="/export.zip" download>Download export.zip</a></p>
            """)
    }

    private func export() async throws -> Response {
        let folder = try TransferFolder.make("openhealthkit-export", for: app.directory)
        let file = folder.appendingPathComponent("export.zip")
        let person = app.person
        let zone = try person.timeZone()
        do {
            _ = try await Task.detached { try person.exportHealthData(to: file, timeZone: zone) }.value
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let name = "health-export-\(TypePage.dayText(Date(), calendar: calendar)).zip"
        return Response(status: .ok, headers: [.contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(name)\""],
                        body: ResponseBody(contentLength: size) { writer in
            defer { try? FileManager.default.removeItem(at: folder) }
            guard let handle = FileHandle(forReadingAtPath: file.path) else { return try await writer.finish(nil) }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 256 << 10), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        })
    }
}

/// The one file of a `multipart/form-data` upload kept on disk: its contents copied out without reading the whole
/// upload into memory (only its first and last few kilobytes are searched).
enum MultipartFile {
    static func extract(from upload: URL, contentType: String, into destination: URL) throws -> (url: URL, fileName: String?) {
        guard let boundary = MultipartForm.boundary(contentType) else { throw WebRefusal(.badRequest, "The form's upload has no boundary.") }
        guard let handle = FileHandle(forReadingAtPath: upload.path) else {
            throw WebRefusal(.badRequest, "The form's upload could not be read.")
        }
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let head = try handle.read(upToCount: 16 << 10) ?? Data()
        let separator = Data("\r\n\r\n".utf8)
        guard let headerEnd = head.range(of: separator),
              let headers = String(data: head[..<headerEnd.lowerBound], encoding: .utf8), headers.contains("--" + boundary) else {
            throw WebRefusal(.badRequest, "The form's upload is not a file form.")
        }
        let fileName = headers.range(of: "filename=\"").map { range in String(headers[range.upperBound...].prefix { $0 != "\"" }) }
        let start = headerEnd.upperBound
        let tailLength = min(size, 4096)
        try handle.seek(toOffset: UInt64(size - tailLength))
        let tail = try handle.read(upToCount: tailLength) ?? Data()
        guard let closing = tail.range(of: Data("\r\n--\(boundary)".utf8), options: .backwards) else {
            throw WebRefusal(.badRequest, "The form's upload ended early; nothing was imported.")
        }
        let end = size - tailLength + (closing.lowerBound - tail.startIndex)
        guard end >= start else { throw WebRefusal(.badRequest, "The form's upload holds no file.") }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = FileHandle(forWritingAtPath: destination.path) else {
            throw WebRefusal(.internalServerError, "The upload could not be kept for importing.")
        }
        defer { try? output.close() }
        try handle.seek(toOffset: UInt64(start))
        var remaining = end - start
        while remaining > 0, let chunk = try handle.read(upToCount: min(remaining, 1 << 20)), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
            remaining -= chunk.count
        }
        return (destination, fileName.flatMap { $0.isEmpty ? nil : $0 })
    }
}
