"""Finding notes: folders and tags in the sidebar, search as you type, live updates, the keyboard."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.common.keys import Keys

from conftest import answer, by_css, click, make_browser, open_app, page_errors, screenshot, text_of, wait


def list_titles(browser):
    return [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#note-list .note-title")]


SIDEBAR_ENTRY = """
    for (const link of document.querySelectorAll('#sidebar a')) {
        if (link.querySelector('.nav-name').textContent === arguments[0]) return link;
    }
    return null;
"""


def sidebar_count(browser, text):
    return browser.execute_script(f"const link = (() => {{ {SIDEBAR_ENTRY} }})(); return link?.querySelector('.count')?.textContent ?? null;", text)


def open_sidebar_entry(browser, text):
    wait(browser, lambda d: d.execute_script(f"const link = (() => {{ {SIDEBAR_ENTRY} }})(); link?.click(); return Boolean(link);", text),
         message=f"no sidebar entry {text}")


def seed(app):
    app.cli("folder", "new", "Work")
    app.cli("folder", "new", "Projects", "--parent", "Work")
    app.new_note("Roadmap", "Plan the **next** release", "--folder", "Work/Projects", "--tag", "planning")
    app.new_note("Café meeting", "Discuss the naïve approach", "--folder", "Work", "--tag", "meetings")
    app.new_note("Groceries", "- milk\n- bread", "--tag", "home", "--pin")


@pytest.mark.screenshots
def test_folder_and_tag_navigation(app, browser):
    seed(app)
    app.start()
    open_app(browser, app)
    wait(browser, lambda d: (list_titles(d) or [""])[0].endswith("Groceries"), message="pinned notes come first")
    wait(browser, lambda d: sidebar_count(d, "Work") == "2")
    assert sidebar_count(browser, "Recent (7 days)") == "3", "Recent counts its notes as the other lists do"
    open_sidebar_entry(browser, "Work")
    wait(browser, lambda d: sorted(list_titles(d)) == ["Café meeting", "Roadmap"], message="the folder shows its notes and its subfolders'")
    open_sidebar_entry(browser, "Projects")
    wait(browser, lambda d: list_titles(d) == ["Roadmap"])
    open_sidebar_entry(browser, "#meetings")
    wait(browser, lambda d: list_titles(d) == ["Café meeting"])
    wait(browser, lambda d: by_css(d, "#list-title").text == "#meetings")
    open_sidebar_entry(browser, "Pinned")
    wait(browser, lambda d: len(list_titles(d)) == 1 and list_titles(d)[0].endswith("Groceries"))
    open_sidebar_entry(browser, "All notes")
    wait(browser, lambda d: len(list_titles(d)) == 3)
    screenshot(browser, "home")
    assert page_errors(browser) == []


def test_folders_are_created_renamed_and_notes_moved_by_dragging(app, browser):
    note = app.new_note("Loose note", "")
    app.start()
    open_app(browser, app)
    by_css(browser, "#new-folder").click()
    by_css(browser, "#folder-name").send_keys("Archive")
    by_css(browser, "#folder-save").click()
    wait(browser, lambda d: any(link.text.startswith("Archive") for link in d.find_elements(By.CSS_SELECTOR, "#folder-tree a")))
    # Drag the note onto the folder (HTML5 drag and drop, dispatched as the browser would).
    browser.execute_script("""
        const source = document.querySelector('#note-list .note-link');
        const target = [...document.querySelectorAll('#folder-tree a')].find((a) => a.textContent.startsWith('Archive'));
        const data = new DataTransfer();
        source.dispatchEvent(new DragEvent('dragstart', { dataTransfer: data, bubbles: true }));
        target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    """)
    archive = app.cli_json("folder", "list")[0]["id"]
    wait(browser, lambda d: app.cli_json("show", note)["folderId"] == archive, message="the dropped note was not moved")
    wait(browser, lambda d: sidebar_count(d, "Archive") == "1")
    # The Edit button shows on hover (or focus), so folder names keep their room.
    hovers = browser.execute_script("return matchMedia('(hover: hover)').matches")
    assert by_css(browser, "#folder-tree .folder-actions").is_displayed() != hovers
    ActionChains(browser).move_to_element(by_css(browser, "#folder-tree .folder-row")).perform()
    click(browser, "#folder-tree .folder-actions")
    name = by_css(browser, "#folder-name")
    name.clear()
    name.send_keys("Old things")
    by_css(browser, "#folder-save").click()
    wait(browser, lambda d: app.cli_json("folder", "list")[0]["name"] == "Old things")


@pytest.mark.screenshots
def test_search_as_you_type_ignores_accents_and_case(app, browser):
    seed(app)
    app.start()
    open_app(browser, app)
    search = by_css(browser, "#search-input")
    search.send_keys("CAFE")
    wait(browser, lambda d: list_titles(d) == ["Café meeting"], message="'CAFE' should find 'Café'")
    search.clear()
    search.send_keys("naive")
    wait(browser, lambda d: list_titles(d) == ["Café meeting"])
    mark = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview mark"), message="no highlighted match")[0]
    assert mark.text.lower() == "naïve"
    search.clear()
    search.send_keys('plan" OR (AND * -')
    wait(browser, lambda d: by_css(d, "#list-title").text.startswith("Results for"))
    assert page_errors(browser) == []
    search.clear()
    search.send_keys("plan")
    wait(browser, lambda d: list_titles(d) == ["Roadmap"], message="prefix search as you type")
    screenshot(browser, "search")


def test_search_for_several_words_phrases_and_odd_characters(app, browser):
    seed(app)
    app.new_note("Sourdough", "How to bake a loaf slowly, 100% rye")
    app.new_note("Notes on C++", "templates & friends")
    app.start()
    open_app(browser, app)
    search = by_css(browser, "#search-input")
    for query, expected in [("sourdough bake", ["Sourdough"]), ('"bake a loaf"', ["Sourdough"]), ('"loaf a bake"', []),
                            ("c++ templates", ["Notes on C++"]), ("100% rye", ["Sourdough"]), ("naive discuss", ["Café meeting"])]:
        search.clear()
        search.send_keys(query)
        wait(browser, lambda d: by_css(d, "#list-title").text.startswith("Results for") and list_titles(d) == expected,
             message=f"{query!r} should find {expected}")
    assert page_errors(browser) == []


def test_the_list_shows_plain_first_lines_folders_and_sorts(app, browser):
    app.cli("folder", "new", "Recipes")
    app.new_note("Bread", "# Sourdough **starter**\n\nfeed daily", "--folder", "Recipes")
    app.new_note("Chores", "- [ ] call the *plumber*\n- [x] bins")
    app.new_note("Budget", "| Item | Cost |\n| --- | ---: |\n| rent | 900 |")
    app.new_note("Apples", "See [the orchard](https://example.com/orchard) soon")
    app.start()
    open_app(browser, app)
    wait(browser, lambda d: len(list_titles(d)) == 4)
    expected = {"Bread": "Sourdough starter", "Chores": "call the plumber", "Budget": "Item · Cost", "Apples": "See the orchard soon"}
    wait(browser, lambda d: dict(zip(list_titles(d), [element.text for element in d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview")]))
         == expected, message="the first lines are not plain text")
    wait(browser, lambda d: [element.text for element in d.find_elements(By.CSS_SELECTOR, "#note-list .note-folder")] == ["in Recipes"],
         message="the note's folder is not shown")
    Select(by_css(browser, "#list-sort")).select_by_value("title")
    wait(browser, lambda d: list_titles(d) == ["Apples", "Bread", "Budget", "Chores"], message="sorting by title")
    Select(by_css(browser, "#list-sort")).select_by_value("created")
    wait(browser, lambda d: list_titles(d) == ["Apples", "Budget", "Chores", "Bread"], message="sorting by creation")
    by_css(browser, "#list-compact").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "#note-list .note-preview")[0].is_displayed()
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    wait(browser, lambda d: list_titles(d) == ["Apples", "Budget", "Chores", "Bread"], message="the sort is kept")
    assert by_css(browser, "#list-compact").is_selected()


def test_search_results_read_as_text_with_each_match(app, browser):
    filler = " ".join(f"word{n}" for n in range(40))
    app.new_note("Shopping", f"**Buy now**\n- [ ] milk, see [Project plan](https://example.com/plan)\n\n{filler}\n\n- [x] more milk later")
    app.start()
    open_app(browser, app)
    search = by_css(browser, "#search-input")
    search.send_keys("milk")
    preview = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview mark") and by_css(d, "#note-list .note-preview"),
                   message="no highlighted result")
    text = preview.get_attribute("textContent")
    assert "**" not in text and "[ ]" not in text and "](" not in text, f"Markdown shows in the snippet: {text!r}"
    assert [mark.text for mark in preview.find_elements(By.TAG_NAME, "mark")] == ["milk", "milk"], "each match is shown"
    assert " … " in text, "the second match has a passage of its own"
    line = float(browser.execute_script("return parseFloat(getComputedStyle(arguments[0]).lineHeight)", preview))
    assert preview.size["height"] > 1.5 * line, "a snippet may wrap"
    assert preview.size["height"] <= 4.2 * line, "but over four lines at most"


def test_search_counts_its_results_and_loads_more_than_fifty(app, browser):
    for number in range(60):
        app.new_note(f"Lentil soup {number}", "red lentils and cumin")
    app.start()
    open_app(browser, app, "#view=search&q=lentils")
    wait(browser, lambda d: len(list_titles(d)) == 50, message="the first 50 results")
    assert text_of(browser, "#list-count") == "More than 50 notes"
    # Scrolling to the end of the list loads the rest.
    browser.execute_script("document.getElementById('load-more').scrollIntoView()")
    wait(browser, lambda d: len(list_titles(d)) == 60, message="the rest of the results")
    assert text_of(browser, "#list-count") == "60 notes"
    assert not by_css(browser, "#load-more").is_displayed()


def test_tags_rename_merge_and_delete_in_the_app(app, browser):
    first = app.new_note("Bread", "", "--tag", "baking")
    second = app.new_note("Cake", "", "--tag", "cakes", "--tag", "sweet")
    app.start()
    open_app(browser, app, "#view=tag&id=baking")
    click(browser, "#tag-rename")
    field = by_css(browser, "#tag-name")
    field.clear()
    field.send_keys("Baking at home", Keys.ENTER)
    wait(browser, lambda d: app.cli_json("show", first)["tags"] == ["Baking at home"], message="the tag was not renamed")
    wait(browser, lambda d: by_css(d, "#list-title").text == "#Baking at home")
    # Renaming into another tag's name merges them, after asking.
    open_app(browser, app, "#view=tag&id=cakes")
    click(browser, "#tag-rename")
    field = by_css(browser, "#tag-name")
    field.clear()
    field.send_keys("baking at home", Keys.ENTER)
    assert "Merge #cakes into it" in answer(browser, True, message="merging asks first")
    wait(browser, lambda d: sorted(app.cli_json("show", second)["tags"]) == ["Baking at home", "sweet"], message="not merged")
    assert sorted(tag["name"] for tag in app.cli_json("tag", "list")) == ["Baking at home", "sweet"]
    open_app(browser, app, "#view=tag&id=sweet")
    click(browser, "#tag-delete")
    assert "Delete #sweet?" in answer(browser, True)
    wait(browser, lambda d: app.cli_json("show", second)["tags"] == ["Baking at home"], message="the tag was not deleted")
    assert app.cli_json("show", second)["title"] == "Cake", "the note stays"
    assert page_errors(browser) == []


def test_folders_collapse_and_trash_has_undo(app, browser):
    app.cli("folder", "new", "Work")
    app.cli("folder", "new", "Projects", "--parent", "Work")
    note = app.new_note("Keep me", "important")
    app.start()
    open_app(browser, app)
    wait(browser, lambda d: "Projects" in by_css(d, "#folder-tree").text)
    click(browser, "#folder-tree .folder-toggle")
    wait(browser, lambda d: not by_css(d, "#folder-tree .nav-list").is_displayed(), message="the folder did not collapse")
    wait(browser, lambda d: by_css(d, "#folder-tree .folder-toggle").get_attribute("aria-expanded") == "false")
    browser.refresh()
    wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
    wait(browser, lambda d: by_css(d, "#folder-tree .folder-toggle").get_attribute("aria-expanded") == "false", message="not kept")
    click(browser, "#folder-tree .folder-toggle")
    wait(browser, lambda d: by_css(d, "#folder-tree .nav-list").is_displayed())

    open_app(browser, app, f"#note={note}")
    click(browser, "#trash-note")
    wait(browser, lambda d: app.cli_json("show", note)["trashedAt"] is not None, message="not moved to the trash")
    click(browser, "#toast .toast-action")
    wait(browser, lambda d: app.cli_json("show", note)["trashedAt"] is None, message="Undo did not bring it back")
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Keep me", message="the note is not open again")


def test_the_note_opened_last_shows_though_an_earlier_one_answers_later(app, browser):
    """Opening one note, then another before the first arrived: the second shows, whichever
    answer comes last (the first once did, over the address that named the second). The
    page's fetch is slowed to make that order certain."""
    first = app.new_note("Slow to come", "first")
    second = app.new_note("Opened last", "second")
    app.start()
    open_app(browser, app)
    browser.execute_script("""
        const original = window.fetch;
        window.fetch = async (input, init = {}) => {
          const answer = await original(input, init);
          if (String(input).endsWith('/notes/' + arguments[0])) await new Promise((done) => setTimeout(done, 1500));
          return answer;
        };
        location.hash = '#note=' + arguments[0];
        setTimeout(() => { location.hash = '#note=' + arguments[1]; }, 100);
    """, first, second)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-title")
         and by_css(d, "#note-title").get_attribute("value") == "Opened last", message="the second note never showed")
    time.sleep(2)  # past the first note's answer
    assert by_css(browser, "#note-title").get_attribute("value") == "Opened last", "the first note's late answer took its place"


def test_what_cannot_be_undone_is_asked_in_the_apps_own_dialog(app, browser):
    """Deleting for good, emptying the trash and deleting a folder ask first in the app's dialog
    (not the browser's confirm()): Cancel has the focus, so Enter or Esc never deletes."""
    app.cli("folder", "new", "Old")
    first = app.new_note("Draft one", "x")
    second = app.new_note("Draft two", "y")
    app.cli("rm", first)
    app.cli("rm", second)
    app.start()
    open_app(browser, app, f"#view=trash&note={first}")
    click(browser, "#editor-region button.danger")
    dialog = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.ask[open]"), message="nothing asked")[0]
    assert dialog.get_attribute("role") == "alertdialog"
    assert browser.switch_to.active_element.get_attribute("id") == "ask-cancel", "the safe answer has the focus"
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.ask"), message="Esc did not close it")
    assert app.cli_json("show", first)["title"] == "Draft one", "Esc deleted the note"
    click(browser, "#editor-region button.danger")
    assert "for good" in answer(browser, True)
    wait(browser, lambda d: first not in [note["id"] for note in app.cli_json("trash")], message="not deleted for good")

    open_app(browser, app, "#view=trash")
    click(browser, ".list-action button")
    assert "every note in the trash" in answer(browser, False)
    assert [note["id"] for note in app.cli_json("trash")] == [second], "Cancel emptied the trash"
    click(browser, ".list-action button")
    answer(browser, True)
    wait(browser, lambda d: app.cli_json("trash") == [], message="the trash was not emptied")

    open_app(browser, app)
    wait(browser, lambda d: "Old" in by_css(d, "#folder-tree").text)
    click(browser, "#folder-tree .folder-actions")
    click(browser, "#folder-delete")
    assert "Old" in answer(browser, True)
    wait(browser, lambda d: app.cli_json("folder", "list") == [], message="the folder was not deleted")
    assert page_errors(browser) == []


def test_a_note_opened_from_search_shows_what_was_searched(app, browser):
    note = app.new_note("Trip", "Packing list\n\nWe visit the **Café** near the harbour.\n\nLater: the old café by the station.")
    app.start()
    open_app(browser, app, f"#view=search&q=cafe%20harbour&note={note}")
    marks = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-preview mark"), message="nothing is marked")
    assert [mark.text for mark in marks] == ["Café", "harbour", "café"]
    assert by_css(browser, "#preview-toggle").get_attribute("aria-pressed") == "true"
    # The text is marked too, without changing it (a CSS highlight over the editor's rows).
    marked_text = """
        const found = CSS.highlights.get('search-match');
        return found ? [...found].map((range) => range.toString()) : [];
    """
    wait(browser, lambda d: d.execute_script(marked_text) == ["Café", "harbour", "café"], message="the text is not marked")
    assert browser.execute_script("return document.getElementById('note-body').value").count("Café") == 1
    # Typing clears the marks; the preview stays as chosen.
    by_css(browser, "#note-body").send_keys(Keys.END, " More.")
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#note-preview mark"), message="the marks outlive an edit")
    assert browser.execute_script(marked_text) == [], "the text's marks outlive an edit"


def test_search_filters_by_tag_folder_and_pinned(app, browser):
    seed(app)
    app.new_note("Second groceries", "milk again", "--tag", "home")
    app.start()
    open_app(browser, app, "#view=search&q=milk")
    wait(browser, lambda d: sorted(list_titles(d))[-1] == "Second groceries" and len(list_titles(d)) == 2)
    click(browser, "#filter-pinned")
    wait(browser, lambda d: len(list_titles(d)) == 1 and list_titles(d)[0].endswith("Groceries"))
    click(browser, "#filter-pinned")
    wait(browser, lambda d: by_css(d, "#filter-tag").send_keys("#meetings") or True)
    wait(browser, lambda d: list_titles(d) == [])
    # Esc ends the search, and its filters with it: the next search starts without them.
    search = by_css(browser, "#search-input")
    search.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: "tag=" not in d.execute_script("return location.hash"), message="the tag filter outlived the search")
    search.send_keys("milk")
    wait(browser, lambda d: len(list_titles(d)) == 2, message="the next search kept the last one's filter")
    # So does going to a list from the sidebar.
    by_css(browser, "#filter-tag").send_keys("#meetings")
    wait(browser, lambda d: list_titles(d) == [])
    open_sidebar_entry(browser, "All notes")
    wait(browser, lambda d: len(list_titles(d)) == 4)
    search.send_keys("milk")
    wait(browser, lambda d: len(list_titles(d)) == 2, message="a search after the sidebar kept the last one's filter")


def test_a_change_from_the_command_line_appears_live(app, browser):
    app.new_note("Existing", "")
    app.start()
    open_app(browser, app)
    app.new_note("Written in the terminal", "hello from the CLI")
    wait(browser, lambda d: "Written in the terminal" in list_titles(d), message="the new note never appeared")
    note = app.cli_json("list")[0]["id"]
    browser.get(app.url + f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-body").get_attribute("value") == "hello from the CLI")
    app.cli("edit", note, "--body", "changed in the terminal")
    wait(browser, lambda d: by_css(d, "#note-body").get_attribute("value") == "changed in the terminal", message="the open note was not updated")
    app.cli("rm", note)
    wait(browser, lambda d: sidebar_count(d, "All notes") == "1", message="the count did not follow")


def test_a_keyboard_only_session(app, browser):
    app.new_note("Alpha", "first")
    app.new_note("Beta", "second")
    app.start()
    open_app(browser, app)
    keys = ActionChains(browser)
    keys.key_down(Keys.ALT).send_keys("n").key_up(Keys.ALT).perform()
    wait(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "note-title", message="Alt+N focuses the new note's title")
    ActionChains(browser).send_keys("Typed by keyboard", Keys.ENTER, "some ").perform()
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("b").key_up(Keys.CONTROL).perform()
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser, lambda d: by_css(d, "#save-state").text == "Saved")
    notes = {note["title"]: note for note in app.cli_json("list")}
    assert notes["Typed by keyboard"]["body"] == "some **bold text**"
    # Search with "/", then arrow down into the results and open one with Enter.
    browser.execute_script("document.activeElement.blur()")
    ActionChains(browser).send_keys("/").perform()
    assert browser.switch_to.active_element.get_attribute("id") == "search-input"
    ActionChains(browser).send_keys("beta").perform()
    wait(browser, lambda d: list_titles(d) == ["Beta"])
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    focused = browser.switch_to.active_element
    assert "note-link" in focused.get_attribute("class")
    outline = browser.execute_script("const s = getComputedStyle(arguments[0]); return s.outlineStyle + ' ' + s.outlineWidth", focused)
    assert outline.startswith("solid") and not outline.endswith(" 0px"), f"focus must be visible, got {outline}"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, lambda d: by_css(d, "#note-title").get_attribute("value") == "Beta")
    # Esc in the title leaves the editor too: the next key does not land in the title.
    by_css(browser, "#note-title").click()
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser, lambda d: d.switch_to.active_element.get_attribute("id") != "note-title", message="Esc stayed in the title")
    ActionChains(browser).send_keys("x").perform()
    assert by_css(browser, "#note-title").get_attribute("value") == "Beta"
    # The toolbar is one tab stop; arrows move inside it.
    browser.execute_script("document.querySelector('[data-tool=bold]').focus()")
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.switch_to.active_element.get_attribute("data-tool") == "italic"
    # Every control can be reached with Tab.
    reachable = set()
    browser.execute_script("document.body.focus()")
    for _ in range(80):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        element = browser.switch_to.active_element
        reachable.add("toolbar" if element.get_attribute("data-tool") else element.get_attribute("id") or element.text)
    for control in ("search-input", "new-note", "new-folder", "note-title", "note-body", "toolbar", "pin-toggle", "tag-input"):
        assert control in reachable, f"{control} cannot be reached with Tab"


def test_search_inside_words_and_in_japanese(app, browser):
    app.new_note("Morning", "A cup of coffee before the standup")
    app.new_note("旅行", "東京タワーに行きました。夜景がきれいでした。")
    app.new_note("Tea", "green tea only")
    app.start()
    open_app(browser, app)
    search = by_css(browser, "#search-input")
    search.send_keys("ffee")
    wait(browser, lambda d: by_css(d, "#list-title").text.startswith("Results for") and list_titles(d) == [],
         message="a word search should not find part of a word")
    click(browser, "#filter-contains")
    wait(browser, lambda d: list_titles(d) == ["Morning"], message="'Inside words' should find 'coffee' for 'ffee'")
    mark = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview mark"), message="no marked text")[0]
    assert mark.text == "ffee"
    click(browser, "#note-list .note-link")
    wait(browser, lambda d: [m.text for m in d.find_elements(By.CSS_SELECTOR, "#note-preview mark")] == ["ffee"],
         message="the opened note should mark the text inside the word")
    click(browser, "#filter-contains")
    search = by_css(browser, "#search-input")
    search.clear()
    search.send_keys("夜景")
    wait(browser, lambda d: list_titles(d) == ["旅行"], message="a Japanese word inside a sentence should be found")
    mark = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .note-preview mark"), message="no marked word")[0]
    assert mark.text == "夜景"
    assert page_errors(browser) == []


def test_the_page_fits_the_window_views_open_at_their_top_and_long_names_show_whole(app):
    long_name = "Reading notes from the long winter of twenty twenty-six, part one"
    app.cli("folder", "new", long_name)
    note = app.new_note("A long note", "\n\n".join(f"Paragraph {n} of a note long enough to scroll." for n in range(120)))
    app.start()
    for width, height, phone in ((1280, 800, False), (390, 844, True)):
        browser = make_browser(width, height, phone=phone)
        try:
            open_app(browser, app)
            overflow = browser.execute_script("return document.documentElement.scrollHeight - window.innerHeight")
            assert overflow <= 0, f"the page is {overflow}px taller than a {width}px window with little in it"
            open_app(browser, app, f"#note={note}")
            wait(browser, lambda d: by_css(d, "#note-body").is_displayed())
            browser.execute_script("window.scrollTo(0, 400)")
            wait(browser, lambda d: d.execute_script("return window.scrollY") > 0, message="the note does not scroll")
            browser.execute_script("location.hash = '#view=settings'")
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-section"))
            assert browser.execute_script("return window.scrollY") == 0, "Settings opens where the note was scrolled to"
        finally:
            browser.quit()
    browser = make_browser(1280, 800)
    try:
        open_app(browser, app)
        wait(browser, lambda d: d.execute_script(SIDEBAR_ENTRY, long_name))
        title = browser.execute_script(SIDEBAR_ENTRY.replace("return link;", "return link.querySelector('.nav-name').title;"), long_name)
        assert title == long_name, "a folder name cut short cannot be read whole"
    finally:
        browser.quit()
