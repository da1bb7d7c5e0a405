"""A device of an end-to-end encrypted account locked from Settings and unlocked with the password."""
from selenium.webdriver.common.by import By

from conftest import by_css, click, open_app, wait


def test_settings_locks_this_device_and_unlocks_it_with_the_password(app, browser, sync_server):
    app.cli("sync", "settings", "--auto", "off")
    app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    note = app.cli("new", "Locked plan", "--body", "before").strip()
    app.cli("sync")
    app.start()
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#lock-device"), message="no way to lock this device")
    click(browser, "#lock-device")
    click(browser, "#ask-confirm")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#unlock-form"), timeout=30, message="the device does not show it is locked")
    wait(browser, lambda d: "this device is locked" in by_css(d, "#encryption-state").text,
         message="the encryption line does not say the device is locked")
    # Nothing that needs the keys is offered while locked: no sync, no password change, no new key.
    for part in ("#sync-now", "#password-part", "#rotate-keys-part", "#lock-device"):
        assert not browser.find_elements(By.CSS_SELECTOR, part), part
    assert app.cli_json("account", "status")["locked"] is True

    # Work goes on while locked: a change made now redraws Settings' sync facts, but not over
    # a password being typed, and goes up once the device is unlocked.
    by_css(browser, "#unlock-password").send_keys("not the password")
    app.cli("edit", note, "--body", "written while locked")
    wait(browser, lambda d: app.cli_json("account", "status")["sync"]["pending"] == 1, message="the edit was not kept")
    click(browser, "#unlock-action")
    wait(browser, lambda d: "does not open" in by_css(d, "#unlock-error").text, timeout=60, message="a wrong password is not said")
    assert app.cli_json("account", "status")["locked"] is True
    by_css(browser, "#unlock-password").clear()
    by_css(browser, "#unlock-password").send_keys("correct horse")
    click(browser, "#unlock-action")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#lock-device"), timeout=60, message="the device was not unlocked")
    # Sending the edit made while locked redraws Settings, so the line is read under a wait.
    wait(browser, lambda d: by_css(d, "#encryption-state").text == "End-to-end encrypted: the server cannot read your notes",
         message="the device does not say it is encrypted and unlocked")
    wait(browser, lambda d: app.cli_json("account", "status")["sync"]["pending"] == 0, timeout=60,
         message="the edit made while locked did not go up")
