"""One edit path: what the page types never overwrites a change made elsewhere meanwhile
(the command line, another tab, a draft kept on this device), and the history panel."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import shutil
import tempfile
from pathlib import Path

import re

from conftest import App, by_css, click, make_browser, open_app, text_of, wait

BASE = "line one\nline two\nline three"
EDITED = "line one\nline two EDITED\nline three"


def textarea(browser):
    return browser.execute_script("return document.getElementById('note-body')?.value")


def both_survive(app, note, typed, elsewhere):
    """Both edits are in the note (merged), or one in the note and the other in a conflict copy."""
    body = app.cli_json("show", note)["body"]
    if typed in body and elsewhere in body:
        return True
    copies = [other["body"] for other in app.cli_json("list") if other["id"] != note]
    return typed in body and any(elsewhere in text for text in copies)


def test_typing_while_the_note_changes_elsewhere_keeps_both_edits(app, browser):
    note = app.new_note("Shared", BASE)
    app.start()
    open_app(browser, app, f"#note={note}")
    body = wait(browser, lambda d: by_css(d, "#note-body"))
    body.click()
    body.send_keys(Keys.CONTROL, Keys.END)
    body.send_keys("\nbrowser typed A")
    app.cli("edit", note, "--body", EDITED)  # before the autosave fires
    body.send_keys(" and more")
    wait(browser, lambda d: by_css(d, "#save-state").text == "Saved" and both_survive(app, note, "browser typed A and more", "line two EDITED"),
         timeout=20, message=f"an edit was lost: {app.cli_json('show', note)['body']!r}")
    merged = EDITED + "\nbrowser typed A and more"
    assert app.cli_json("show", note)["body"] == merged
    wait(browser, lambda d: textarea(d) == merged, message="the page does not show the merged text")
    # The caret stayed where the typing was: more keys land at the end.
    body.send_keys("!")
    wait(browser, lambda d: app.cli_json("show", note)["body"] == merged + "!", timeout=20, message="the caret moved")


def test_an_edit_arriving_through_sync_while_typing_keeps_both(app, browser, sync_server):
    other = App(Path(tempfile.mkdtemp(prefix="notetaker-other-")))
    try:
        app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
        other.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
        note = app.new_note("Shared", BASE)
        app.cli("sync")
        other.cli("sync")
        app.start()  # syncs by itself while it runs, live through the server's push channel
        open_app(browser, app, f"#note={note}")
        body = wait(browser, lambda d: by_css(d, "#note-body"))
        body.click()
        body.send_keys(Keys.CONTROL, Keys.END)
        body.send_keys("\nbrowser typed A")
        other.cli("edit", note, "--body", EDITED)
        other.cli("sync")
        body.send_keys(" and more")
        wait(browser, lambda d: both_survive(app, note, "browser typed A and more", "line two EDITED"), timeout=30,
             message=f"an edit was lost: {app.cli_json('show', note)['body']!r}")
        wait(browser, lambda d: textarea(d) == app.cli_json("show", note)["body"], timeout=30,
             message="the page does not show the note's text")
    finally:
        shutil.rmtree(other.directory, ignore_errors=True)


def test_a_draft_restored_after_the_note_changed_is_merged(app, browser):
    note = app.new_note("Offline", BASE)
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body"))
    revision = browser.execute_async_script(
        "fetch('/api/v1/notes/' + arguments[0]).then((r) => r.json()).then((n) => arguments[1](n.revision))", note)
    # A draft typed here that the server never got, then the note changed elsewhere.
    browser.execute_script(
        "localStorage.setItem(arguments[0], JSON.stringify({title: 'Offline', body: arguments[1], base: arguments[2]}))",
        f"notetaker.draft.{note}", BASE + "\nfrom the draft",
        {"revision": revision, "title": "Offline", "body": BASE, "tags": []})
    app.cli("edit", note, "--body", EDITED)
    browser.refresh()
    wait(browser, lambda d: app.cli_json("show", note)["body"] == EDITED + "\nfrom the draft", timeout=20,
         message=f"the draft overwrote the newer text: {app.cli_json('show', note)['body']!r}")


def test_two_tabs_typing_in_one_note(app, browser):
    note = app.new_note("Together", BASE)
    app.start()
    other = make_browser()
    try:
        for window in (browser, other):
            open_app(window, app, f"#note={note}")
        first = wait(browser, lambda d: by_css(d, "#note-body"))
        second = wait(other, lambda d: by_css(d, "#note-body"))
        first.click()
        first.send_keys(Keys.CONTROL, Keys.END)
        first.send_keys("\nfrom the first tab")
        second.click()
        second.send_keys(Keys.CONTROL, Keys.HOME)
        second.send_keys("from the second tab\n")
        expected = "from the second tab\n" + BASE + "\nfrom the first tab"
        wait(browser, lambda d: app.cli_json("show", note)["body"] == expected, timeout=20,
             message=f"a tab's typing was lost: {app.cli_json('show', note)['body']!r}")
        wait(browser, lambda d: textarea(d) == expected, timeout=20, message="the first tab never showed the other's typing")
        wait(other, lambda d: textarea(d) == expected, timeout=20, message="the second tab never showed the other's typing")
    finally:
        other.quit()


def test_tags_edited_on_both_sides_are_merged(app, browser):
    note = app.new_note("Trip", "", "--tag", "travel")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#tag-input"))
    # The page still shows [travel] when the command line adds a tag.
    app.cli("tag", "add", note, "portugal")

    def add_tag(driver):
        # The live refresh may redraw the tag editor under the typing: then type again.
        by_css(driver, "#tag-input").send_keys("todo", Keys.ENTER)
        return True
    wait(browser, add_tag, message="the tag field never took the tag")
    wait(browser, lambda d: sorted(app.cli_json("show", note)["tags"]) == ["portugal", "todo", "travel"], timeout=20,
         message=f"a tag was lost: {app.cli_json('show', note)['tags']}")


def test_history_panel_shows_a_diff_and_restores(app, browser):
    app.cli("sync", "settings", "--device-name", "Kitchen laptop")
    note = app.new_note("Recipe", "flour\nwater")
    app.cli("edit", note, "--body", "flour\nwater\nsalt")
    app.start()
    open_app(browser, app, f"#note={note}")
    click(browser, "#history-toggle")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".history-list li")) == 1, message="the history lists no version")
    assert text_of(browser, ".history-list .history-device") == "on this device"
    click(browser, ".history-list li button")
    wait(browser, lambda d: [line.text for line in d.find_elements(By.CSS_SELECTOR, ".history-diff .added")] == ["salt"],
         message="the diff does not show the added line")
    click(browser, "#history-restore")
    wait(browser, lambda d: app.cli_json("show", note)["body"] == "flour\nwater", timeout=20, message="restore did not change the note")
    wait(browser, lambda d: textarea(d) == "flour\nwater", message="the editor does not show the restored text")
    assert app.cli_json("history", note)[0]["replacedBy"] == "restore"


def test_history_shows_the_title_change_the_second_and_the_device_and_follows_changes(app, browser):
    note = app.new_note("Recipe", "flour\nwater")
    app.cli("edit", note, "--title", "Bread", "--body", "flour\nwater\nsalt")
    app.start()
    open_app(browser, app, f"#note={note}")
    click(browser, "#history-toggle")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".history-list li")) == 1, message="the history lists no version")
    assert text_of(browser, ".history-list .history-device") == "on this device"
    date = text_of(browser, ".history-list .history-date")
    assert re.search(r"\d:\d\d:\d\d", date), f"versions a minute apart read alike: {date!r}"
    click(browser, ".history-list li button")
    # Restore brings the title back too: the panel says so.
    wait(browser, lambda d: [line.text for line in d.find_elements(By.CSS_SELECTOR, ".history-title-diff .removed")] == ["Recipe"],
         message="the title's change is not shown")
    assert [line.text for line in browser.find_elements(By.CSS_SELECTOR, ".history-title-diff .added")] == ["Bread"]
    assert text_of(browser, "#history-restore") == "Restore this version and its title"
    # A change made elsewhere while the panel is open shows in it, the chosen version still open.
    app.cli("edit", note, "--body", "flour\nwater\nsalt\nyeast")
    wait(browser, lambda d: [line.text for line in d.find_elements(By.CSS_SELECTOR, ".history-diff:not(.history-title-diff) .added")]
         == ["salt", "yeast"], timeout=20, message="the open history did not follow a change from elsewhere")
    assert browser.find_elements(By.CSS_SELECTOR, ".history-list button[aria-pressed='true']"), "the chosen version closed"
    click(browser, "#history-restore")
    wait(browser, lambda d: app.cli_json("show", note)["title"] == "Recipe", timeout=20, message="restore did not bring the title back")


def test_device_name_is_set_in_settings_and_names_versions_from_elsewhere(app, browser):
    note = app.new_note("Recipe", "flour")
    app.start()
    open_app(browser, app, "#view=settings")
    field = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#device-name") and by_css(d, "#device-name"))
    field.clear()
    field.send_keys("Kitchen laptop")
    click(browser, "#device-name-form button[type='submit']")
    wait(browser, lambda d: app.cli_json("sync", "settings")["deviceName"] == "Kitchen laptop", message="the name was not saved")
    too_long = wait(browser, lambda d: by_css(d, "#device-name"))
    too_long.clear()
    browser.execute_script("document.getElementById('device-name').value = 'x'.repeat(101)")
    click(browser, "#device-name-form button[type='submit']")
    wait(browser, lambda d: "at most 100 characters" in by_css(d, "#toast").text,
         message="a name too long is not refused in words")
    assert app.cli_json("sync", "settings")["deviceName"] == "Kitchen laptop", "a refused name changed nothing"
