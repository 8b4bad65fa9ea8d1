import Hummingbird
import NIOCore

/// The web app's stylesheet and script, ours and served from the daemon (no framework, no CDN). The pages need no
/// script: it only asks before a deletion.
enum WebAssets {
    static func add(to router: Router<BasicRequestContext>) {
        router.get("static/health.css") { _, _ in asset(stylesheet, type: "text/css; charset=utf-8") }
        router.get("static/health.js") { _, _ in asset(script, type: "text/javascript; charset=utf-8") }
    }

    private static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=3600"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let script = """
        // Asks before a form marked data-confirm is sent (deleting a sample). Without script the form is sent as it is.
        document.addEventListener("submit", function (event) {
          var question = event.target.getAttribute("data-confirm");
          if (question && !window.confirm(question)) event.preventDefault();
        });

        // The import page: the export is sent as it is (no form encoding) with a bar for the upload, then the import's
        // progress comes as events. Without script the form posts the file and the page reloads itself while it runs.
        (function () {
          var form = document.getElementById("upload-form");
          var status = document.getElementById("import-status");
          if (!form || !status) return;
          function show(text, alert) {
            status.innerHTML = "";
            var p = document.createElement("p");
            p.className = alert ? "message" : "notice";
            p.setAttribute("role", alert ? "alert" : "status");
            p.textContent = text;
            status.appendChild(p);
            return p;
          }
          function follow() {
            var bar = document.createElement("progress");
            bar.max = 100; bar.id = "import-progress";
            var events = new EventSource("/import/events");
            events.onmessage = function (message) {
              var state = JSON.parse(message.data);
              if (state.phase === "importing") {
                show("Importing " + state.name + ": " + state.samples.toLocaleString() + " samples read.");
                bar.value = state.total > 0 ? Math.round(state.bytes / state.total * 100) : 0;
                status.appendChild(bar);
              } else if (state.phase === "finished") {
                show("Imported " + state.message); events.close();
              } else if (state.phase === "failed") {
                show(state.name + " was not imported: " + state.message, true); events.close();
              }
            };
            events.onerror = function () { events.close(); };
          }
          if (status.getAttribute("data-running") === "yes") {
            var refresh = document.querySelector("meta[http-equiv=refresh]");
            if (refresh) refresh.parentNode.removeChild(refresh);
            follow();
          }
          form.addEventListener("submit", function (event) {
            var file = document.getElementById("export-file").files[0];
            if (!file || !window.XMLHttpRequest) return;
            event.preventDefault();
            var upload = document.getElementById("upload-progress");
            upload.hidden = false;
            var request = new XMLHttpRequest();
            request.open("POST", "/import");
            request.setRequestHeader("Content-Type", "application/zip");
            request.setRequestHeader("X-CSRF-Token", form.getAttribute("data-csrf"));
            request.upload.onprogress = function (progress) {
              if (progress.lengthComputable) upload.value = Math.round(progress.loaded / progress.total * 100);
            };
            request.onload = function () {
              upload.hidden = true;
              if (request.status === 202) { follow(); return; }
              var page = new DOMParser().parseFromString(request.responseText, "text/html");
              var reason = page.querySelector(".message");
              show(reason ? reason.textContent : "The upload was refused (" + request.status + ").", true);
            };
            request.onerror = function () { upload.hidden = true; show("The upload did not arrive; nothing was imported.", true); };
            request.send(file);
            show("Uploading " + file.name + "…");
          });
        })();

        """

    static let stylesheet = """
        :root { --accent: #d6204e; --text: #1c1c1e; --muted: #6c6c70; --line: #e5e5ea; --panel: #f2f2f7; --good: #248a3d; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: #fff; }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
        header .brand { font-weight: 700; color: var(--accent); text-decoration: none; font-size: 1.2rem; }
        nav { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; flex: 1; }
        nav ul { display: flex; flex-wrap: wrap; gap: .25rem .9rem; list-style: none; margin: 0; padding: 0; flex: 1; }
        nav a { color: var(--text); text-decoration: none; padding: .2rem 0; }
        nav a[aria-current="page"] { color: var(--accent); font-weight: 600; border-bottom: 2px solid var(--accent); }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.8rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
        a { color: #0a60c2; }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #0a60c2; outline-offset: 2px; }
        button, .button { font: inherit; padding: .45rem .9rem; border-radius: .5rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
        button.secondary, .button.secondary { background: #fff; color: var(--accent); }
        button.small { padding: .15rem .5rem; font-size: .85rem; }
        input, select { font: inherit; padding: .4rem; border: 1px solid #c7c7cc; border-radius: .4rem; max-width: 100%; }
        .stack { display: flex; flex-direction: column; gap: .5rem; max-width: 24rem; }
        .row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
        .row label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); }
        .message { background: #fde8ec; border-left: 4px solid var(--accent); padding: .6rem .8rem; }
        .notice { background: var(--panel); border-left: 4px solid var(--good); padding: .6rem .8rem; }
        .muted { color: var(--muted); }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .8rem; padding: 0; list-style: none; }
        .card { background: var(--panel); border-radius: .8rem; padding: .8rem 1rem; }
        .card a { text-decoration: none; color: inherit; display: block; }
        .card .figure { font-size: 1.6rem; font-weight: 600; }
        .card .type { color: var(--accent); font-weight: 600; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-weight: 600; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        .table-wrap { overflow-x: auto; }
        .tabs { display: flex; gap: .3rem; list-style: none; padding: 0; margin: .5rem 0; }
        .tabs a { display: inline-block; padding: .25rem .8rem; border-radius: 1rem; background: var(--panel); color: var(--text); text-decoration: none; }
        .tabs a[aria-current="page"] { background: var(--accent); color: #fff; }
        .pager { display: flex; justify-content: space-between; gap: 1rem; margin: .8rem 0; }
        svg.chart { width: 100%; height: auto; display: block; background: #fff; }
        svg.chart .grid { stroke: var(--line); stroke-width: 1; }
        svg.chart .axis { fill: var(--muted); font-size: 11px; }
        svg.chart .bar { fill: var(--accent); }
        svg.chart .band { fill: #f4a3b6; }
        svg.chart .average { fill: none; stroke: var(--accent); stroke-width: 2; }
        fieldset { border: 1px solid var(--line); border-radius: .6rem; margin: 1rem 0; padding: .6rem 1rem; }
        legend { font-weight: 600; padding: 0 .3rem; }
        .switches { list-style: none; padding: 0; margin: 0; }
        .switches li { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .4rem 0; border-bottom: 1px solid var(--line); }
        .switches input[type="checkbox"] { width: 1.3rem; height: 1.3rem; accent-color: var(--good); }
        .usage { background: var(--panel); border-radius: .6rem; padding: .6rem .8rem; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; }
        form.signout { margin: 0; }
        form.signout button { background: #fff; color: var(--accent); padding: .2rem .6rem; }
        form.inline { display: inline; }
        pre.fhir { background: var(--panel); border-radius: .6rem; padding: .8rem; overflow-x: auto; font-size: .85rem; }
        .signed { font-size: .8rem; color: var(--muted); }
        .signed.verified { color: var(--good); }
        .signed.altered { color: var(--accent); font-weight: 600; }
        .skip { position: absolute; left: -999px; top: .5rem; background: #fff; padding: .4rem .8rem; z-index: 10; }
        .skip:focus { left: .5rem; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .figure { font-size: 1.3rem; font-weight: 600; }
        dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
        dl.figures dt { color: var(--muted); }
        dl.figures dd { margin: 0; }
        svg.rings { flex: none; }
        .ring-card { display: flex; gap: 1rem; align-items: center; }
        svg.rings .ring-track { fill: none; opacity: .2; }
        svg.rings .ring { fill: none; stroke-linecap: round; }
        svg.rings .move { stroke: #fa114f; }
        svg.rings .exercise { stroke: #7fd600; }
        svg.rings .stand { stroke: #00c7e0; }
        .move-text { color: #d10c42; }
        .exercise-text { color: #4e8a00; }
        .stand-text { color: #00879a; }
        svg.route { width: 100%; max-width: 40rem; height: auto; display: block; }
        svg.route .route-ground { fill: #eef3ee; }
        svg.route .route-line { fill: none; stroke: var(--accent); stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; }
        svg.route .route-start { fill: var(--good); }
        svg.route .route-end { fill: var(--text); }
        svg.chart .sleep.awake { fill: #ff9f0a; }
        svg.chart .sleep.rem { fill: #5ac8fa; }
        svg.chart .sleep.core { fill: #0a84ff; }
        svg.chart .sleep.deep { fill: #3634a3; }
        svg.chart .sleep.asleep { fill: #5e5ce6; }
        svg.chart .sleep.inbed { fill: #c7c7cc; }
        @media (max-width: 40rem) {
          header { padding: .5rem .6rem; position: relative; }
          nav { order: 3; flex-basis: 100%; min-width: 0; }
          nav ul { flex-wrap: nowrap; overflow-x: auto; gap: .9rem; padding-bottom: .2rem; min-width: 0; }
          nav li { flex: none; }
          form.signout { position: absolute; top: .5rem; right: .6rem; }
          svg.chart .axis { font-size: 18px; }
          svg.sleep-timeline .axis { font-size: 13px; }
          main { padding: .6rem; }
          h1 { font-size: 1.5rem; }
          th, td { padding: .3rem; }
          .hide-narrow { display: none; }
        }

        """
}
