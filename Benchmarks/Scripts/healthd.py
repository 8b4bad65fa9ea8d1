"""What the daemon benchmarks share: `health serve` started on a store, and an app connected to it as every app is
(registered, approved by the person, allowed some types, its token claimed); wrk's batched saves and its figures."""
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


def batched_save_script(token):
    """wrk's Lua for batches of 100 step samples posted to `/v1/objects` as the app holding `token`, with new UUIDs on
    every request (one series per wrk thread), and the `Accept` the remote HKHealthStore's generated client sends."""
    return """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local samples = {}
  for i = 1, 100 do
    samples[i] = string.format('{"uuid":"%08X-0000-4000-8000-%012X","type":"HKQuantityTypeIdentifierStepCount",' ..
      '"startDate":"2026-11-20T10:00:00Z","endDate":"2026-11-20T10:01:00Z","quantity":{"value":%d,"unit":"count"}}',
      tid, counter * 100 + i, i)
  end
  return wrk.format("POST", "/v1/objects", {["Content-Type"] = "application/json", ["Accept"] = "application/problem+json",
    ["Authorization"] = "Bearer TOKEN"},
    '{"samples":[' .. table.concat(samples, ",") .. ']}')
end
""".replace("TOKEN", token)


def wrk(script, url, seconds, connections):
    """Runs wrk (`-t2 --latency`) with the Lua file `script` against `url`; returns (requests/s, p50 ms, p99 ms,
    non-2xx answers)."""
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, url],
                            check=True, capture_output=True, text=True).stdout

    def duration(text):
        value, unit = re.match(r"([\d.]+)(us|ms|s|m)$", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[unit]

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = duration(re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE).group(1))
    p99 = duration(re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, p50, p99, int(errors.group(1)) if errors else 0
