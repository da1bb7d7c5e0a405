"""Attachments, hostile Markdown, accessibility (axe-core), the look at phone width, Settings."""
import base64
import struct
import tempfile
import zlib
from pathlib import Path

import pytest
import axe_selenium_python
from selenium.webdriver.common.by import By

from conftest import by_css, click, make_browser, open_app, page_errors, screenshot, wait

AXE = Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def png(width, height):
    """A real grey PNG image of the given size."""
    raw = b"".join(b"\x00" + bytes([200, 200, 200]) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def test_attach_an_image_and_see_it_inline(app, browser):
    note = app.new_note("Photo note", "Look:")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body"))
    image = Path(tempfile.mkdtemp()) / "chart.png"
    image.write_bytes(png(40, 30))
    by_css(browser, "#file-input").send_keys(str(image))
    attachment = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".attachment img"), message="the image was not attached")[0]
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", attachment) == 40)
    wait(browser, lambda d: "chart.png" in by_css(d, ".attachment a[download]").text, message="the attachment is not listed")
    assert "attachment:" in by_css(browser, "#note-body").get_attribute("value"), "the image is placed in the text"
    # And it shows in the text itself, its Markdown hidden while the caret is on another line.
    in_text = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-body img.md-inline-image"), message="the picture is not in the text")[0]
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", in_text) == 40)
    assert not by_css(browser, "#note-body .md-imagelink").is_displayed()
    body = by_css(browser, "#note-body")
    browser.execute_script("arguments[0].setSelectionRange(arguments[1], arguments[1])", body, body.get_attribute("value").index("![") + 3)
    wait(browser, lambda d: by_css(d, "#note-body .md-imagelink").is_displayed(), message="the picture's Markdown does not show on its line")
    by_css(browser, "#preview-toggle").click()
    inline = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview img"))[0]
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", inline) == 40)
    assert len(app.cli_json("attachments", note)) == 1


def test_a_large_photo_is_shown_by_its_thumbnail(app, browser):
    note = app.new_note("Beach day", "Sun")
    photo = Path(tempfile.mkdtemp()) / "beach.png"
    photo.write_bytes(png(1600, 1200))
    app.cli("attach", note, str(photo))
    app.start()
    open_app(browser, app, f"#note={note}")
    thumb = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .note-thumb"), message="the list shows no thumbnail")[0]
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) == 320,
         message="the list's picture is not a 320-pixel thumbnail")
    picture = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".attachment img"), message="the attachment is not shown")[0]
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", picture) == 320)
    assert by_css(browser, ".attachment-picture").get_attribute("href").endswith("/content"), "the thumbnail opens the original"


HOSTILE = """# Hostile

<script>window.__pwned = 'script'</script>
<img src="x" onerror="window.__pwned = 'onerror'">
<svg onload="window.__pwned = 'svg'"><circle r="5"/></svg>
<iframe src="javascript:parent.__pwned = 'iframe'"></iframe>
<style>body { display: none !important; }</style>
<a href="javascript:window.__pwned = 'link'">plain javascript link</a>
<a href="jav&#x09;ascript:window.__pwned = 'entity'">entity link</a>
[markdown link](javascript:window.__pwned='markdown')
[quote trick](https://example.com/"onmouseover="window.__pwned='quote')
<div style="position:fixed;top:0;left:0;width:100%;height:100%;background:#000">overlay</div>
<form action="https://example.com"><input name="q"><button>go</button></form>
"""


def test_hostile_markdown_never_runs(app, browser):
    note = app.new_note("Hostile", HOSTILE)
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body"))
    by_css(browser, "#preview-toggle").click()
    preview = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview h1"))[0].find_element(By.XPATH, "..")
    for link in preview.find_elements(By.CSS_SELECTOR, "a"):
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); arguments[0].click()", link)
    browser.switch_to.window(browser.window_handles[0])
    assert browser.execute_script("return window.__pwned") is None
    for selector in ("script", "iframe", "svg", "style", "form", "[onerror]", "[onload]", "[onmouseover]", "[style]"):
        assert preview.find_elements(By.CSS_SELECTOR, selector) == [], f"{selector} survived sanitizing"
    hrefs = [link.get_attribute("href") or "" for link in preview.find_elements(By.CSS_SELECTOR, "a")]
    assert all(not href.lower().startswith("javascript") for href in hrefs), hrefs
    assert by_css(browser, "body").is_displayed()
    assert "<script>" in preview.text, "the hostile HTML is shown as text"


def axe_violations(browser):
    browser.execute_script(AXE.read_text())
    result = browser.execute_async_script("const done = arguments[arguments.length - 1]; axe.run(document).then(done);")
    return [(violation["id"], violation["impact"], [node["target"] for node in violation["nodes"]][:3])
            for violation in result["violations"] if violation["impact"] in ("serious", "critical")]


def test_no_serious_accessibility_violations(app, browser):
    note = app.new_note("Accessible", "Some **text** and a [link](https://example.com).\n\n- [ ] task", "--tag", "a11y")
    app.cli("folder", "new", "Work")
    app.start()
    screens = {"home": "", "editor": f"#note={note}", "search": "#view=search&q=text", "settings": "#view=settings"}
    for name, route in screens.items():
        open_app(browser, app, route)
        if name == "editor":
            by_css(browser, "#preview-toggle").click()
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview strong"))
        violations = axe_violations(browser)
        assert violations == [], f"{name}: {violations}"
    open_app(browser, app)
    by_css(browser, "#new-folder").click()
    assert axe_violations(browser) == [], "the folder dialog"
    assert page_errors(browser) == []


@pytest.mark.screenshots
def test_settings_show_account_policy_and_statistics(app, browser):
    app.new_note("One", "")
    app.start()
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#account-form"))
    wait(browser, lambda d: by_css(d, "#sync-indicator").text == "Sync off")
    policy = by_css(browser, "input[name='merge-policy'][value='server-wins']")
    policy.click()
    wait(browser, lambda d: app.cli_json("sync", "settings")["mergePolicy"] == "server-wins")
    by_css(browser, "#auto-sync").click()
    wait(browser, lambda d: app.cli_json("sync", "settings")["autoSync"] is False)
    by_css(browser, "#account-server").send_keys("http://127.0.0.1:9")
    by_css(browser, "#account-user").send_keys("nobody")
    by_css(browser, "#account-password").send_keys("secret password")
    by_css(browser, "#log-in").click()
    error = wait(browser, lambda d: by_css(d, "#account-error").text)
    assert "reach" in error.lower() or "connect" in error.lower(), error
    assert app.cli_json("sync", "settings")["serverURL"] is None, "a failed log-in changes nothing"
    screenshot(browser, "settings")


@pytest.mark.screenshots
def test_usable_at_phone_width(app):
    note = app.new_note("Small screen", "Readable on a phone.")
    app.start()
    phone = make_browser(390, 844, phone=True)
    try:
        open_app(phone, app)
        assert not by_css(phone, "#sidebar").is_displayed()
        by_css(phone, "#menu-toggle").click()
        assert by_css(phone, "#sidebar").is_displayed()
        by_css(phone, "#menu-toggle").click()
        click(phone, "#note-list .note-link")
        wait(phone, lambda d: by_css(d, "#note-body").is_displayed())
        assert not by_css(phone, "#list-pane").is_displayed()
        text_top = by_css(phone, "#note-body").rect["y"]
        for part in (".toolbar", ".backlinks"):
            assert by_css(phone, part).rect["y"] > text_top, f"{part} comes before the note's text on a phone"
        assert by_css(phone, ".back-button").rect["y"] < text_top, "the way back to the list is on top"
        # The note's actions are one menu beside it.
        menu = by_css(phone, "#note-menu > summary")
        assert menu.rect["y"] < text_top and menu.text == "Actions"
        assert not by_css(phone, "#pin-toggle").is_displayed() and not by_css(phone, "#trash-note").is_displayed()
        menu.click()
        for action in ("#pin-toggle", "#note-folder", "#history-toggle", "#duplicate-note", "#trash-note"):
            assert by_css(phone, action).is_displayed(), f"{action} is not in the menu"
        by_css(phone, "#pin-toggle").click()
        wait(phone, lambda d: app.cli_json("show", note)["isPinned"] is True, message="Pin in the menu did not pin the note")
        wait(phone, lambda d: not by_css(d, "#note-menu").get_attribute("open"), message="the menu stays open after an action")
        width_open = phone.execute_script("return document.documentElement.scrollWidth")
        assert width_open <= 390, "the menu makes the page scroll sideways"
        width, viewport = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert viewport == 390 and width <= viewport, f"the page scrolls sideways ({width}px in {viewport}px)"
        screenshot(phone, "phone")
        click(phone, ".back-button")  # the actions were drawn again after the pin
        wait(phone, lambda d: by_css(d, "#list-pane").is_displayed())
    finally:
        phone.quit()


def background(browser):
    return browser.execute_script("return getComputedStyle(document.documentElement).backgroundColor")


@pytest.mark.screenshots
def test_dark_mode_follows_the_system_and_a_switch_in_settings(app, browser):
    note = app.new_note("Night", "Some **text**, a [link](https://example.com) and `code`.\n\n- [x] done\n- [ ] open", "--tag", "dark")
    app.start()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    open_app(browser, app, f"#note={note}")
    assert background(browser) == "rgb(24, 24, 24)", "a dark system gets the dark theme"
    by_css(browser, "#preview-toggle").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview strong"))
    assert axe_violations(browser) == [], "contrast and the rest hold in the dark"
    screenshot(browser, "dark")
    open_app(browser, app, "#view=settings")
    click(browser, "#theme-light")
    assert background(browser) == "rgb(255, 255, 255)", "Light in Settings wins over the system"
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    assert background(browser) == "rgb(255, 255, 255)", "the choice is kept"
    click(browser, "#theme-system")
    assert background(browser) == "rgb(24, 24, 24)"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    click(browser, "#theme-dark")
    assert background(browser) == "rgb(24, 24, 24)", "Dark in Settings wins over a light system"
    assert page_errors(browser) == []


def test_on_a_phone_the_toolbar_stays_in_view_and_targets_are_large_enough(app):
    note = app.new_note("Long", "\n".join(f"Line {n} of a note longer than the screen." for n in range(200)))
    app.start()
    phone = make_browser(390, 844, phone=True)
    try:
        open_app(phone, app, f"#note={note}")
        wait(phone, lambda d: by_css(d, "#note-body").is_displayed())
        bottom, height = phone.execute_script(
            "return [document.querySelector('.editor-bar').getBoundingClientRect().bottom, window.innerHeight]")
        assert bottom <= height, f"the toolbar is below the screen ({bottom}px of {height}px)"
        small = phone.execute_script("""
            return [...document.querySelectorAll('.editor button, .editor summary, .editor select, .editor a.quiet-button')]
                .filter((element) => element.offsetParent !== null)
                .map((element) => [element.id || element.className || element.textContent.trim(), element.getBoundingClientRect().height])
                .filter(([, height]) => height < 44);
        """)
        assert small == [], f"touch targets under 44 px: {small}"
    finally:
        phone.quit()


def test_code_blocks_are_highlighted_readably_in_both_themes(app, browser):
    code = "```python\ndef greet(name):\n    # say hello\n    return f\"hi {name}\" if name else None\n```\n\n```text\nplain words\n```"
    note = app.new_note("Snippets", code)
    app.start()
    for scheme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        open_app(browser, app, f"#note={note}")
        by_css(browser, "#preview-toggle").click()
        keyword = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview code.language-python .hl-keyword"),
                       message="the python block is not highlighted")[0]
        assert keyword.text == "def"
        kinds = {element.get_attribute("class") for element in browser.find_elements(By.CSS_SELECTOR, "#note-preview code span")}
        assert {"hl-keyword", "hl-string", "hl-comment", "hl-literal"} <= kinds, kinds
        color = lambda element: browser.execute_script("return getComputedStyle(arguments[0]).color", element)
        plain = by_css(browser, "#note-preview pre:last-of-type code")
        assert not plain.find_elements(By.TAG_NAME, "span"), "a language it does not know stays as written"
        assert color(keyword) != color(plain), f"{scheme}: keywords look like the rest"
        assert axe_violations(browser) == [], f"{scheme}: highlighted code must stay readable"
    assert page_errors(browser) == []


MOVING = """return [...document.querySelectorAll('*')].flatMap((element) => {
  const style = getComputedStyle(element);
  const moves = [style.transitionDuration, style.animationDuration].join(',').split(',').some((time) => parseFloat(time) > 0);
  return moves ? [element.id || element.className || element.tagName] : [];
});"""


def test_reduce_motion_and_high_contrast_are_honoured(app, browser):
    app.new_note("Contrast", "A note about contrast.", "--tag", "look")
    app.start()
    open_app(browser, app)
    assert browser.execute_script(MOVING), "the toast fades when motion is not reduced"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    assert browser.execute_script(MOVING) == [], "something still moves with Reduce Motion"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "forced-colors", "value": "active"}]})
    open_app(browser, app, "#view=search&q=contrast")
    mark = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list mark"), message="no marked match")[0]
    style = lambda element, name: browser.execute_script(f"return getComputedStyle(arguments[0]).{name}", element)
    assert browser.execute_script("return matchMedia('(forced-colors: active)').matches")
    assert style(mark, "backgroundColor") == browser.execute_script(
        "const probe = document.body.appendChild(document.createElement('span')); probe.style.background = 'Mark';"
        "const colour = getComputedStyle(probe).backgroundColor; probe.remove(); return colour"), "a match is not in the system's Mark colour"
    open_app(browser, app, "#view=all")
    current = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".nav-list a[aria-current='page']"), message="no current list")[0]
    assert style(current, "outlineStyle") == "solid", "the current list shows only by a shadow the system colours remove"
    assert axe_violations(browser) == [], "High Contrast"
    assert page_errors(browser) == []


def test_text_at_twice_the_size_fits_without_overlap(app):
    note = app.new_note("A title long enough to wrap when the text is large", "Some text.\n\n- [ ] a task", "--tag", "large")
    app.cli("folder", "new", "A folder with a long name")
    app.start()
    # The reader's text size: 32 px for the browser's usual 16.
    large = make_browser(1280, 800, text_size=32)
    try:
        for route in ("", f"#note={note}", "#view=settings"):
            open_app(large, app, route)
            size = large.execute_script("return parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert size == 30, size
            width, viewport = large.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width <= viewport, f"{route or 'home'}: the page scrolls sideways at 200 % ({width}px in {viewport}px)"
            overlaps = large.execute_script("""
                const boxes = [...document.querySelectorAll('.topbar > *, .editor > .note-actions > *, .settings select, .settings button')]
                  .filter((element) => element.offsetParent !== null).map((element) => [element, element.getBoundingClientRect()]);
                const found = [];
                for (const [a, one] of boxes) for (const [b, two] of boxes) {
                  if (a === b || a.contains(b) || b.contains(a)) continue;
                  if (one.left < two.right - 1 && two.left < one.right - 1 && one.top < two.bottom - 1 && two.top < one.bottom - 1) found.push([a.id || a.className, b.id || b.className]);
                }
                return found;""")
            assert overlaps == [], f"{route or 'home'}: controls overlap at 200 %: {overlaps}"
    finally:
        large.quit()
