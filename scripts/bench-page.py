#!/usr/bin/env python3
"""Times `notetaker serve`'s page in headless Chromium: navigation start to the app's
'notetaker-ready' mark (the sidebar and the first page of the list drawn).

Usage: bench-page.py URL TIMES — prints a JSON list of milliseconds; exits 3 when Chromium,
chromedriver or selenium is missing (notetaker-bench then skips the measure).
"""
import json
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
options = Options()
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1366,900"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(driver_path), options=options)
samples = []
try:
    driver.get(url)  # a first load warms the browser itself; it is not counted
    for _ in range(times):
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return performance.getEntriesByName('notetaker-ready').length > 0"))
        samples.append(driver.execute_script("return performance.getEntriesByName('notetaker-ready')[0].startTime"))
finally:
    driver.quit()
print(json.dumps(samples))
