#!/usr/bin/env python3
"""The web Health app end to end, in a real headless browser (Debian's chromium, driven by selenium through
chromium-driver), as the person uses it while an app waits on its authorization request.

    web_e2e.py BASE_URL SETUP_CODE SCREENSHOTS --steps N [--app-name NAME] [--bundle-id ID] [options]

BASE_URL is the daemon's loopback listener (http://127.0.0.1:PORT) on a store with no passphrase yet; SETUP_CODE the
code `health serve` prints in its first-run address. An app (NAME, ID) must be asking, or about to ask, for access to
write Step Count and to read Step Count and Heart Rate, and save a sample of N steps once step writing is allowed
(`step-counter authorize N`: Tests/HealthServerTests/WebBrowserTests.swift runs both). Run through
Scripts/web_e2e.sh, which keeps selenium in .build-venv/selenium.

What it does, as a person would (clicking links, labels and buttons, typing, pressing keys), checking each step:
 1. opens /setup?code=…, types the passphrase twice and lands signed in on the Summary (an HttpOnly, SameSite=Strict
    session cookie);
 2. goes to Requests and waits (reloading, up to --wait seconds) until the app's request is listed, and opens it;
 3. checks the sheet names the app and lists Step Count (to write) and Heart Rate and Step Count (to read), all off;
    switches on writing Step Count with the mouse (its label) and reading Step Count with the keyboard (Tab to it,
    Space), leaves Heart Rate off, and clicks Allow: the request is no longer listed;
 4. waits for the Step Count card on the Summary (the app's sample), opens it, picks the Day span and checks the SVG
    chart has a bar (rect.bar) whose <title> gives the N steps (or, when the sample straddles an hour, bars that add up
    to N) and the samples table lists it from the app;
 5. visits Sources, Access log (the app's save is logged) and Deliveries;
 6. signs out, checks a page then redirects to sign-in, and signs in again back to that page.

It saves a full-page screenshot of each main page into SCREENSHOTS (setup, summary, requests, the sheet, the type page
with its chart, sources, access log, deliveries, sign-in) at desktop width (1280 px), and the Summary, the sheet and
the type page at phone width (390 px); on a failure also failure.png and failure.html (the page as the browser had
it). It reports pages wider than a phone's screen and errors in the browser's console (a Content-Security-Policy
violation, a failed load).

Prints each check as it passes; exits 1 with a message saying what failed, 2 when the browser cannot be started.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time
import base64
from urllib.parse import urlparse, parse_qs

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

STEP_COUNT = "HKQuantityTypeIdentifierStepCount"
HEART_RATE = "HKQuantityTypeIdentifierHeartRate"
DESKTOP_WIDTH = 1280
PHONE_WIDTH = 390
# How long a page may take to come: generous, for a loaded CI machine (signing in derives scrypt, slow in a debug build).
PAGE_WAIT = 45.0


class CheckFailed(Exception):
    """A check that did not hold: the message says what was expected and what the page showed."""


def ok(message):
    print(f"ok: {message}", flush=True)


def q(text):
    """Text from a page, quoted as it reads."""
    return "“" + str(text) + "”"


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


class Browser:
    """The driven browser, with the waits and screenshots the run needs."""

    def __init__(self, args):
        self.args = args
        self.base = args.base_url.rstrip("/")
        self.folder = args.screenshots
        self.console_errors = []
        self.warnings = []
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={DESKTOP_WIDTH},900", "--lang=en-US", "--no-first-run", "--no-default-browser-check",
                         "--disable-extensions", "--disable-background-networking", "--disable-sync",
                         "--disable-component-update", "--hide-scrollbars"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(args.chromedriver, log_output=subprocess.DEVNULL)
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(30)

    def quit(self):
        try:
            self.driver.quit()
        except Exception:  # the browser may already be gone
            pass

    # Where the browser is.

    @property
    def path(self):
        return urlparse(self.driver.current_url).path

    @property
    def query(self):
        return parse_qs(urlparse(self.driver.current_url).query)

    @property
    def title(self):
        return self.driver.title

    def main_text(self):
        return self.driver.find_element(By.TAG_NAME, "main").text

    def where(self):
        try:
            return f"(at {self.driver.current_url}, titled {self.title!r})"
        except Exception:  # the browser went away
            return "(the browser does not answer)"

    # Waiting, as a person waits for a page.

    def wait(self, condition, what, timeout=PAGE_WAIT):
        """Polls `condition` until it gives something truthy, which it returns."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = condition()
                if value:
                    return value
            except (StaleElementReferenceException, WebDriverException) as error:
                if time.monotonic() >= deadline:
                    raise CheckFailed(f"waiting for {what}: {error.__class__.__name__}: {error}") from error
            if time.monotonic() >= deadline:
                raise CheckFailed(f"waited {timeout:.0f} s for {what}, in vain {self.where()}")
            time.sleep(0.1)

    def wait_for_title(self, title, timeout=PAGE_WAIT):
        """Waits until the page is `title` (scrypt makes signing in take a second or two in a debug build)."""
        expected = f"{title} — Health"
        self.wait(lambda: self.title == expected and self.ready(), f"the page {expected!r}", timeout)

    def ready(self):
        return self.driver.execute_script("return document.readyState") == "complete"

    def navigating(self, action, title, timeout=PAGE_WAIT):
        """Does `action` (a click, a key), then waits for the new page to load and be `title`."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        action()

        def gone():
            try:
                old.is_enabled()
                return False
            except StaleElementReferenceException:
                return True

        self.wait(gone, f"the page after {self.title!r} to go", timeout)
        self.wait_for_title(title, timeout)
        self.collect_console()

    def open(self, path, title):
        self.driver.get(self.base + path)
        self.wait_for_title(title)
        self.collect_console()

    def click(self, element):
        """A mouse click: the pointer moves to the element and clicks it."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        ActionChains(self.driver).move_to_element(element).click().perform()

    def nav(self, section):
        """The navigation link of a section (Summary, Requests, …)."""
        return self.driver.find_element(By.XPATH, f"//nav//a[normalize-space()='{section}']")

    def go_to_section(self, section, title=None):
        self.navigating(lambda: self.click(self.nav(section)), title or section)
        current = self.driver.find_element(By.CSS_SELECTOR, "nav a[aria-current='page']").text
        check(current == section, f"the navigation marks {current!r} as the current section on {section} {self.where()}")

    # What the browser says.

    def collect_console(self):
        """Errors the page logged (a Content-Security-Policy violation, a failed load), except the favicon's 404."""
        try:
            entries = self.driver.get_log("browser")
        except WebDriverException:
            return
        for entry in entries:
            message = entry.get("message", "")
            if entry.get("level") == "SEVERE" and "favicon.ico" not in message:
                self.console_errors.append(f"{self.path}: {message}")

    # Screenshots.

    def shoot(self, name, width=DESKTOP_WIDTH, phone=False):
        """A screenshot of the whole page (not only the window) at `width`, as a phone shows it with `phone`; warns when
        the page is wider than that."""
        driver = self.driver
        scale = 2 if phone else 1
        metrics = {"width": width, "height": 800, "deviceScaleFactor": scale, "mobile": phone}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        try:
            time.sleep(0.1)
            height = driver.execute_script(
                "return Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)")
            overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 0:
                culprits = driver.execute_script("""
                    const width = document.documentElement.clientWidth, found = [];
                    for (const element of document.querySelectorAll('body *')) {
                      const box = element.getBoundingClientRect();
                      if (box.right > width + 1 && !element.closest('.table-wrap')) {
                        found.push(element.tagName.toLowerCase() + (element.className && typeof element.className === 'string'
                          ? '.' + element.className.trim().split(/\\s+/).join('.') : '') + ' (to ' + Math.round(box.right) + ' px)');
                      }
                    }
                    return found.slice(0, 6);""")
                self.warnings.append(f"{name}: at {width} px the page is {overflow} px wider than the window "
                                     f"(it scrolls sideways); widest: {', '.join(culprits) or 'inside a scrolling table'}")
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics, height=max(int(height), 400)))
            time.sleep(0.1)
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
            path = os.path.join(self.folder, f"{name}.png")
            with open(path, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        print(f"screenshot: {path} ({width} px wide{', as a phone' if phone else ''})", flush=True)

    def record_failure(self):
        """What the browser showed when a check failed: a screenshot and the page's markup."""
        try:
            self.driver.save_screenshot(os.path.join(self.folder, "failure.png"))
            with open(os.path.join(self.folder, "failure.html"), "w", encoding="utf-8") as file:
                file.write(self.driver.page_source)
            print(f"the page when it failed: {self.where()}; failure.png and failure.html in {self.folder}", file=sys.stderr)
            print("its text:\n" + self.driver.find_element(By.TAG_NAME, "body").text[:3000], file=sys.stderr)
        except Exception as error:  # the browser may be what failed
            print(f"(could not record the page: {error})", file=sys.stderr)


def bar_values(browser):
    """The figures of the chart's bars, from each bar's <title> ("1:00 PM: 4,321 steps")."""
    titles = browser.driver.execute_script(
        "return Array.from(document.querySelectorAll('svg.chart rect.bar')).map(bar => "
        "(bar.querySelector('title') || {textContent: ''}).textContent)")
    values = []
    for title in titles:
        match = re.search(r":\s*(-?[\d,]+(?:\.\d+)?)\s+steps\s*$", title)
        check(match, f"a bar's title {title!r} gives no figure in steps")
        values.append((title, float(match.group(1).replace(",", ""))))
    return values


def figure(value):
    """A figure as the pages show it (4,321; 2.5)."""
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def run(browser, args):
    app, bundle, steps = args.app_name, args.bundle_id, args.steps
    steps_text = figure(steps)
    driver = browser.driver

    # 1. The first run: the passphrase, twice; signed in on the Summary.
    browser.open(f"/setup?code={args.setup_code}", "Welcome to Health")
    check(not driver.find_elements(By.TAG_NAME, "nav"), f"the first-run page shows the signed-in navigation {browser.where()}")
    ok("the first-run page asks for a passphrase (no navigation while signed out)")
    browser.shoot("01-setup")
    passphrase = driver.find_element(By.ID, "passphrase")
    check(passphrase.get_attribute("type") == "password", "the passphrase field is not a password field")
    check(driver.switch_to.active_element == passphrase, "the passphrase field does not have the focus on the first-run page")
    passphrase.send_keys(args.passphrase)
    driver.find_element(By.ID, "repeat").send_keys(args.passphrase)
    browser.navigating(lambda: browser.click(driver.find_element(By.CSS_SELECTOR, "form button[type=submit]")), "Summary")
    check(browser.path == "/", f"setting the passphrase leads to {browser.path}, not the Summary")
    cookie = driver.get_cookie("health_session")
    check(cookie is not None, f"no health_session cookie after setting the passphrase (cookies: {driver.get_cookies()})")
    check(cookie.get("httpOnly") is True, f"the session cookie is not HttpOnly: {cookie}")
    check(cookie.get("sameSite") == "Strict", f"the session cookie is not SameSite=Strict: {cookie}")
    check(cookie.get("path") == "/", f"the session cookie is not for the whole site: {cookie}")
    ok("setting the passphrase signs in: the Summary, with an HttpOnly, SameSite=Strict session cookie")
    check(driver.find_elements(By.XPATH, "//nav//button[normalize-space()='Sign out']"), "no Sign out button once signed in")

    # 2. Requests: the app's request, once it arrives.
    browser.go_to_section("Requests")

    def listed():
        links = [link for link in driver.find_elements(By.CSS_SELECTOR, "main a[href^='/requests/']") if link.text == app]
        if links:
            return links[0]
        driver.refresh()
        browser.wait(browser.ready, "the Requests page to reload")
        return None

    link = browser.wait(listed, f"{app}'s request to be listed on Requests", timeout=args.wait)
    item = link.find_element(By.XPATH, "./..").text
    check("asks for 2 types" in item, f"the request is listed as {item!r}, not as asking for 2 types (Step Count, Heart Rate)")
    ok(f"Requests lists the app's request: {q(item)}")
    browser.shoot("02-requests")
    browser.navigating(lambda: browser.click(link), f"“{app}” would like to access your health data")

    # 3. The sheet.
    heading = driver.find_element(By.TAG_NAME, "h1").text
    check(app in heading, f"the sheet's heading {heading!r} does not name {app}")
    check(bundle in browser.main_text(), f"the sheet does not show the app's bundle identifier {bundle}")
    switches = {box.get_attribute("id"): box for box in driver.find_elements(By.CSS_SELECTOR, "main input[type=checkbox]")}
    expected = {f"share-{STEP_COUNT}": "Step Count", f"read-{STEP_COUNT}": "Step Count", f"read-{HEART_RATE}": "Heart Rate"}
    check(set(switches) == set(expected), f"the sheet's switches are {sorted(switches)}, not {sorted(expected)}")
    for identifier, name in expected.items():
        label = driver.find_element(By.CSS_SELECTOR, f"label[for='{identifier}']")
        check(label.text.strip() == name, f"the switch {identifier} is labelled {label.text!r}, not {name!r}")
        check(not switches[identifier].is_selected(), f"the switch {identifier} is on before the person touched it")
    legends = [legend.text for legend in driver.find_elements(By.TAG_NAME, "legend")]
    check(legends == [f"Allow “{app}” to write data", f"Allow “{app}” to read data"], f"the sheet's sections are {legends}")
    ok(f"the sheet names {app} ({bundle}) and lists Step Count to write, Heart Rate and Step Count to read, all off")

    # Writing steps with the mouse, on the switch's label.
    browser.click(driver.find_element(By.CSS_SELECTOR, f"label[for='share-{STEP_COUNT}']"))
    check(switches[f"share-{STEP_COUNT}"].is_selected(), "clicking the label Step Count (write) did not switch it on")
    ok("clicking the label of Step Count (write) switches it on")
    # Reading steps with the keyboard: Tab until the switch has the focus, then Space.
    target = f"read-{STEP_COUNT}"
    for _ in range(12):
        if driver.switch_to.active_element.get_attribute("id") == target:
            break
        ActionChains(driver).send_keys(Keys.TAB).perform()
    focused = driver.switch_to.active_element.get_attribute("id")
    check(focused == target, f"pressing Tab never reached the switch {target} (the focus is on {focused!r})")
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    check(switches[target].is_selected(), "pressing Space on Step Count (read) did not switch it on")
    check(not switches[f"read-{HEART_RATE}"].is_selected(), "Heart Rate (read) is on though the person left it off")
    ok("Tab reaches Step Count (read) and Space switches it on; Heart Rate stays off")
    browser.shoot("03-sheet")
    browser.shoot("03-sheet-phone", PHONE_WIDTH, phone=True)
    allow = driver.find_element(By.XPATH, "//button[@name='action' and @value='allow']")
    check(allow.text == "Allow", f"the Allow button says {allow.text!r}")
    browser.navigating(lambda: browser.click(allow), "Requests")
    check(browser.query.get("done") == ["answered"], f"Allow leads to {driver.current_url}, not to /requests?done=answered")
    check(not [a for a in driver.find_elements(By.CSS_SELECTOR, "main a[href^='/requests/']") if a.text == app],
          "the request is still listed after Allow")
    check("No app is waiting for an answer." in browser.main_text(), f"Requests after Allow says {browser.main_text()!r}")
    ok("Allow answers the request: Requests lists no app waiting")

    # 4. The app's sample on the Summary, and in the type's chart.
    browser.go_to_section("Summary")

    def card():
        cards = [c for c in driver.find_elements(By.CSS_SELECTOR, "main .card") if c.find_element(By.CSS_SELECTOR, ".type").text == "Step Count"]
        if cards:
            return cards[0]
        driver.refresh()
        browser.wait(browser.ready, "the Summary to reload")
        return None

    steps_card = browser.wait(card, "the Step Count card on the Summary (the app's saved sample)", timeout=args.wait)
    card_text = steps_card.text.replace("\n", " | ")
    check("total on" in card_text, f"the Step Count card says {card_text!r}, not its last day's total")
    if f"{steps_text} steps" in card_text:
        ok(f"the Summary has a Step Count card: {q(card_text)}")
    else:  # the app's ten minutes straddled midnight: the last day holds only part of it
        ok(f"the Summary has a Step Count card: {q(card_text)} (the sample straddles midnight: part of {steps_text} on its last day)")
    browser.shoot("04-summary")
    browser.shoot("04-summary-phone", PHONE_WIDTH, phone=True)

    browser.navigating(lambda: browser.click(steps_card.find_element(By.TAG_NAME, "a")), "Step Count")
    check(browser.path == f"/types/{STEP_COUNT}", f"the Step Count card leads to {browser.path}")
    day_tab = driver.find_element(By.XPATH, "//ul[contains(@class,'tabs')]//a[normalize-space()='Day']")
    browser.navigating(lambda: browser.click(day_tab), "Step Count")
    check(browser.query.get("span") == ["day"] and "date" in browser.query, f"the Day tab leads to {driver.current_url}")
    day = browser.query["date"][0]
    check(driver.find_elements(By.CSS_SELECTOR, "svg.chart"), "the type page has no svg.chart")
    bars = bar_values(browser)
    check(bars, f"the day chart of {day} has no bar (rect.bar)")
    whole = [title for title, value in bars if abs(value - steps) < 0.005]
    if whole:
        ok(f"the day chart of {day} has a bar titled {q(whole[0])}")
    else:
        # The app saved its steps over the ten minutes before now: across an hour (or midnight) they are prorated.
        total = sum(value for _, value in bars)
        if total < steps - 0.05:
            earlier = driver.find_element(By.XPATH, "//div[contains(@class,'pager')]//a[contains(., 'Earlier')]")
            browser.navigating(lambda: browser.click(earlier), "Step Count")
            total += sum(value for _, value in bar_values(browser))
            browser.driver.back()
            browser.wait_for_title("Step Count")
        check(abs(total - steps) < 0.05, f"the chart's bars {[t for t, _ in bars]} add up to {figure(total)}, not {steps_text}")
        ok(f"the day chart's bars {', '.join(q(t) for t, _ in bars)} add up to {steps_text} (the sample straddles an hour)")
    chart_title = driver.find_element(By.CSS_SELECTOR, "svg.chart > title").get_attribute("textContent")
    check(chart_title == "Step Count", f"the chart is titled {chart_title!r}")
    rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "main table tbody tr")]
    check(any(f"{steps_text} steps" in row and app in row for row in rows),
          f"the samples table does not list {steps_text} steps from {app}: {rows}")
    ok(f"the samples table lists the sample: {q([r for r in rows if app in r][0])}")
    browser.shoot("05-type-day")
    browser.shoot("05-type-day-phone", PHONE_WIDTH, phone=True)

    # 5. Sources, Access log, Deliveries.
    browser.go_to_section("Sources")
    text = browser.main_text()
    check(app in text and bundle in text, f"Sources does not list {app} ({bundle}): {text!r}")
    permissions = driver.find_elements(By.XPATH, f"//main//a[normalize-space()='{app}']/..")
    # Step Count (to write and to read) is allowed, Heart Rate is not.
    check(permissions and "1 of 2 types allowed" in permissions[0].text,
          f"Sources does not say {app} is allowed 1 of its 2 types: {[p.text for p in permissions]}")
    ok(f"Sources lists {app}: {q(permissions[0].text)}")
    browser.shoot("06-sources")

    browser.go_to_section("Access log")

    def logged():
        rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "main table tbody tr")]
        saves = [row for row in rows if (bundle in row or app in row) and "Step Count" in row]
        if saves:
            return saves
        driver.refresh()
        browser.wait(browser.ready, "the Access log to reload")
        return None

    saves = browser.wait(logged, f"the access log to record {app}'s save of Step Count", timeout=PAGE_WAIT)
    ok(f"the access log records the app's call: {q(saves[0])}")
    browser.shoot("07-access-log")

    browser.go_to_section("Deliveries")
    ok(f"Deliveries shows: {q(browser.main_text().splitlines()[-1])}")
    browser.shoot("08-deliveries")

    # 6. Signing out, and back in.
    sign_out = driver.find_element(By.XPATH, "//nav//button[normalize-space()='Sign out']")
    browser.navigating(lambda: browser.click(sign_out), "Sign in")
    check(driver.get_cookie("health_session") is None, f"the session cookie is still set after signing out: {driver.get_cookie('health_session')}")
    ok("Sign out leads to the sign-in page and removes the session cookie")
    browser.open("/requests", "Sign in")
    check(browser.path == "/signin" and browser.query.get("next") == ["/requests"],
          f"a page opened signed out leads to {driver.current_url}, not /signin?next=/requests")
    check(not driver.find_elements(By.TAG_NAME, "nav"), "the sign-in page shows the signed-in navigation")
    ok("signed out, /requests redirects to /signin?next=/requests")
    browser.shoot("09-signin")
    field = driver.find_element(By.ID, "passphrase")
    check(driver.switch_to.active_element == field, "the passphrase field does not have the focus on the sign-in page")
    field.send_keys(args.passphrase)
    browser.navigating(lambda: ActionChains(driver).send_keys(Keys.ENTER).perform(), "Requests")
    check(browser.path == "/requests", f"signing in leads to {browser.path}, not back to /requests")
    ok("signing in again (Enter in the passphrase field) leads back to /requests")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base_url", help="the daemon's web app, http://127.0.0.1:PORT")
    parser.add_argument("setup_code", help="the first-run code (in the address `health serve` prints)")
    parser.add_argument("screenshots", help="the folder to save the screenshots in (made if missing)")
    parser.add_argument("--steps", type=float, required=True, help="the steps the app saves once allowed")
    parser.add_argument("--app-name", default="Step Counter", help="the app's name, as its sheet shows it")
    parser.add_argument("--bundle-id", default="com.example.stepcounter", help="the app's bundle identifier")
    parser.add_argument("--passphrase", default="correct horse battery staple", help="the passphrase to set")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for the app's request, and for its sample")
    parser.add_argument("--timeout", type=int, default=240, help="seconds the whole run may take")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    for stale in ("failure.png", "failure.html"):
        if os.path.exists(os.path.join(args.screenshots, stale)):
            os.remove(os.path.join(args.screenshots, stale))

    # Never hangs: a deadline for the whole run, and SIGTERM (the test giving up) closes the browser on the way out.
    def give_up(signum, _frame):
        raise CheckFailed(f"the run took more than {args.timeout} s" if signum == signal.SIGALRM else "terminated (SIGTERM)")
    signal.signal(signal.SIGALRM, give_up)
    signal.signal(signal.SIGTERM, give_up)
    signal.alarm(args.timeout)

    started = time.monotonic()
    try:
        browser = Browser(args)
    except (WebDriverException, OSError, ValueError) as error:
        print(f"web_e2e: FAILED: could not start {args.chromium} through {args.chromedriver}: {error}", file=sys.stderr)
        return 2
    capabilities = browser.driver.capabilities
    print(f"browser: {capabilities.get('browserName')} {capabilities.get('browserVersion')}, "
          f"chromedriver {capabilities.get('chrome', {}).get('chromedriverVersion', '?').split(' ')[0]}", flush=True)
    try:
        run(browser, args)
        browser.collect_console()
        for warning in browser.warnings:
            print(f"WARNING: {warning}", flush=True)
        check(not browser.console_errors, "the browser's console logged errors:\n  " + "\n  ".join(browser.console_errors))
        ok("the browser's console logged no error")
    except CheckFailed as failure:
        signal.alarm(0)
        for warning in browser.warnings:
            print(f"WARNING: {warning}", flush=True)
        print(f"web_e2e: FAILED: {failure}", file=sys.stderr, flush=True)
        browser.record_failure()
        return 1
    except Exception as error:  # a selenium error: an element that is not there, a browser that went away
        signal.alarm(0)
        print(f"web_e2e: FAILED: {error.__class__.__name__}: {error} {browser.where()}", file=sys.stderr, flush=True)
        browser.record_failure()
        return 1
    finally:
        signal.alarm(0)
        browser.quit()
    print(f"web_e2e: passed in {time.monotonic() - started:.1f} s; screenshots in {args.screenshots}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
