"""The app in its five languages: chosen from the browser's languages or in Settings, every
string translated, plurals and dates as each language writes them, accessible in each."""
import json
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ROOT, by_css, click, make_browser, open_app, page_errors, text_of, wait
from test_safety_and_access import axe_violations

STRINGS = ROOT / "Sources" / "NoteTakerWeb" / "Public" / "strings"


def catalog(tag):
    return json.loads((STRINGS / f"{tag}.json").read_text())


def untranslated(browser, tag):
    """Lines of the page that read as an English string whose translation differs."""
    english, translated = catalog("en"), catalog(tag)
    words = {value for key, value in english.items()
             if isinstance(value, str) and len(value) > 3 and "{" not in value and translated[key] != value}
    lines = browser.execute_script("return document.body.innerText").split("\n")
    return sorted({line.strip() for line in lines if line.strip() in words})


def test_the_browsers_language_is_spoken_and_settings_can_change_it(app):
    app.new_note("Einkaufen", "Milch und Brot", "--tag", "haushalt")
    app.new_note("Urlaub", "Brot backen lernen")
    app.start()
    german = make_browser(language="de-DE")
    try:
        open_app(german, app)
        wait(german, lambda d: d.execute_script("return document.documentElement.lang") == "de", message="the page is not German")
        assert text_of(german, "#new-note") == "Neue Notiz"
        assert untranslated(german, "de") == []
        search = by_css(german, "#search-input")
        search.send_keys("brot")
        wait(german, lambda d: by_css(d, "#list-count").text == "2 Notizen", message="the count is not German")
        assert untranslated(german, "de") == []
        open_app(german, app, "#view=settings")
        language = wait(german, lambda d: d.find_elements(By.ID, "language") and by_css(d, "#language"))
        assert untranslated(german, "de") == []
        assert Select(language).first_selected_option.get_attribute("value") == "", "it follows the browser"
        Select(language).select_by_value("fr")
        wait(german, lambda d: d.execute_script("return document.documentElement.lang") == "fr", message="choosing French did not apply")
        wait(german, lambda d: by_css(d, "#new-note").text == "Nouvelle note")
        wait(german, lambda d: d.find_elements(By.ID, "language"))
        assert untranslated(german, "fr") == []
        Select(by_css(german, "#language")).select_by_value("")
        wait(german, lambda d: d.execute_script("return document.documentElement.lang") == "de", message="back to the browser's language")
        assert page_errors(german) == []
    finally:
        german.quit()


def test_every_view_is_translated_and_accessible_in_every_language_and_theme(app):
    note = app.new_note("Plan 2027", "Some **text** and a [link](https://example.com).\n\n- [ ] task", "--tag", "a11y")
    app.cli("folder", "new", "Work")
    app.start()
    for tag, browser_language in (("en", "en-US"), ("es", "es-ES"), ("fr", "fr-FR"), ("de", "de-DE"), ("zh-Hans", "zh-CN")):
        browser = make_browser(language=browser_language)
        try:
            for scheme in ("light", "dark"):
                browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for name, route in {"home": "", "editor": f"#note={note}", "search": "#view=search&q=text", "settings": "#view=settings"}.items():
                    open_app(browser, app, route)
                    wait(browser, lambda d: d.execute_script("return document.documentElement.lang") == tag, message=f"{tag} not chosen")
                    if name == "settings":
                        wait(browser, lambda d: d.find_elements(By.ID, "language"))
                    if tag != "en":
                        assert untranslated(browser, tag) == [], f"{tag} {name}"
                    violations = axe_violations(browser)
                    assert violations == [], f"{tag} {scheme} {name}: {violations}"
            assert page_errors(browser) == []
        finally:
            browser.quit()


def test_the_apps_errors_come_in_the_pages_language(app):
    """The server words its errors in the language the page speaks (it sends Accept-Language),
    including one chosen in Settings over the browser's."""
    app.start()
    german = make_browser(language="de-DE")
    try:
        open_app(german, app, "#view=settings")
        wait(german, lambda d: d.execute_script("return document.documentElement.lang") == "de", message="the page is not German")
        register(german, "http://127.0.0.1:9")
        wait(german, lambda d: "Der Synchronisierungsserver ist nicht erreichbar" in by_css(d, "#account-error").text, timeout=30,
             message="the unreachable server is not said in German")
        Select(by_css(german, "#language")).select_by_value("es")
        wait(german, lambda d: d.execute_script("return document.documentElement.lang") == "es", message="choosing Spanish did not apply")
        wait(german, lambda d: d.find_elements(By.ID, "account-server"))
        register(german, "ftp://notes")
        wait(german, lambda d: "no es una dirección de servidor" in by_css(d, "#account-error").text, timeout=30,
             message="the address is not refused in Spanish")
        # The refusals themselves (502, 400) are logged as failed loads; nothing else may be.
        assert [error for error in page_errors(german) if "Failed to load resource" not in error] == []
    finally:
        german.quit()


def register(browser, server):
    """Fills Settings' account form afresh and asks to create the account."""
    for field, text in (("#account-server", server), ("#account-user", "grace"), ("#account-password", "a long password")):
        by_css(browser, field).clear()
        by_css(browser, field).send_keys(text)
    click(browser, "#register")
