"""Import and export from Settings: the browser downloads an export, and uploads Evernote and Markdown files."""
import base64
import io
import json
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import by_css, click, open_app, screenshot, text_of, wait


def downloaded(directory, suffix):
    files = [path for path in Path(directory).iterdir() if path.name.endswith(suffix)]
    return files[0] if files else None


def test_export_a_folder_as_markdown_and_everything_as_pdf(app, browser):
    app.cli("folder", "new", "Work")
    app.new_note("Quarter plan", "**Ελληνικά** and русский", "--folder", "Work", "--tag", "Q1")
    app.new_note("Elsewhere", "not in the folder")
    app.start()
    folder = tempfile.mkdtemp(prefix="notetaker-downloads-")
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: d.find_elements("css selector", "#export-scope option[value^='folder=']"), message="no folders to choose")
    app.cli("folder", "new", "Archive")
    wait(browser, lambda d: "Archive" in by_css(d, "#export-scope").text, message="a folder made while Settings is open is not offered")
    Select(by_css(browser, "#export-format")).select_by_value("markdown")
    Select(by_css(browser, "#export-scope")).select_by_visible_text("Work")
    click(browser, "#export-download")
    archive = wait(browser, lambda d: downloaded(folder, ".zip"), timeout=20, message="no zip downloaded")
    with zipfile.ZipFile(archive) as export:
        assert export.testzip() is None
        assert export.namelist() == ["Work/Quarter plan.md"]
        text = export.read("Work/Quarter plan.md").decode()
        assert "**Ελληνικά** and русский" in text and "  - \"Q1\"" in text

    Select(by_css(browser, "#export-format")).select_by_value("pdf")
    Select(by_css(browser, "#export-scope")).select_by_value("")
    click(browser, "#export-download")
    pdf = wait(browser, lambda d: downloaded(folder, ".pdf"), timeout=20, message="no PDF downloaded")
    assert pdf.read_bytes().startswith(b"%PDF-")


ENEX = """<?xml version="1.0" encoding="UTF-8"?>
<en-export><note><title>Recipe</title><content><![CDATA[<en-note><div><b>Soup</b> of the day</div>
<div><en-todo checked="true"/>Buy leeks</div></en-note>]]></content><created>20231015T083000Z</created><tag>cooking</tag></note>
<note><title>Cut off</title><content><![CDATA[<en-note><div><b></en-note>]]></content></note></en-export>
"""


@pytest.mark.screenshots
def test_import_evernote_and_markdown_files(app, browser):
    app.start()
    folder = Path(tempfile.mkdtemp(prefix="notetaker-uploads-"))
    (folder / "Kitchen.enex").write_text(ENEX)
    (folder / "Ideas.md").write_text("---\ntags: [later]\n---\nA thought with #inbox\n")
    open_app(browser, app, "#view=settings")
    by_css(browser, "#import-file").send_keys(f"{folder / 'Kitchen.enex'}\n{folder / 'Ideas.md'}")
    click(browser, "#import-start")
    wait(browser, lambda d: len(d.find_elements("css selector", ".import-report")) == 2, timeout=20, message="no reports")
    reports = [element.text for element in browser.find_elements("css selector", ".import-report")]
    browser.execute_script("document.getElementById('export-heading').scrollIntoView()")
    screenshot(browser, "import-export")
    assert reports[0].startswith("Kitchen.enex: 2 found, 1 imported, 0 already here, 1 skipped.")
    assert "Skipped note 2 'Cut off': its content is damaged" in reports[0]
    assert reports[1].startswith("Ideas.md: 1 found, 1 imported")
    wait(browser, lambda d: "2" in by_css(d, "#stats-section dd").text, message="the statistics do not count the imported notes")
    notes = {note["title"]: note for note in app.cli_json("list")}
    assert set(notes) == {"Recipe", "Ideas"}
    assert sorted(notes["Ideas"]["tags"]) == ["inbox", "later"]
    shown = app.cli_json("show", notes["Recipe"]["id"])
    assert shown["body"] == "**Soup** of the day\n\n- [x] Buy leeks"


def keep_note(title, created, **fields):
    """A Keep note's JSON as Google Takeout writes it."""
    note = {"color": "DEFAULT", "isTrashed": False, "isPinned": False, "isArchived": False, "title": title,
            "userEditedTimestampUsec": created + 5_000_000, "createdTimestampUsec": created}
    note.update(fields)
    return json.dumps(note)


def test_import_a_google_keep_takeout_and_a_simplenote_export(app, browser):
    app.start()
    folder = Path(tempfile.mkdtemp(prefix="notetaker-uploads-"))
    takeout = folder / "takeout-20261126T101500Z-001.zip"
    with zipfile.ZipFile(takeout, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Takeout/archive_browser.html", "<html></html>")
        archive.writestr("Takeout/Keep/Groceries.json", keep_note(
            "Groceries", 1_710_340_800_000_000, isPinned=True, labels=[{"name": "Shopping"}],
            listContent=[{"text": "Milk", "textHtml": "Milk", "isChecked": False}, {"text": "Eggs", "textHtml": "Eggs", "isChecked": True}],
            attachments=[{"filePath": "1a2b3c.jpeg", "mimetype": "image/jpeg"}]))
        archive.writestr("Takeout/Keep/Groceries.html", "<html></html>")
        archive.writestr("Takeout/Keep/1a2b3c.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 64)
        archive.writestr("Takeout/Keep/Old.json", keep_note("Old", 1_610_340_800_000_000, textContent="boat", isArchived=True))
        archive.writestr("Takeout/Keep/Labels.txt", "Shopping\n")
    simplenote = folder / "notes.zip"
    with zipfile.ZipFile(simplenote, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("source/notes.json", json.dumps({"activeNotes": [{
            "id": "0c1f3d6b4a8e4f21a9d7c2b5e6f80911", "content": "Recipes\r\nPancakes", "creationDate": "2021-05-04T09:15:30.000Z",
            "lastModified": "2023-11-20T18:02:11.482Z", "tags": ["cooking"]}], "trashedNotes": []}, indent=2).replace("\n", "\r\n"))
        archive.writestr("Recipes.txt", "Recipes\r\nPancakes")
    bomb = folder / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Takeout/Keep/Fine.json", keep_note("Fine", 1_700_000_000_000_000, textContent="ok"))
        archive.writestr("Takeout/Keep/zeros.png", b"\0" * (16 << 20))
    open_app(browser, app, "#view=settings")
    by_css(browser, "#import-file").send_keys(f"{takeout}\n{simplenote}\n{bomb}")
    click(browser, "#import-start")
    wait(browser, lambda d: len(d.find_elements("css selector", ".import-report")) == 2 and d.find_elements("css selector", "#import-result .error"),
         timeout=30, message="no reports, or no error for the bomb")
    reports = [element.text for element in browser.find_elements("css selector", ".import-report")]
    assert reports[0].startswith("takeout-20261126T101500Z-001.zip: 2 found, 2 imported"), reports[0]
    assert reports[1].startswith("notes.zip: 1 found, 1 imported"), reports[1]
    error = text_of(browser, "#import-result .error")
    assert "bomb.zip cannot be imported" in error and "'Takeout/Keep/zeros.png' inflates to more than 200 times" in error, error
    notes = {note["title"]: app.cli_json("show", note["id"]) for note in app.cli_json("list")}
    assert set(notes) == {"Groceries", "Old", "Recipes"}, "nothing of the bomb went in"
    assert notes["Groceries"]["isPinned"] and notes["Groceries"]["tags"] == ["Shopping"]
    assert "- [ ] Milk\n- [x] Eggs" in notes["Groceries"]["body"] and "(attachment:" in notes["Groceries"]["body"]
    assert notes["Recipes"]["body"] == "Pancakes" and notes["Recipes"]["tags"] == ["cooking"]
    assert [folder["name"] for folder in app.cli_json("folder", "list")] == ["Archive"]


def test_the_parts_of_a_takeout_chosen_together_are_one_import(app, browser):
    app.start()
    folder = Path(tempfile.mkdtemp(prefix="notetaker-uploads-"))
    first, second = folder / "takeout-20261126T101500Z-001.zip", folder / "takeout-20261126T101500Z-002.zip"
    with zipfile.ZipFile(first, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Takeout/Keep/Garden.json", keep_note(
            "Garden", 1_710_340_800_000_000, textContent="Roses", attachments=[{"filePath": "9f8e7d.jpeg", "mimetype": "image/jpeg"}]))
    with zipfile.ZipFile(second, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Takeout/Keep/9f8e7d.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 64)
        archive.writestr("Takeout/Keep/Shed.json", keep_note("Shed", 1_710_340_900_000_000, textContent="Tools"))
    open_app(browser, app, "#view=settings")
    by_css(browser, "#import-file").send_keys(f"{first}\n{second}")
    click(browser, "#import-start")
    report = wait(browser, lambda d: d.find_elements("css selector", ".import-report"), timeout=30, message="no report")
    assert len(report) == 1 and report[0].text.startswith("the 2 parts of a Google Takeout: 2 found, 2 imported"), report[0].text
    assert "not in the export" not in report[0].text, "the picture in the second part was not found"
    notes = {note["title"]: app.cli_json("show", note["id"]) for note in app.cli_json("list")}
    assert set(notes) == {"Garden", "Shed"} and len(notes["Garden"]["attachments"]) == 1


def joplin_item(title, fields, body=None):
    """A Joplin RAW item as its .jex holds it: title, body, `name: value` fields, `type_` last."""
    parts = [title] + ([body] if body else []) + ["\n".join(f"{name}: {value}" for name, value in fields)]
    return "\n\n".join(parts).encode()


def test_import_a_joplin_export(app, browser):
    app.start()
    folder = Path(tempfile.mkdtemp(prefix="notetaker-uploads-"))
    notebook, note, picture = "1" * 32, "2" * 32, "3" * 32
    stamp = "2023-03-14T09:26:53.000Z"
    items = {
        f"{notebook}.md": joplin_item("Travel", [("id", notebook), ("parent_id", ""), ("created_time", stamp), ("type_", 2)]),
        f"{note}.md": joplin_item("Lisbon", [
            ("id", note), ("parent_id", notebook), ("created_time", stamp), ("updated_time", stamp), ("is_todo", 1),
            ("todo_completed", 0), ("encryption_applied", 0), ("type_", 1)], body=f"Trams and tiles.\n\n![tram.png](:/{picture})"),
        f"{picture}.md": joplin_item("tram.png", [("id", picture), ("mime", "image/png"), ("file_extension", "png"), ("type_", 4)]),
        f"resources/{picture}.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 32,
    }
    jex = folder / "Joplin Export.jex"
    with tarfile.open(jex, "w") as archive:
        for name, data in items.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    open_app(browser, app, "#view=settings")
    by_css(browser, "#import-file").send_keys(str(jex))
    # Every progress bar the import shows, recorded as it comes and goes.
    browser.execute_script("""
        window.progressSeen = [];
        new MutationObserver(() => {
          const label = document.getElementById('import-progress-label');
          if (label && document.getElementById('import-progress')) window.progressSeen.push(label.textContent);
        }).observe(document.getElementById('import-result'), { childList: true, subtree: true, characterData: true });
        """)
    click(browser, "#import-start")
    report = wait(browser, lambda d: d.find_elements("css selector", ".import-report"), timeout=30, message="no report")
    assert report[0].text.startswith("Joplin Export.jex: 1 found, 1 imported"), report[0].text
    assert "Sending Joplin Export.jex…" in browser.execute_script("return window.progressSeen"), "no progress bar while the file went"
    assert not browser.find_elements("css selector", "#import-progress"), "the progress bar stays after the report"
    [listed] = app.cli_json("list")
    shown = app.cli_json("show", listed["id"])
    assert shown["title"] == "Lisbon" and "- [ ] Lisbon" in shown["body"] and "(attachment:" in shown["body"], shown["body"]
    assert [folder["name"] for folder in app.cli_json("folder", "list")] == ["Travel"]


def drop_files(browser, selector, files):
    """Drops `files` ({name: bytes}) on the element `selector` finds, as a file manager does."""
    browser.execute_script("""
        const [selector, files] = arguments;
        const transfer = new DataTransfer();
        for (const [name, encoded] of Object.entries(files)) {
          const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
          transfer.items.add(new File([bytes], name));
        }
        const target = document.querySelector(selector);
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
        """, selector, {name: base64.b64encode(data).decode() for name, data in files.items()})


def test_a_takeout_dropped_on_the_window_is_imported_and_a_file_dropped_on_a_note_attached(app, browser):
    app.new_note("Open note", "text")
    app.start()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Takeout/Keep/Bike.json", keep_note("Bike", 1_700_000_000_000_000, textContent="Oil the chain", labels=[{"name": "Errands"}]))
        archive.writestr("Takeout/Keep/Bike.html", "<html></html>")
    open_app(browser, app)
    wait(browser, lambda d: d.find_elements("css selector", "#note-list .note-link"), message="no list")
    drop_files(browser, "#note-list", {"takeout-20261126T101500Z-001.zip": buffer.getvalue()})
    report = wait(browser, lambda d: d.find_elements("css selector", ".import-report"), timeout=20, message="Settings did not open with the report")
    assert report[0].text.startswith("takeout-20261126T101500Z-001.zip: 1 found, 1 imported"), report[0].text
    assert "view=settings" in browser.current_url
    notes = {note["title"]: note for note in app.cli_json("list")}
    assert set(notes) == {"Open note", "Bike"} and notes["Bike"]["tags"] == ["Errands"]

    open_app(browser, app, f"#note={notes['Open note']['id']}")
    wait(browser, lambda d: d.find_elements("css selector", "#note-body"), message="the note did not open")
    drop_files(browser, "#editor-region", {"list.txt": b"milk"})
    wait(browser, lambda d: app.cli_json("show", notes["Open note"]["id"])["attachments"], timeout=20, message="a file dropped on the note is not attached")
    assert len(app.cli_json("list")) == 2, "a file dropped on an open note is attached, not imported"


def test_markdown_files_chosen_together_and_a_folder_keep_their_links(app, browser):
    app.start()
    folder = Path(tempfile.mkdtemp(prefix="notetaker-uploads-"))
    (folder / "Plan.md").write_text("Read [[Reading list]] first.\n")
    (folder / "Reading list.md").write_text("Books, then [the plan](Plan.md).\n")
    vault = folder / "Vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian" / "workspace.json").write_text("{}")
    (vault / "Projects" / "Roadmap.md").write_text("See ![[diagram.png]] and [[Home]].\n")
    (vault / "Projects" / "diagram.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    (vault / "Home.md").write_text("Start at [[Roadmap]]; older: [[Plan]].\n")
    open_app(browser, app, "#view=settings")
    by_css(browser, "#import-file").send_keys(f"{folder / 'Plan.md'}\n{folder / 'Reading list.md'}")
    by_css(browser, "#import-folder").send_keys(str(vault))
    click(browser, "#import-start")
    wait(browser, lambda d: len(d.find_elements("css selector", ".import-report")) == 2, timeout=20, message="no reports")
    reports = [element.text for element in browser.find_elements("css selector", ".import-report")]
    assert reports[0].startswith("2 Markdown files: 2 found, 2 imported"), reports[0]
    assert reports[1].startswith("Vault: 2 found, 2 imported"), reports[1]
    assert "Attached Projects/diagram.png to Projects/Roadmap.md" in reports[1], "the folder's paths are inside it, as `notetaker import` gives them"
    notes = {note["title"]: app.cli_json("show", note["id"]) for note in app.cli_json("list")}
    assert set(notes) == {"Plan", "Reading list", "Roadmap", "Home"}
    assert [folder["name"] for folder in app.cli_json("folder", "list")] == ["Projects"]
    link = lambda title: f"(note:{notes[title]['id']})"
    assert notes["Plan"]["body"].strip() == f"Read [Reading list]{link('Reading list')} first."
    assert notes["Reading list"]["body"].strip() == f"Books, then [the plan]{link('Plan')}."
    assert link("Home") in notes["Roadmap"]["body"] and "(attachment:" in notes["Roadmap"]["body"]
    assert notes["Home"]["body"].strip() == f"Start at [Roadmap]{link('Roadmap')}; older: [Plan]{link('Plan')}.", "a folder links to notes imported before"


@pytest.mark.screenshots
def test_an_imported_notes_properties_show_as_a_table(app, browser):
    vault = Path(tempfile.mkdtemp(prefix="notetaker-vault-"))
    (vault / "Leek soup.md").write_text(
        "---\ntitle: Leek soup\ntags: [cooking]\nstatus: draft\naliases:\n  - Potage\nrating: 4\n---\nChop the leeks.\n",
        encoding="utf-8")
    app.cli("import", str(vault))
    note = next(note["id"] for note in app.cli_json("list") if note["title"] == "Leek soup")
    app.start()
    open_app(browser, app, f"#note={note}")
    # The list's first line is the note's text, not its properties.
    wait(browser, lambda d: [element.text for element in d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview")] == ["Chop the leeks."],
         message="the list shows the properties as the first line")
    by_css(browser, "#preview-toggle").click()
    rows = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview table.properties tr"), message="no properties table")
    assert [row.text for row in rows] == ["status draft", "aliases Potage", "rating 4"], [row.text for row in rows]
    assert text_of(browser, "#note-preview p") == "Chop the leeks."
    screenshot(browser, "properties")
