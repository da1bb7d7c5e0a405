"""End-to-end tests of `notetaker serve` in a real headless Chromium.

Each test gets its own store in a temporary directory, the real `notetaker` executable
serving it on a free loopback port, and a fresh browser. `NOTETAKER_BIN` points at the
executables' folder (default: .build/debug). Screenshots go to docs/screenshots.
"""
import json
import os
import re
import signal
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import ElementNotInteractableException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("NOTETAKER_BIN", ROOT / ".build" / "debug"))
# The README's screenshots: written to docs/screenshots only by scripts/screenshots (which sets
# NOTETAKER_SCREENSHOTS); otherwise outside the tree, so a test run leaves it as it was.
SCREENSHOTS = Path(os.environ.get("NOTETAKER_SCREENSHOTS", ROOT / ".build" / "screenshots"))


def pytest_configure(config):
    config.addinivalue_line("markers", "screenshots: takes a screenshot for the README (scripts/screenshots runs these)")


class App:
    """A store, the `notetaker` command line over it, and `notetaker serve` on it."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.store = directory / "NoteTaker.sqlite"
        self.process = None
        self.url = None
        self.entry = None
        self.key = None

    def run_cli(self, *arguments, stdin=None):
        """Runs `notetaker` on this store; its result, whether it succeeded or not."""
        return subprocess.run(
            [str(BIN / "notetaker"), "--store", str(self.store), *arguments],
            input=stdin, capture_output=True, text=True, timeout=60)

    def cli(self, *arguments, stdin=None):
        result = self.run_cli(*arguments, stdin=stdin)
        assert result.returncode == 0, f"notetaker {' '.join(arguments)} failed: {result.stderr}"
        return result.stdout

    def cli_json(self, *arguments):
        return json.loads(self.cli(*arguments, "--json"))

    def new_note(self, title, body="", *options):
        return self.cli_json("new", title, "--body", body, *options)["id"]

    def start(self, port=0, *options):
        self.process = subprocess.Popen(
            [str(BIN / "notetaker"), "--store", str(self.store), "serve", "--port", str(port), *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        said = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            said.append(line)
            match = re.search(r"running at (http://127\.0\.0\.1:\d+/)\?token=([A-Za-z0-9_-]+) ", line)
            if match:
                self.url, self.key = match.group(1), match.group(2)
                self.entry = f"{self.url}?token={self.key}"
                return self
            if not line and self.process.poll() is not None:
                break
        raise AssertionError(f"notetaker serve did not start: {''.join(said)[-2000:]}")

    def stop(self):
        """Stops the app as a person does, with Ctrl-C: it must end cleanly, logging no error."""
        if self.process and self.process.poll() is None:
            stop_cleanly(self.process, "notetaker serve")


@pytest.fixture
def app():
    directory = Path(tempfile.mkdtemp(prefix="notetaker-web-"))
    instance = App(directory)
    yield instance
    instance.stop()
    shutil.rmtree(directory, ignore_errors=True)


def make_browser(width=1366, height=900, phone=False, language="en-US", text_size=16):
    """A headless Chromium: its window, a phone's touch screen, the reader's languages, and
    their text size (Settings → Appearance → Font size: 16 px unless asked)."""
    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}", f"--lang={language}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language, "webkit.webprefs.default_font_size": text_size})
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(0)
    return driver


def start_sync_server(data, port=0, *options):
    """A real notetaker-server on `data` and a loopback port (a free one unless given), with
    further `options` (--tls-cert…): the process and its address."""
    # --log-level warning: a line per request (or failed log-in) would fill the pipe nobody reads after the start.
    process = subprocess.Popen([str(BIN / "notetaker-server"), "--data", str(data), "--port", str(port), "--log-level", "warning", *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline:
        match = re.search(r"listening on (https?://\S+)", process.stderr.readline())
        url = match.group(1) if match else None
    assert url, "notetaker-server did not start"
    return process, url


@pytest.fixture
def sync_server():
    """A real notetaker-server on a free loopback port, on a fresh data folder; its address."""
    data = Path(tempfile.mkdtemp(prefix="notetaker-server-"))
    process, url = start_sync_server(data)
    yield url
    stop_cleanly(process, "notetaker-server")
    shutil.rmtree(data, ignore_errors=True)


def stop_cleanly(process, name):
    """Interrupts a server (SIGINT, as Ctrl-C) and checks it exits at once, with status 0 and
    no error-level log line (the log's level follows the time stamp)."""
    process.send_signal(signal.SIGINT)
    try:
        output, errors = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"{name} did not stop within 20 s of Ctrl-C")
    lines = ((output or "") + (errors or "")).splitlines()
    logged = [line for line in lines if re.search(r"^\S+ (error|critical) ", line)]
    assert not logged, f"{name} logged errors on Ctrl-C: {logged}"
    assert process.returncode == 0, f"{name} exited with status {process.returncode} on Ctrl-C: {lines[-5:]}"


@pytest.fixture
def browser():
    driver = make_browser()
    yield driver
    driver.quit()


def wait(browser, condition, timeout=10, message=""):
    ignored = (StaleElementReferenceException, NoSuchElementException, ElementNotInteractableException)
    return WebDriverWait(browser, timeout, ignored_exceptions=ignored).until(lambda driver: condition(driver), message)


def open_app(browser, app, hash_=""):
    """Loads the app by the address `serve` printed (the key trades itself for a cookie) and
    waits until it has drawn its first screen."""
    browser.get(app.entry + hash_)
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), message="the app never became ready")
    wait(browser, lambda d: d.execute_script("return document.body.dataset.live === 'true'"), message="the live connection never opened")


def screenshot(browser, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def answer(browser, choose, message="the app did not ask"):
    """Waits for the app's own question (its dialog, not the browser's), chooses its action
    (`choose` True) or Cancel, and returns the question's text."""
    dialog = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.ask[open]"), message=message)[0]
    question = dialog.find_element(By.ID, "ask-question").text
    dialog.find_element(By.ID, "ask-confirm" if choose else "ask-cancel").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.ask"), message="the question stayed open")
    return question


def by_css(browser, selector):
    return browser.find_element(By.CSS_SELECTOR, selector)


def text_of(browser, selector):
    """An element's text, finding it again if a live update redrew it between finding and
    reading (Settings redraws as sync reports, for one)."""
    return wait(browser, lambda driver: [by_css(driver, selector).text])[0]


def page_errors(browser):
    """Script errors and content-security-policy violations the browser logged."""
    return [entry["message"] for entry in browser.get_log("browser")
            if entry["level"] == "SEVERE" or "Content Security Policy" in entry["message"]]


def click(browser, selector):
    """Clicks an element, finding it again if a live update redrew it meanwhile."""
    def attempt(driver):
        by_css(driver, selector).click()
        return True
    wait(browser, attempt, message=f"cannot click {selector}")
