#!/usr/bin/env python3
"""Times `notetaker serve`'s page in headless Chromium: navigation start to the app's
'notetaker-ready' mark (the sidebar and the first page of the list drawn); or, with --type,
typing in the note the URL opens: each character from the key to the frame that paints it.

Usage: bench-page.py URL TIMES [--type] [--unthrottled] — URL is the address `notetaker serve`
prints (with its `?token=`): the first, uncounted load trades the key for the app's cookie, and
the counted loads use the address without it. Prints a JSON list of milliseconds
(with --type, an object: "paint", key to paint, and "work", the key's handlers and layout);
exits 3 when Chromium, chromedriver or selenium is missing (notetaker-bench then skips the
measure). With --unthrottled, Chromium draws a frame as soon as one is asked for instead of at
the display's next refresh (60 Hz: a key waits up to 16.7 ms for it, whatever the page does),
so key to paint is the page's own part of the delay.
"""
import json
import re
import shutil
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit(3)

driver_path = shutil.which("chromedriver")
if driver_path is None or (shutil.which("chromium") is None and shutil.which("chromium-browser") is None):
    sys.exit(3)

url, times = sys.argv[1], int(sys.argv[2])
typing = "--type" in sys.argv[3:]
unthrottled = "--unthrottled" in sys.argv[3:]

# Each character as a key sends it to the editor (its `beforeinput` event, which the editor
# applies to the text and draws, then its input event and the page's handlers), timed until
# the frame after it is painted.
TYPE = """
const [count, done] = [arguments[0], arguments[arguments.length - 1]];
const area = document.getElementById('note-body');
area.focus();
area.setSelectionRange(area.value.length, area.value.length);
const samples = { paint: [], work: [] };
function step() {
  if (samples.paint.length === count) return done(samples);
  // Keys come at any moment of a frame, as a person types them.
  setTimeout(() => {
    const start = performance.now();
    const data = samples.paint.length % 8 === 7 ? ' ' : 'a';
    area.dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertText', data, bubbles: true, cancelable: true }));
    // The key's own work: the handlers, then the layout of the text.
    void area.scrollHeight;
    samples.work.push(performance.now() - start);
    requestAnimationFrame(() => setTimeout(() => { samples.paint.push(performance.now() - start); step(); }, 0));
  }, Math.random() * 16);
}
step();
"""
options = Options()
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1366,900"):
    options.add_argument(argument)
if unthrottled:
    options.add_argument("--disable-gpu-vsync")
    options.add_argument("--disable-frame-rate-limit")
driver = webdriver.Chrome(service=Service(driver_path), options=options)
samples = []
try:
    driver.get(url)  # a first load warms the browser itself and takes the key; it is not counted
    url = re.sub(r"\?token=[^#&]*", "", url)
    if typing:
        driver.set_script_timeout(120)
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(
            "const area = document.getElementById('note-body'); return area !== null && area.value.length > 0"))
        driver.execute_async_script(TYPE, 20)  # warming up: not counted
        samples = driver.execute_async_script(TYPE, times)
    for _ in range(0 if typing else times):
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return performance.getEntriesByName('notetaker-ready').length > 0"))
        samples.append(driver.execute_script("return performance.getEntriesByName('notetaker-ready')[0].startTime"))
finally:
    driver.quit()
print(json.dumps(samples))
