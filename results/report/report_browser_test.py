"""The results report, loaded in a real browser (headless Chromium).

    report_browser_test.py <verify> <make_report.py> <claims.json,...> (<study> <figures.py>)...

Builds a test-scale result set of its own in $TEST_TMPDIR (never a previous
main run): every study given runs at --scale=test, its figure script
(experiments/<study>/figures.py, when there is one) renders its figures,
//results:verify writes verify.csv, and make_report.py writes index.html.
Then Debian's chromium loads the page headless, driven over the DevTools
protocol (--remote-debugging-pipe: NUL-separated JSON on file descriptors 3
and 4; no network, no npm), and the test checks
  - one section per study: the studies run plus any study verify.csv names;
  - every image loaded (complete, naturalWidth > 0), one per PNG figure;
  - the verdict filter: a real mouse click on a verdict count in the summary
    shows exactly the rows of that verdict, as many as the count says; the
    study filter shows only that study's rows; "show all" restores them;
  - sorting: a click on the "verdict" header orders the rows by verdict;
  - no console error, no uncaught exception, no failed load.
A screenshot of the page (report.png) and the page itself are kept in
$TEST_UNDECLARED_OUTPUTS_DIR. Chromium runs with --no-sandbox: it must when
the tests run as root (CI), and the page is a local file this test wrote.
"""
import base64
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from tests import smoke

CHROMIUM = "/usr/bin/chromium"


def make_results(tmp, verify, make_report, claims, pairs):
    raw, figures, tables = (os.path.join(tmp, d) for d in ("raw", "figures", "tables"))
    for d in (raw, figures, tables):
        os.makedirs(d, exist_ok=True)
    studies = []
    for binary, script in pairs:
        study = os.path.basename(binary)
        smoke.expect_ok(smoke.run_at_test_scale(binary, raw, os.path.join(tmp, "parts")), study)
        studies.append(study)
        if script != "-":
            p = subprocess.run(["/usr/bin/python3", script, os.path.join(raw, f"{study}.h5"),
                                figures], capture_output=True, text=True)
            smoke.check(p.returncode == 0, f"{script}: {p.stderr[-500:]}")
    v = subprocess.run([verify, f"--raw_dir={raw}", f"--out_dir={tables}", f"--list={claims}",
                        "--allow_missing"],
                       capture_output=True, text=True)
    smoke.check(v.returncode in (0, 1) and os.path.exists(os.path.join(tables, "verify.csv")),
                f"verify exited {v.returncode}: {v.stderr[-500:]}")
    out = os.path.join(tmp, "report", "index.html")
    r = subprocess.run(["/usr/bin/python3", make_report, f"--raw_dir={raw}",
                        f"--tables_dir={tables}", f"--figures_dir={figures}", f"--out={out}"],
                       capture_output=True, text=True)
    smoke.expect_ok(r, "make_report.py")
    print(r.stdout.strip())
    return out, studies, sorted(glob.glob(os.path.join(figures, "*.png")))


def verify_studies(tables_dir):
    with open(os.path.join(tables_dir, "verify.csv"), newline="", encoding="utf-8") as f:
        return {r["study"] for r in csv.DictReader(f)}


class Browser:
    """Headless Chromium over the DevTools protocol on a pipe (fds 3 and 4)."""

    def __init__(self, tmp):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        profile = tempfile.mkdtemp(dir=tmp, prefix="chromium-profile-")
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                "--disable-background-networking", f"--user-data-dir={profile}",
                "--window-size=1400,1000", "about:blank"]
        env = dict(os.environ, HOME=profile)

        def wire_fds():  # in the child: the pipe ends become fds 3 and 4
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # above 4, whatever they were
            os.dup2(r, 3)
            os.dup2(w, 4)

        self._log = open(os.path.join(tmp, "chromium.log"), "w")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self._log,
                                     stderr=subprocess.STDOUT, env=env,
                                     pass_fds=(3, 4), preexec_fn=wire_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=60):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        reply = self._wait(lambda m: m.get("id") == self._next_id, timeout, method)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_event(self, method, timeout=60):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        return self._wait(lambda m: m.get("method") == method, timeout, method, keep=False)

    def _wait(self, match, timeout, what, keep=True):
        deadline = time.time() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                m = json.loads(raw)
                if match(m):
                    return m
                if "method" in m:
                    self.events.append(m)
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"no answer from chromium to {what} (see chromium.log)")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError(f"chromium closed the pipe waiting for {what}")
            self._buffer += chunk

    def open_page(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def click(self, selector):
        """A real mouse click (Input events) in the middle of the element."""
        box = self.eval(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                        "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                        "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def errors(self):
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(f"exception: {p.get('exceptionDetails', {}).get('text')}")
            elif e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in (
                    "error", "assert"):
                out.append(f"console.{p['type']}: {p.get('args')}")
            elif e.get("method") == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
            elif e.get("method") == "Network.loadingFailed":
                out.append(f"load failed: {p.get('errorText')}")
        return out

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except RuntimeError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


VISIBLE_ROWS = ("Array.from(document.querySelectorAll('#verify-table tbody tr'))"
                ".filter(r => !r.hidden)")


def check_sections(b, expected, run):
    shown = b.eval("Array.from(document.querySelectorAll('section.study'))"
                   ".map(s => s.dataset.study)")
    smoke.check(sorted(shown) == sorted(expected),
                f"study sections {sorted(shown)}, expected {sorted(expected)}")
    rows = b.eval("document.querySelectorAll('#provenance tbody tr').length")
    smoke.check(rows == len(expected), f"provenance table: {rows} rows, {len(expected)} studies")
    closed = b.eval("Array.from(document.querySelectorAll('#verify-table details'))"
                    ".filter(d => !d.open).length")
    smoke.check(closed > 0, "long evidence sits behind closed 'details' toggles")
    for s in run:  # a study verify.csv names but this test did not run has no file
        ok = b.eval(f"!!document.querySelector('section.study[data-study=\"{s}\"] dd"
                    "[data-key=\"git_commit\"]')")
        smoke.check(ok, f"section {s} shows its commit")


def check_images(b, pngs):
    images = b.eval("Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth])")
    smoke.check(len(images) == len(pngs), f"{len(images)} images on the page, {len(pngs)} PNGs")
    for alt, complete, width in images:
        smoke.check(complete and width > 0, f"image {alt} did not load (naturalWidth {width})")
    names = sorted(os.path.basename(p) for p in pngs)
    smoke.check(sorted(i[0] for i in images) == names, "every PNG figure is on the page")


def check_filters(b):
    total = b.eval("document.querySelectorAll('#verify-table tbody tr').length")
    badges = b.eval("Array.from(document.querySelectorAll('.summary-badge'))"
                    ".map(e => [e.dataset.verdict, parseInt(e.querySelector('b').textContent)])")
    smoke.check(total > 0 and badges, f"{total} rows, badges {badges}")
    smoke.check(sum(n for _, n in badges) == total, f"badge counts {badges} sum to {total}")
    for verdict, n in badges:
        b.click(f'.summary-badge[data-verdict="{verdict}"]')
        shown = b.eval(f"{VISIBLE_ROWS}.map(r => r.dataset.verdict)")
        smoke.check(len(shown) == n and set(shown) == {verdict},
                    f"click on '{verdict}' ({n}) shows {len(shown)} rows: {set(shown)}")
        b.click(f'.summary-badge[data-verdict="{verdict}"]')  # a second click clears it
        smoke.check(b.eval(f"{VISIBLE_ROWS}.length") == total, f"'{verdict}' toggles off")
    study = b.eval("document.querySelector('#filter-study option:nth-child(2)').value")
    want = b.eval("document.querySelectorAll('#verify-table tbody tr[data-study=\"%s\"]').length"
                  % study)
    b.eval(f"(() => {{ const s = document.getElementById('filter-study'); s.value = "
           f"{json.dumps(study)}; s.dispatchEvent(new Event('change')); }})()")
    shown = b.eval(f"{VISIBLE_ROWS}.map(r => r.dataset.study)")
    smoke.check(len(shown) == want and set(shown) == {study},
                f"study filter {study}: {len(shown)} rows of {set(shown)}, expected {want}")
    b.click("#filter-reset")
    smoke.check(b.eval(f"{VISIBLE_ROWS}.length") == total, "'show all' restores every row")
    b.click("#verify-table th:nth-child(6)")
    order = b.eval("Array.from(document.querySelectorAll('#verify-table tbody tr'))"
                   ".map(r => r.cells[5].textContent.trim().toLowerCase())")
    smoke.check(order == sorted(order), "a click on 'verdict' sorts the rows by verdict")


def main():
    if len(sys.argv) < 6 or len(sys.argv) % 2:
        raise SystemExit("usage: report_browser_test.py <verify> <make_report.py> "
                         "<claims.json,...> (<study binary> <figures.py or ->)...")
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} is missing (tools/setup.sh installs Debian's chromium)")
    tmp = smoke.out_dir()
    verify, make_report, claims, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    pairs = list(zip(rest[::2], rest[1::2]))
    page, studies, pngs = make_results(tmp, verify, make_report, claims, pairs)
    expected = sorted(set(studies) | verify_studies(os.path.join(tmp, "tables")))
    artefacts = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR") or tmp
    b = Browser(tmp)
    try:
        b.open_page("file://" + os.path.abspath(page))
        check_sections(b, expected, studies)
        check_images(b, pngs)
        check_filters(b)
        b.eval("window.scrollTo(0, 0)")
        shot = b.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(os.path.join(artefacts, "report.png"), "wb") as f:
            f.write(base64.b64decode(shot))
        errors = b.errors()
        smoke.check(not errors, f"browser errors: {errors}")
    finally:
        b.close()
    shutil.copy(page, os.path.join(artefacts, "index.html"))
    print(f"report: {len(expected)} study sections, {len(pngs)} images, screenshot in "
          f"{artefacts}/report.png")
    smoke.finish()


if __name__ == "__main__":
    main()
