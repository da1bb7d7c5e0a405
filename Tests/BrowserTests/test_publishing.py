"""Publishing a note to the web (docs/sharing.md §5): the app's dialog, the link, and the page the
sync server serves, opened in a browser with the key from the link's fragment."""
from selenium.webdriver.common.by import By

from test_safety_and_access import axe_violations
from conftest import answer, by_css, click, open_app, page_errors, text_of, wait


def open_publish_dialog(browser):
    click(browser, "#note-menu summary")
    click(browser, "#publish-note")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.publish[open]"), message="the publish dialog did not open")


def reader_status(browser, link):
    """Opens `link` and returns what the page says instead of showing a note."""
    browser.get(link)
    wait(browser, lambda d: by_css(d, "#status").text and "Opening" not in by_css(d, "#status").text,
         message="the published page said nothing")
    return text_of(browser, "#status")


def test_a_note_is_published_read_by_its_link_updated_and_taken_down(app, browser, sync_server):
    app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    other = app.new_note("Private plans", "not for the page")
    note = app.new_note("Trip plan", f"Bring **the map** and read [[Private plans]] and [that](note:{other})")
    app.start()
    open_app(browser, app, f"#note={note}")
    open_publish_dialog(browser)
    assert "sealed on this device" in text_of(browser, "dialog.publish")
    assert axe_violations(browser) == [], "the publish dialog"
    click(browser, "#publish-confirm")
    wait(browser, lambda d: d.find_elements(By.ID, "publish-link"), timeout=30, message="no link after publishing")
    link = by_css(browser, "#publish-link").get_attribute("value")
    assert link.startswith(sync_server + "/p/") and "#" in link, link
    assert "Published" in text_of(browser, "#publish-state")
    assert page_errors(browser) == []

    # A reader's browser opens the page with the key in the link: the note, in a frame that runs no script.
    browser.get(link)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#page:not([hidden])"), timeout=20, message="the published page did not open")
    assert browser.title == "Trip plan"
    assert by_css(browser, "#page").get_attribute("sandbox") == "allow-popups allow-popups-to-escape-sandbox"
    browser.switch_to.frame(by_css(browser, "#page"))
    assert by_css(browser, "h1").text == "Trip plan"
    assert by_css(browser, "strong").text == "the map"
    body = by_css(browser, "article").text
    assert "Private plans" in body and "not for the page" not in body
    assert browser.find_elements(By.CSS_SELECTOR, "a[href*='note']") == [], "a link into the account"
    browser.switch_to.default_content()
    assert page_errors(browser) == []

    # A link cut short, or changed, opens nothing.
    assert "incomplete" in reader_status(browser, link.split("#")[0])
    key = link.split("#")[1]
    changed = link.split("#")[0] + "#" + ("A" if key[0] != "A" else "B") + key[1:]
    assert "could not be opened" in reader_status(browser, changed)

    # Edited, the note is published again at the same link; then taken down.
    app.cli("edit", note, "--body", "Changed plans")
    open_app(browser, app, f"#note={note}")
    open_publish_dialog(browser)
    wait(browser, lambda d: "changed since" in by_css(d, "#publish-state").text, message="the dialog did not say the page is outdated")
    click(browser, "#publish-update")
    wait(browser, lambda d: "Published" in by_css(d, "#publish-state").text, timeout=30, message="the page was not updated")
    assert by_css(browser, "#publish-link").get_attribute("value") == link
    browser.get(link)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#page:not([hidden])"), timeout=20)
    browser.switch_to.frame(by_css(browser, "#page"))
    assert "Changed plans" in by_css(browser, "article").text
    browser.switch_to.default_content()

    open_app(browser, app, f"#note={note}")
    open_publish_dialog(browser)
    click(browser, "#publish-stop")
    assert "no longer published" in answer(browser, True)
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.publish"), message="the dialog stayed open")
    assert "no longer published" in reader_status(browser, link)
    assert app.cli_json("publish", "--list") == []
