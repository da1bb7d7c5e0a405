"""Writing notes: create, format with the toolbar, preview, autosave across reloads."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import answer, by_css, click, open_app, page_errors, screenshot, text_of, wait


FONT_SIZE = "return parseFloat(getComputedStyle(arguments[0]).fontSize)"


def saved(browser):
    return wait(browser, lambda d: by_css(d, "#save-state").text == "Saved", message="the note was never saved")


def open_note(app, browser, title, text):
    """A note made with the command line, opened in the page: its id and its text element."""
    note = app.new_note(title, text)
    app.start()
    open_app(browser, app, f"#note={note}")
    return note, wait(browser, lambda d: by_css(d, "#note-body"))


def test_create_a_note_and_it_is_in_the_store(app, browser):
    app.start()
    open_app(browser, app)
    by_css(browser, "#new-note").click()
    title = wait(browser, lambda d: d.switch_to.active_element if d.switch_to.active_element.get_attribute("id") == "note-title" else None)
    title.send_keys("Shopping")
    title.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys("eggs and flour")
    saved(browser)
    notes = app.cli_json("list")
    assert [(note["title"], note["body"]) for note in notes] == [("Shopping", "eggs and flour")]
    wait(browser, lambda d: "Shopping" in by_css(d, "#note-list").text, message="the new note is not in the list")
    assert page_errors(browser) == []


@pytest.mark.screenshots
def test_toolbar_formats_the_selection_and_the_preview_renders_it(app, browser):
    note, body = open_note(app, browser, "Formatting", "make this strong")
    browser.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(10, 16);", body)
    by_css(browser, "[data-tool='bold']").click()
    assert body.get_attribute("value") == "make this **strong**"
    body.send_keys(Keys.END, Keys.ENTER, Keys.ENTER)
    by_css(browser, "[data-tool='checklist']").click()
    body.send_keys("buy milk", Keys.ENTER, Keys.ENTER)
    by_css(browser, "[data-tool='heading']").click()
    body.send_keys("Title here")
    by_css(browser, "#preview-toggle").click()
    preview = by_css(browser, "#note-preview")
    wait(browser, lambda d: preview.find_elements(By.CSS_SELECTOR, "strong") and preview.find_elements(By.CSS_SELECTOR, "h2"))
    wait(browser, lambda d: by_css(d, "#note-preview strong").text == "strong")
    assert preview.find_element(By.CSS_SELECTOR, "li.task input[type=checkbox]") is not None
    # A heading is as large in the text as in the preview.
    sizes = [browser.execute_script(FONT_SIZE, by_css(browser, selector)) for selector in ("#note-body > .md-h2", "#note-preview h2")]
    assert sizes[0] == sizes[1] and sizes[0] > browser.execute_script(FONT_SIZE, body), sizes
    saved(browser)
    assert app.cli_json("show", note)["body"] == "make this **strong**\n\n- [ ] buy milk\n\n## Title here"
    screenshot(browser, "editor")


def test_a_new_note_left_empty_is_not_kept(app, browser):
    existing = app.new_note("Existing", "text")
    app.start()
    open_app(browser, app)
    by_css(browser, "#new-note").click()
    wait(browser, lambda d: len(app.cli_json("list")) == 2, message="New note made no note")
    # Clicked, left empty: another New note, then opening another note.
    by_css(browser, "#new-note").click()
    wait(browser, lambda d: len(app.cli_json("list")) == 2, message="the first empty note was kept")
    title = wait(browser, lambda d: d.switch_to.active_element if d.switch_to.active_element.get_attribute("id") == "note-title" else None)
    title.send_keys("Worth keeping")
    saved(browser)
    by_css(browser, "#new-note").click()
    wait(browser, lambda d: len(app.cli_json("list")) == 3, message="the third New note made no note")
    click(browser, f"#note-list .note-link[data-note-id='{existing}']")
    wait(browser, lambda d: sorted(note["title"] for note in app.cli_json("list")) == ["Existing", "Worth keeping"],
         message=f"empty notes were kept: {app.cli_json('list')}")


ROWS_TEXT = "return [...document.querySelectorAll('#note-body > div')].map((row) => row.textContent).join('\\n')"


def test_formatting_shows_while_typing_and_boxes_tick_in_the_text(app, browser):
    long_line = "A long line that wraps " * 12
    note, body = open_note(app, browser, "Styled", f"# Plan\n\nSome **bold**, _slanted_ and `code`.\n\n- [ ] call Ada\n- [x] book the room\n\n```\n# not a heading\n```\n\n{long_line}")
    wait(browser, lambda d: d.execute_script(ROWS_TEXT) == body.get_attribute("value"), message="the rows do not hold the text")
    assert body.find_element(By.CSS_SELECTOR, ".md-h1 .md-heading").text == "Plan"
    assert body.find_element(By.CSS_SELECTOR, ".md-strong").text == "bold"
    assert body.find_element(By.CSS_SELECTOR, ".md-em").text == "slanted"
    assert body.find_element(By.CSS_SELECTOR, ".md-code").text == "code"
    assert body.find_element(By.CSS_SELECTOR, ".md-done").text.strip() == "book the room"
    assert len(body.find_elements(By.CSS_SELECTOR, ".md-codeblock")) == 3, "a fence's lines are code, not a heading"
    assert not body.find_elements(By.CSS_SELECTOR, ".md-h1 + .md-h1")
    # Headings are drawn larger than the text, as they will read.
    heading = browser.execute_script(FONT_SIZE, body.find_element(By.CSS_SELECTOR, ".md-h1"))
    text = browser.execute_script(FONT_SIZE, body.find_elements(By.CSS_SELECTOR, "#note-body > div")[2])
    assert heading >= 1.4 * text, (heading, text)
    # A real click on the drawn box ticks it.
    body.find_element(By.CSS_SELECTOR, ".md-box").click()
    wait(browser, lambda d: "- [x] call Ada" in body.get_attribute("value"), message="clicking the box did not tick it")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#note-body .md-done")) == 2)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert "- [ ] call Ada" in body.get_attribute("value"), "a tick is one step of undo"
    # Ctrl+Enter on a task's line ticks it; typing is drawn as it goes.
    body.send_keys(Keys.CONTROL, Keys.HOME)
    body.send_keys(Keys.DOWN, Keys.DOWN, Keys.DOWN, Keys.DOWN)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    wait(browser, lambda d: "- [x] call Ada" in body.get_attribute("value"), message="Ctrl+Enter did not tick the task")
    body.send_keys(Keys.CONTROL, Keys.END)
    body.send_keys(Keys.ENTER, "more **strong** words")
    wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#note-body .md-strong")] == ["bold", "strong"])
    assert browser.execute_script(ROWS_TEXT) == body.get_attribute("value")
    # A line typed into a heading becomes one, larger, as it is typed.
    body.send_keys(Keys.ENTER, "## Next steps")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-body > .md-h2"), message="the typed heading is not drawn as one")
    assert browser.execute_script(FONT_SIZE, by_css(browser, "#note-body > .md-h2")) > text
    saved(browser)
    stored = app.cli_json("show", note)["body"]
    assert "- [x] call Ada" in stored and stored.endswith("more **strong** words\n## Next steps")
    assert page_errors(browser) == []


def test_editing_keys_work_in_the_styled_text(app, browser):
    note, body = open_note(app, browser, "Keys", "# Title\nfirst line\nsecond line")
    body.click()
    # Backspace at a line's start joins it to the line above; Delete at a line's end, the next.
    browser.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(19, 19);", body)
    body.send_keys(Keys.BACKSPACE)
    assert body_value(browser) == "# Title\nfirst linesecond line"
    body.send_keys(Keys.ENTER)
    assert body_value(browser) == "# Title\nfirst line\nsecond line"
    # Typing over a selection that spans lines replaces it; the caret goes on after it.
    browser.execute_script("arguments[0].setSelectionRange(2, 13);", body)
    body.send_keys("New")
    assert body_value(browser) == "# New line\nsecond line"
    body.send_keys(" big")
    assert body_value(browser) == "# New big line\nsecond line"
    # Words typed are one step of undo each; what was typed over comes back with the first.
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "# New  line\nsecond line"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "# Title\nfirst line\nsecond line"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "# New  line\nsecond line"
    # Ctrl+Backspace deletes a word, Home and Shift+End select a line to type over.
    body.send_keys(Keys.CONTROL, Keys.END)
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.BACKSPACE).key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "# New  line\nsecond "
    body.send_keys(Keys.HOME, Keys.SHIFT, Keys.END)
    body.send_keys("replaced")
    assert body_value(browser) == "# New  line\nreplaced"
    # Pasted text goes in as text, one step of undo.
    browser.execute_script("""
        const data = new DataTransfer();
        data.setData('text/plain', ' and\\r\\npasted');
        arguments[0].dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertFromPaste', dataTransfer: data, bubbles: true, cancelable: true }));
    """, body)
    assert body_value(browser) == "# New  line\nreplaced and\npasted"
    assert browser.execute_script(ROWS_TEXT) == body_value(browser)
    # Copying takes the text itself, markers and all; a cut is one step of undo.
    clipboard = """
        const data = new DataTransfer();
        arguments[0].setSelectionRange(0, 10);
        arguments[0].dispatchEvent(new ClipboardEvent(arguments[1], { clipboardData: data, bubbles: true, cancelable: true }));
        return data.getData('text/plain');
    """
    assert browser.execute_script(clipboard, body, "copy") == "# New  lin"
    assert browser.execute_script(clipboard, body, "cut") == "# New  lin"
    assert body_value(browser) == "e\nreplaced and\npasted"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "# New  line\nreplaced and\npasted"
    body.send_keys(Keys.CONTROL, Keys.END)
    # An input method composes in the page; what it leaves is read into the text.
    browser.execute_script("""
        const body = arguments[0];
        body.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }));
        body.lastElementChild.append(document.createTextNode(' 東京'));
        body.dispatchEvent(new CompositionEvent('compositionend', { data: '東京', bubbles: true }));
    """, body)
    assert body_value(browser) == "# New  line\nreplaced and\npasted 東京"
    assert browser.execute_script(ROWS_TEXT) == body_value(browser)
    saved(browser)
    assert app.cli_json("show", note)["body"] == "# New  line\nreplaced and\npasted 東京"
    assert page_errors(browser) == []


def test_links_between_notes_typed_followed_and_listed_back(app, browser):
    groceries = app.new_note("Groceries", "milk, eggs")
    plan = app.new_note("Weekly plan", "Shopping: ")
    app.start()
    open_app(browser, app, f"#note={plan}")
    body = wait(browser, lambda d: by_css(d, "#note-body"))
    body.click()
    body.send_keys(Keys.CONTROL, Keys.END)
    body.send_keys("see [[Groc")
    wait(browser, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#link-suggestions li")] == ["Groceries"],
         message="typing [[ does not offer the title")
    body.send_keys(Keys.ENTER)
    assert body_value(browser) == f"Shopping: see [Groceries](note:{groceries})"
    # A title typed whole with ]] becomes a link by id too; one that matches no note stays as written.
    body.send_keys(" and [[groceries]] or [[Recipes]]")
    wait(browser, lambda d: body_value(d) == f"Shopping: see [Groceries](note:{groceries}) and [Groceries](note:{groceries}) or [[Recipes]]",
         message=f"typed links were not resolved: {body_value(browser)!r}")
    saved(browser)
    # In the preview a link opens its note, which lists where it is linked from.
    by_css(browser, "#preview-toggle").click()
    link = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#note-preview a[href='#note={groceries}']"), message="no link")[0]
    link.click()
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Groceries", message="the link did not open the note")
    backlink = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".backlink-list li"), message="no backlinks")[0]
    assert backlink.text.startswith("Weekly plan — Shopping: see Groceries and Groceries or [[Recipes]]"), backlink.text
    backlink.find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Weekly plan")
    # [[Recipes]] leads nowhere yet: following it offers to make the note, and links to it.
    missing = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview a[href='#wiki=Recipes']"), message="no wiki link")[0]
    missing.click()
    assert "Recipes" in answer(browser, True, message="no offer to make the note")
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Recipes", message="the new note is not open")
    recipes = next(note["id"] for note in app.cli_json("list") if note["title"] == "Recipes")
    wait(browser, lambda d: app.cli_json("show", plan)["body"].endswith(f"or [Recipes](note:{recipes})"), timeout=20,
         message=f"the [[link]] was not turned into a link to the new note: {app.cli_json('show', plan)['body']!r}")
    assert page_errors(browser) == []


def test_checklists_tick_in_the_preview_and_save_through_the_edit_path(app, browser):
    note = app.new_note("Packing", "# Trip\n\n- [ ] passport\n- [x] tickets\n  - [ ] seat\n\n```\n- [ ] not a task\n```\n\n> - [ ] quoted")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body"))
    by_css(browser, "#preview-toggle").click()
    boxes = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview li.task input[type=checkbox]") if len(
        d.find_elements(By.CSS_SELECTOR, "#note-preview li.task input[type=checkbox]")) == 4 else None, message="four task boxes")
    assert [box.is_selected() for box in boxes] == [False, True, False, False]
    assert [box.is_enabled() for box in boxes] == [True] * 4
    assert "done" in boxes[1].find_element(By.XPATH, "..").get_attribute("class")
    # Meanwhile another device changes the title line: the tick merges with it.
    app.cli("edit", note, "--body", "# Trip to Lisbon\n\n- [ ] passport\n- [x] tickets\n  - [ ] seat\n\n```\n- [ ] not a task\n```\n\n> - [ ] quoted")
    for index in [0, 2, 3]:
        # The preview is drawn again after each tick: find the box afresh.
        def tick(d, index=index):
            box = d.find_elements(By.CSS_SELECTOR, "#note-preview li.task input[type=checkbox]")[index]
            if not box.is_selected():
                box.click()
            return True
        wait(browser, tick, message=f"box {index} could not be ticked")
        wait(browser, lambda d, index=index: d.find_elements(By.CSS_SELECTOR, "#note-preview li.task input[type=checkbox]")[index].is_selected(),
             message=f"box {index} does not stay ticked")
    saved(browser)
    expected = "# Trip to Lisbon\n\n- [x] passport\n- [x] tickets\n  - [x] seat\n\n```\n- [ ] not a task\n```\n\n> - [x] quoted"
    wait(browser, lambda d: app.cli_json("show", note)["body"] == expected, timeout=20,
         message=f"the ticks did not save: {app.cli_json('show', note)['body']!r}")
    wait(browser, lambda d: "done" in by_css(d, "#note-preview li.task").get_attribute("class"), message="a ticked item is not shown done")
    assert page_errors(browser) == []


def test_offline_the_app_says_what_happened_in_words_and_keeps_what_was_typed(app, browser):
    note, body = open_note(app, browser, "Offline", "before")
    app.stop()
    body.send_keys(Keys.END, " typed while offline")
    state = wait(browser, lambda d: by_css(d, "#save-state").text if by_css(d, "#save-state").text.startswith("Not saved") else None,
                 message="the editor never said the note was not saved")
    assert "null" not in state and "cannot reach NoteTaker" in state, state
    toasts = text_of(browser, "#toast")
    assert "null" not in toasts, toasts
    draft = browser.execute_script(f"return localStorage.getItem('notetaker.draft.{note}')")
    assert "typed while offline" in draft
    # Back online (the app again, on the same address), what was typed saves on its own.
    app.start(port=int(app.url.rstrip("/").rsplit(":", 1)[1]))
    wait(browser, lambda d: by_css(d, "#save-state").text == "Saved", timeout=30, message="the note never saved once back online")
    assert app.cli_json("show", note)["body"] == "before typed while offline"


def body_value(browser):
    return by_css(browser, "#note-body").get_attribute("value")


def test_undo_and_redo_survive_toolbar_actions_and_shortcuts(app, browser):
    note, body = open_note(app, browser, "Undo", "")
    body.click()
    body.send_keys("plain words")
    browser.execute_script("arguments[0].setSelectionRange(6, 11);", body)
    by_css(browser, "[data-tool='bold']").click()
    assert body_value(browser) == "plain **words**"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("i").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "plain **_words_**"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "plain **words**", "undo takes back the shortcut"
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "plain words", "undo takes back the toolbar button"
    ActionChains(browser).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
    assert body_value(browser) == "plain **words**", "redo puts it back, once"
    saved(browser)
    assert app.cli_json("show", note)["body"] == "plain **words**"


def test_enter_continues_lists_and_tab_indents_them(app, browser):
    note, body = open_note(app, browser, "Lists", "")
    body.click()
    body.send_keys("- [ ] eggs", Keys.ENTER, "milk", Keys.ENTER, Keys.TAB, "oat", Keys.ENTER)
    body.send_keys(Keys.SHIFT, Keys.TAB)
    body.send_keys("bread", Keys.ENTER, Keys.ENTER, "after the list", Keys.ENTER)
    body.send_keys("> quoted", Keys.ENTER, "more", Keys.ENTER, Keys.ENTER, "1. one", Keys.ENTER, "two")
    expected = ("- [ ] eggs\n- [ ] milk\n  - [ ] oat\n- [ ] bread\n\nafter the list\n"
                "> quoted\n> more\n\n1. one\n2. two")
    assert body_value(browser) == expected
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert body_value(browser) != expected, "list edits are undoable"
    # Tab outside a list moves on, as keyboard users expect.
    browser.execute_script("arguments[0].value = 'not a list'; arguments[0].setSelectionRange(3, 3);", body)
    body.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("id") != "note-body"


def test_a_pasted_picture_is_attached_where_the_caret_is(app, browser):
    note, body = open_note(app, browser, "Pasted", "before\n")
    body.click()
    body.send_keys(Keys.END)
    browser.execute_script("""
        const bytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
        arguments[0].dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    """, body)
    wait(browser, lambda d: "](attachment:" in body_value(d), message="the pasted picture is not in the text")
    assert body_value(browser).startswith("before\n")
    assert "![Pasted image " in body_value(browser)
    wait(browser, lambda d: len(app.cli_json("show", note).get("attachments", [])) == 1, timeout=20, message="nothing was attached")
    saved(browser)


def test_keyboard_shortcuts_format_without_the_mouse(app, browser):
    note, body = open_note(app, browser, "Shortcuts", "word")
    browser.execute_script("arguments[0].focus(); arguments[0].select();", body)
    body.send_keys(Keys.CONTROL, "i")
    body.send_keys(Keys.END, Keys.ENTER)
    body.send_keys(Keys.CONTROL, Keys.SHIFT, "8")
    body.send_keys("item")
    assert body.get_attribute("value") == "_word_\n- item"


def test_autosave_survives_a_reload(app, browser):
    note, body = open_note(app, browser, "Draft", "")
    body.send_keys("first thought")
    saved(browser)
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    assert wait(browser, lambda d: by_css(d, "#note-body")).get_attribute("value") == "first thought"


def test_nothing_is_lost_when_the_page_closes_before_the_save(app, browser):
    note, body = open_note(app, browser, "Quick", "")
    body.send_keys("typed just before closing")
    browser.get("about:blank")  # leave at once: the debounce has not fired yet
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and app.cli_json("show", note)["body"] != "typed just before closing":
        time.sleep(0.1)
    assert app.cli_json("show", note)["body"] == "typed just before closing"


def test_an_unsent_edit_is_restored_from_this_device(app, browser):
    note = app.new_note("Offline", "")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body"))
    # The server never got this edit (as if the tab died offline); the copy on this device did.
    browser.execute_script("localStorage.setItem(arguments[0], JSON.stringify({title: 'Offline', body: 'kept locally'}))", f"notetaker.draft.{note}")
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    assert wait(browser, lambda d: by_css(d, "#note-body")).get_attribute("value") == "kept locally"
    saved(browser)
    assert app.cli_json("show", note)["body"] == "kept locally"


def test_a_notes_menu_duplicates_downloads_and_prints_it(app, browser):
    note = app.new_note("Bread", "flour\n\n**water**", "--tag", "baking")
    app.start()
    open_app(browser, app, f"#note={note}")
    click(browser, "#note-menu summary")
    wait(browser, lambda d: d.execute_script("return document.getElementById('note-menu').open"), message="the menu did not open")
    markdown = browser.execute_script("return document.getElementById('export-note-markdown').href")
    assert markdown.endswith(f"/api/v1/export?format=markdown&note={note}")
    assert browser.execute_script("return document.getElementById('export-note-pdf').href").endswith(f"/api/v1/export?format=pdf&note={note}")
    downloaded = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(async (r) => done([r.status, r.headers.get('content-type'), await r.text()]));
    """, markdown)
    assert downloaded[0] == 200 and downloaded[1].startswith("text/markdown") and "**water**" in downloaded[2], downloaded
    # Print shows the note as its preview does, without the app around it.
    browser.execute_script("window.printed = 0; window.print = () => { window.printed += 1; };")
    click(browser, "#print-note")
    wait(browser, lambda d: d.execute_script("return window.printed") == 1, message="print was not asked for")
    assert browser.execute_script("return document.querySelector('#print-area h1').textContent") == "Bread"
    assert browser.execute_script("return document.querySelector('#print-area strong')?.textContent") == "water"
    assert browser.execute_script("return getComputedStyle(document.getElementById('print-area')).display") == "none", \
        "the print copy shows on screen"
    click(browser, "#note-menu summary")
    click(browser, "#duplicate-note")
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Bread (copy)", message="the copy did not open")
    copies = [n for n in app.cli_json("list") if n["title"] == "Bread (copy)"]
    assert len(copies) == 1 and copies[0]["tags"] == ["baking"], copies
    assert app.cli_json("show", copies[0]["id"])["body"] == "flour\n\n**water**"


def test_a_single_line_break_shows_unless_turned_off_in_settings(app, browser):
    note = app.new_note("Poem", "roses are red\nviolets are blue")
    app.start()
    open_app(browser, app)
    browser.get(f"{app.entry}#note={note}")
    click(browser, "#preview-toggle")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview p br"), message="a single line break should show by default")
    browser.get(f"{app.entry}#view=settings")
    box = wait(browser, lambda d: d.find_elements(By.ID, "line-breaks") and by_css(d, "#line-breaks"), message="no line-break setting")
    assert box.is_selected()
    assert "CommonMark" in text_of(browser, "#line-breaks-hint")
    box.click()
    wait(browser, lambda d: app.cli_json("preferences")["lineBreaks"] is False, message="the setting was not kept")
    browser.get(f"{app.entry}#note={note}")
    click(browser, "#preview-toggle")
    wait(browser, lambda d: "violets" in by_css(d, "#note-preview").text and not d.find_elements(By.CSS_SELECTOR, "#note-preview p br"),
         message="the preview still breaks the line")
    assert page_errors(browser) == []


ROW_SHOWN = "return arguments[0].children[arguments[1]].innerText"


def test_markers_show_only_on_the_line_being_edited_and_note_links_read_by_title(app, browser):
    target = app.new_note("Groceries", "milk")
    text = f"Plan **bold** and `code`\nSee [Groceries](note:{target}) today\n## Later"
    note, body = open_note(app, browser, "Live", text)
    wait(browser, lambda d: d.execute_script(ROWS_TEXT) == text, message="the rows do not hold the text")
    # Away from the editor every line reads as it will print, a link to a note as [[Title]].
    assert browser.execute_script(ROW_SHOWN, body, 0) == "Plan bold and code"
    assert browser.execute_script(ROW_SHOWN, body, 1) == "See Groceries today"
    link = body.find_element(By.CSS_SELECTOR, ".md-notelink")
    assert browser.execute_script("return getComputedStyle(arguments[0], '::before').content", link) == '"[["'
    # The line with the caret shows its Markdown; the note link stays [[Title]] until the caret is in it.
    browser.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(4, 4)", body)
    wait(browser, lambda d: d.execute_script(ROW_SHOWN, body, 0) == "Plan **bold** and `code`", message="the edited line hides its markers")
    assert browser.execute_script(ROW_SHOWN, body, 2).strip() == "Later", "another line shows them"
    browser.execute_script("arguments[0].setSelectionRange(arguments[1], arguments[1])", body, text.index("See") + 2)
    wait(browser, lambda d: d.execute_script(ROW_SHOWN, body, 1) == "See [Groceries](note:" + target + ") today" or
         d.execute_script(ROW_SHOWN, body, 1) == "See Groceries today", message="the link's line")
    assert browser.execute_script(ROW_SHOWN, body, 0) == "Plan bold and code", "the line left hides its markers again"
    browser.execute_script("arguments[0].setSelectionRange(arguments[1], arguments[1])", body, text.index("Groceries]") + 3)
    wait(browser, lambda d: d.execute_script(ROW_SHOWN, body, 1) == f"See [Groceries](note:{target}) today",
         message="the caret in the link does not show it as written")
    # Typing keeps the line being edited drawn with its markers, and the text is the Markdown.
    body.send_keys(Keys.END, " now")
    wait(browser, lambda d: body.get_attribute("value") == text.replace(" today", " today now"))
    # The caret left the link for the line's end: the line is being edited, the link reads by title again.
    assert browser.execute_script(ROW_SHOWN, body, 1) == "See Groceries today now"
    assert body.find_elements(By.CSS_SELECTOR, "#note-body > div")[1].get_attribute("data-caret") is not None
    saved(browser)
    # Renaming the linked note renames the link, here too.
    app.cli("edit", target, "--title", "Shopping list")
    wait(browser, lambda d: f"[Shopping list](note:{target})" in body.get_attribute("value"), message="the link did not follow the rename")
    body.send_keys(Keys.CONTROL, Keys.HOME)
    wait(browser, lambda d: d.execute_script(ROW_SHOWN, body, 1) == "See Shopping list today now")
    assert app.cli_json("show", note)["body"] == f"Plan **bold** and `code`\nSee [Shopping list](note:{target}) today now\n## Later"
    assert page_errors(browser) == []


def test_tables_line_up_and_task_boxes_are_boxes_in_the_text(app, browser):
    text = "| Item | Price |\n|------|------:|\n| Tea | 3 |\n| Shortbread biscuits | 12 |\n\n- [ ] call Ada\n- [x] book the room"
    note, body = open_note(app, browser, "Table", text)
    wait(browser, lambda d: d.execute_script(ROWS_TEXT) == text, message="the rows do not hold the text")
    rows = body.find_elements(By.CSS_SELECTOR, "#note-body > .md-table-row")
    assert len(rows) == 4, "the delimiter row is a row of the table, where the caret can reach it"
    # The cells of every row start at the same place, as a table's columns do.
    starts = [[round(cell.rect["x"]) for cell in row.find_elements(By.CSS_SELECTOR, ".md-cell")] for row in rows]
    assert starts[0] == starts[1] == starts[2] == starts[3], starts
    assert rows[1].rect["height"] < rows[0].rect["height"], "the delimiter row is drawn thin"
    boxes = body.find_elements(By.CSS_SELECTOR, ".md-box")
    sizes = [(round(box.rect["width"]), round(box.rect["height"])) for box in boxes]
    assert all(abs(width - height) <= 1 and width > 8 for width, height in sizes), f"task boxes are not drawn as boxes: {sizes}"
    assert browser.execute_script("return getComputedStyle(arguments[0], '::after').content", boxes[1]) == '"✓"'
    boxes[0].click()
    wait(browser, lambda d: "- [x] call Ada" in body.get_attribute("value"), message="clicking the drawn box did not tick it")
    saved(browser)
    assert app.cli_json("show", note)["body"] == text.replace("- [ ] call Ada", "- [x] call Ada")
    assert page_errors(browser) == []
