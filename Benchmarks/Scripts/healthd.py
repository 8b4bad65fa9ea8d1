"""What the daemon benchmarks share: `health serve` started on a store, and an app connected to it as every app is
(registered, approved by the person, allowed some types, its token claimed)."""
import json
import re
import subprocess
import sys
import urllib.request


class Daemon:
    """`health serve --port 0 --rate-limit 0` on `store`, also on the Unix socket `socket`; `base` is its http:// URL."""

    def __init__(self, health, store, socket):
        self.health, self.store, self.socket = health, store, socket
        self.process = subprocess.Popen([health, "serve", "--store", store, "--socket", socket, "--port", "0", "--rate-limit", "0",
                                         "--log-level", "error"], stdout=subprocess.PIPE, text=True)
        self.base = None
        while self.base is None:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("health serve ended before listening")
            match = re.match(r"Listening on (http://\S+)", line)
            self.base = match.group(1) if match else None

    def post(self, path, body, token=None):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read() or b"{}")

    def connect(self, bundle_identifier, name, permissions):
        """Registers the app, has the person approve it and set `permissions` (`health permission` arguments after the
        app, one list per type), and returns its claimed token."""
        registration = self.post("/v1/registrations", {"CFBundleIdentifier": bundle_identifier, "CFBundleName": name})
        subprocess.run([self.health, "apps", "approve", registration["id"], "--store", self.store], check=True, stdout=subprocess.DEVNULL)
        for arguments in permissions:
            subprocess.run([self.health, "permission", bundle_identifier, *arguments, "--store", self.store], check=True, stdout=subprocess.DEVNULL)
        return self.post(f"/v1/registrations/{registration['id']}/credential", {"secret": registration["secret"]})["token"]

    def stop(self):
        self.process.terminate()
        self.process.wait()
