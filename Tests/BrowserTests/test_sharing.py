"""Sharing a folder from the web app (docs/sharing.md §3.4): the Share dialog, the Shared section
of the sidebar, an invitation accepted in another account's app, a viewer's read-only note, an
edit from a member arriving live, the safety number both sides see, and stopping the share."""
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_safety_and_access import axe_violations
from conftest import App, answer, by_css, click, make_browser, open_app, page_errors, text_of, wait


def register(app, server, user):
    app.cli("account", "register", "--server", server, "--user", user, "--password-stdin", stdin=f"correct horse {user}\n")


def note_titles(browser):
    return [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#note-list .note-title")]


def open_dialog_of_share(browser):
    click(browser, "#share-list .share-actions")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.share-dialog[open]"), message="the share dialog did not open")


def invite(browser, user, role):
    by_css(browser, "#share-account").send_keys(user)
    Select(by_css(browser, "#share-role")).select_by_value(role)
    click(browser, "#share-submit")


def test_a_folder_is_shared_accepted_viewed_and_stopped(app, browser, sync_server, tmp_path):
    register(app, sync_server, "ines")
    app.cli("folder", "new", "Trip")
    note = app.new_note("Day one", "Train at nine", "--folder", "Trip")
    bob, cara = App(tmp_path / "bob"), App(tmp_path / "cara")
    for person, name in ((bob, "bob"), (cara, "cara")):
        person.directory.mkdir()
        register(person, sync_server, name)
    app.start()
    open_app(browser, app)
    wait(browser, lambda d: by_css(d, "#shares-section").is_displayed(), message="no Shared section for an account that can share")
    assert "Nothing shared yet" in text_of(browser, "#share-list")

    # Ines shares Trip with Bob from the folder's dialog.
    click(browser, '#folder-tree button[aria-label="Rename, move or delete folder Trip"]')
    click(browser, "#folder-share")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.share-dialog[open]"), message="the share dialog did not open")
    assert "sealed end to end" in text_of(browser, "#share-dialog")
    assert axe_violations(browser) == [], "the share dialog"
    invite(browser, "bob", "editor")
    wait(browser, lambda d: "share=" in d.current_url, timeout=30, message="the app did not go to the share")
    wait(browser, lambda d: note_titles(d) == ["⇄ Day one"], message="the share's note is not listed with its mark")
    assert text_of(browser, "#list-title") == "Trip"
    assert "Shared by you with 1 person" in text_of(browser, "#list-share")
    assert "Trip" not in text_of(browser, "#folder-tree"), "the folder moved under Shared"
    assert "Trip" in text_of(browser, "#share-list")

    # Cara is invited to view; both members are listed, with the safety number Bob sees too.
    open_dialog_of_share(browser)
    invite(browser, "cara", "viewer")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#share-members .share-member")) == 3, timeout=30,
         message="Cara was not listed")
    bob_row = by_css(browser, '#share-members .share-member[data-account="bob"]')
    bob_row.find_element(By.XPATH, ".//button[text()='Safety number']").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.share-member[data-account="bob"] .safety-number code'),
         timeout=30, message="no safety number shown")
    number = by_css(browser, '.share-member[data-account="bob"] .safety-number code').text
    verified = bob.cli_json("account", "verify", "ines")
    assert verified["safetyNumber"] == number
    assert axe_violations(browser) == [], "the share dialog with its members"
    click(browser, "#share-close")

    # Cara's app shows the invitation; accepted, the note opens read-only.
    cara.start()
    viewer = make_browser()
    try:
        open_app(viewer, cara)
        wait(viewer, lambda d: "ines wants to share a folder with you." in by_css(d, "#share-list").text, timeout=30,
             message="no invitation in Cara's sidebar")
        click(viewer, "#share-list .invitation .accept-share")
        wait(viewer, lambda d: "share=" in d.current_url and note_titles(d) == ["⇄ Day one"], timeout=30,
             message="the accepted share's notes did not show")
        assert "Shared by ines" in text_of(viewer, "#list-share") and "you can view" in text_of(viewer, "#list-share")
        assert by_css(viewer, "#new-note").get_attribute("disabled") is not None, "a viewer makes no note in the share"
        viewer.find_element(By.CSS_SELECTOR, "#note-list .note-link").click()
        wait(viewer, lambda d: d.find_elements(By.ID, "view-only-notice"), message="no view-only notice")
        assert by_css(viewer, "#note-title").get_attribute("readonly") is not None
        assert viewer.find_elements(By.ID, "trash-note") == [] and viewer.find_elements(By.ID, "pin-toggle") == []
        assert "ines" in text_of(viewer, "#note-share")
        assert page_errors(viewer) == []
    finally:
        viewer.quit()
        cara.stop()

    # Bob accepts and edits from his command line; Ines's open note shows it, live.
    bob.cli("share", "accept", "ines")
    open_app(browser, app, f"#share={re.search(r'share=([0-9a-f-]+)', browser.current_url).group(1)}&note={note}")
    wait(browser, lambda d: "Train at nine" in by_css(d, "#note-body").get_attribute("value"), message="the note did not open")
    bob.cli("edit", note, "--body", "Train at ten", "--shared", "Trip")
    bob.cli("sync")
    wait(browser, lambda d: "Train at ten" in by_css(d, "#note-body").get_attribute("value"), timeout=60,
         message="Bob's edit did not reach Ines's open note")
    wait(browser, lambda d: "by bob" in text_of(d, "#note-modified"), message="the note does not say bob wrote its text")

    # Trashed in the share, the note is in the share's own Trash, and restored from there.
    click(browser, "#trash-note")
    wait(browser, lambda d: "Trash" in by_css(d, "#share-list").text, message="no Trash under the shown share")
    wait(browser, lambda d: by_css(d, "#share-list .share-trash .count").text == "1", message="the share's trash does not count the note")
    click(browser, "#share-list .share-trash a")
    wait(browser, lambda d: note_titles(d) == ["⇄ Day one"], message="the share's trash does not list the note")
    assert "share=" in browser.current_url
    click(browser, "#note-list .note-link")
    browser.find_element(By.XPATH, "//div[contains(@class,'note-actions')]//button[text()='Restore']").click()
    wait(browser, lambda d: by_css(d, "#share-list .share-trash .count").text == "0", message="the note was not restored")

    # Ines stops sharing: the folder is hers again, and the note with Bob's edit in it.
    open_dialog_of_share(browser)
    click(browser, "#share-end")
    assert "Stop sharing “Trip”?" in answer(browser, True)
    wait(browser, lambda d: "Trip" in by_css(d, "#folder-tree").text, timeout=30, message="the folder did not come back")
    assert "share=" not in browser.current_url
    assert app.cli_json("show", note)["body"] == "Train at ten"
    assert page_errors(browser) == []


def drop_note_on(browser, note, target):
    """Drops note `note` on element `target` as a drag from the list does (the browser's own
    drag cannot be driven by WebDriver)."""
    browser.execute_script("""
        const [note, target] = arguments;
        const data = new DataTransfer();
        data.setData('application/x-notetaker-note', note);
        for (const type of ['dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        }
    """, note, target)


def test_a_note_moves_into_a_shared_folder_and_out_again(app, browser, sync_server, tmp_path):
    register(app, sync_server, "ines")
    app.cli("folder", "new", "Trip")
    note = app.new_note("Packing", "Boots", "--tag", "travel")
    bob = App(tmp_path / "bob")
    bob.directory.mkdir()
    register(bob, sync_server, "bob")
    app.cli("share", "Trip", "--with", "bob")
    bob.cli("share", "accept", "ines")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: "Boots" in by_css(d, "#note-body").get_attribute("value"), message="the note did not open")

    # The folder menu offers the shared folder; chosen, the note moves there and the page follows it.
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#note-folder optgroup option[value^="share:"]'), timeout=30,
         message="the folder menu offers no shared folder")
    group = by_css(browser, '#note-folder optgroup')
    assert group.get_attribute("label") == "Move into a shared folder" and group.text.strip() == "Trip"
    wait(browser, lambda d: Select(by_css(d, "#note-folder")).select_by_visible_text("Trip") or True, message="cannot choose Trip")
    wait(browser, lambda d: "Note moved into “Trip”" in text_of(d, "#toast"), timeout=30, message="no word of the move")
    wait(browser, lambda d: "share=" in d.current_url and "Boots" in by_css(d, "#note-body").get_attribute("value"),
         message="the page did not follow the note into the share")
    wait(browser, lambda d: note_titles(d) == ["⇄ Packing"], message="the share does not list the note")
    assert "Packing" not in app.cli("list")
    bob.cli("sync")
    assert "Boots" in bob.cli("show", note, "--shared", "Trip")

    # Dropped on "All notes", it leaves the share and is Ines's own again; Bob's next sync drops it.
    all_notes = browser.find_element(By.XPATH, "//ul[@id='smart-lists']//a[.//span[text()='All notes']]")
    drop_note_on(browser, note, all_notes)
    wait(browser, lambda d: "Note moved to your own notes" in text_of(d, "#toast"), timeout=30, message="no word of the move out")
    wait(browser, lambda d: "share=" not in d.current_url, message="the page did not follow the note out")
    assert app.cli_json("show", note)["body"] == "Boots"
    bob.cli("sync")
    assert "Packing" not in bob.cli("list", "--shared", "Trip")
    assert page_errors(browser) == []
