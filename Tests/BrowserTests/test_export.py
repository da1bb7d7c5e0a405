"""Export from Settings: choose a format and which notes, and the browser downloads the export."""
import tempfile
import zipfile
from pathlib import Path

from selenium.webdriver.support.ui import Select

from conftest import by_css, click, open_app, wait


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
