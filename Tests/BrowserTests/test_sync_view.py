"""Sync as the app shows it: the indicator, a note changed on two devices, and the guard on Host."""
import http.client
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import unquote

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_safety_and_access import axe_violations
from conftest import App, answer, by_css, click, open_app, start_sync_server, stop_cleanly, text_of, wait


def test_a_conflict_shows_both_versions_and_resolves(app, browser, sync_server):
    other = App(Path(tempfile.mkdtemp(prefix="notetaker-other-")))
    app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    other.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    note = app.new_note("Shopping", "milk\neggs")
    app.cli("sync")
    other.cli("sync")
    app.cli("edit", note, "--body", "milk\nbrown eggs")
    other.cli("edit", note, "--body", "milk\nsix eggs")
    other.cli("sync")
    app.cli("sync")
    app.cli("sync", "settings", "--auto", "off")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#sync-indicator").text == "1 in conflict")
    wait(browser, lambda d: [version.text for version in d.find_elements(By.CSS_SELECTOR, ".conflict-version pre")]
         == ["milk\nbrown eggs", "milk\nsix eggs"], message="the conflict view does not show both versions")
    wait(browser, lambda d: by_css(d, "#note-sync-status").text == "Conflict")
    click(browser, ".conflict-buttons button:nth-child(2)")  # keep the other device's
    wait(browser, lambda d: by_css(d, "#note-body").get_attribute("value") == "milk\nsix eggs")
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, ".conflict"))
    assert app.cli_json("conflicts") == []
    shutil.rmtree(other.directory, ignore_errors=True)


def fill_account(browser, server, password="a long password"):
    """Fills Settings' account form afresh for the user grace (without a password: none)."""
    for field, text in (("#account-server", server), ("#account-user", "grace"), ("#account-password", password)):
        by_css(browser, field).clear()
        if text:
            by_css(browser, field).send_keys(text)


def save_recovery_code(browser):
    """Waits for a new account's recovery code, types its last group back as the dialog asks,
    and returns the code."""
    # Making the keys stretches the password at its full cost (a second or more on a busy machine).
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.recovery[open]"), timeout=60, message="no recovery code shown")
    code = text_of(browser, "#recovery-code")
    by_css(browser, "#recovery-check").send_keys(code.split("-")[-1].lower())
    click(browser, "#recovery-done")
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.recovery"), message="the recovery code stayed open")
    return code


def test_settings_log_in_and_sync_now(app, browser, sync_server):
    app.new_note("Goes up", "")
    app.start()
    open_app(browser, app, "#view=settings")
    fill_account(browser, sync_server)
    click(browser, "#register")
    # A new account is end-to-end encrypted: its recovery code is shown once, and stays until
    # its last group is typed back; Esc does not close it.
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.recovery[open]"), timeout=60, message="no recovery code shown")
    code = text_of(browser, "#recovery-code")
    assert re.fullmatch(r"[0-9A-Z]{5}(-[0-9A-Z]{5}){10}", code), code
    assert "cannot be read by anyone" in text_of(browser, "dialog.recovery .warning")
    assert axe_violations(browser) == [], "the recovery code's dialog"
    by_css(browser, "#recovery-check").send_keys(Keys.ESCAPE)
    by_css(browser, "#recovery-check").send_keys("ZZZZZ" if not code.endswith("ZZZZZ") else "00000")
    click(browser, "#recovery-done")
    wait(browser, lambda d: by_css(d, "#recovery-check-error").text == "That is not its last group. Look at the code again.",
         message="a wrong group is not said")
    assert browser.find_elements(By.CSS_SELECTOR, "dialog.recovery[open]"), "the code closed before it was confirmed"
    # The download is a text file with the code, the account and where to use it.
    download = by_css(browser, "#recovery-download")
    assert download.get_attribute("download") == "NoteTaker recovery code - grace.txt"
    text = unquote(download.get_attribute("href").split(",", 1)[1])
    assert code in text and "grace" in text and sync_server in text, text
    by_css(browser, "#recovery-check").clear()
    by_css(browser, "#recovery-check").send_keys(code.split("-")[-1].lower().replace("0", "o"))
    click(browser, "#recovery-done")
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.recovery"), message="the recovery code stayed open")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-now"), timeout=60, message="not logged in")
    assert text_of(browser, "#encryption-state") == "End-to-end encrypted: the server cannot read your notes"
    assert app.cli_json("account", "status")["encrypted"] is True
    click(browser, "#sync-now")
    wait(browser, lambda d: by_css(d, "#sync-indicator").text.startswith("Synced"), message="never synced")
    assert app.cli_json("sync", "status")["pending"] == 0
    # The account reads as words: no "null" where a value is missing (it once read "nullnullnull").
    shown = browser.execute_script("return document.getElementById('sync-section').innerText")
    assert "null" not in shown.lower(), shown
    click(browser, "#log-out")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#account-form"))
    # The password is lost: the recovery code sets a new one, and the notes are all there.
    fill_account(browser, sync_server, password=None)
    click(browser, "#recover-part summary")
    by_css(browser, "#recover-code").send_keys(code)
    by_css(browser, "#recover-new").send_keys("a new long password")
    by_css(browser, "#recover-confirm").send_keys("a new long password")
    click(browser, "#recover-submit")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-now") or by_css(d, "#recover-error").text, timeout=60,
         message="the recovery code did not log in")
    assert not browser.find_elements(By.CSS_SELECTOR, "#recover-error") or not text_of(browser, "#recover-error"), \
        text_of(browser, "#recover-error")
    # The code was seen by someone else: Settings makes a new one with the password.
    click(browser, "#new-code-part summary")
    by_css(browser, "#new-code-password").send_keys("a new long password")
    click(browser, "#new-code-make")
    new_code = save_recovery_code(browser)
    assert new_code != code
    # A new encryption key, for the password: everything goes up again sealed with it, and a
    # device that logs in later reads the notes.
    click(browser, "#rotate-keys-part summary")
    by_css(browser, "#rotate-keys-password").send_keys("not the password")
    click(browser, "#rotate-keys-make")
    wait(browser, lambda d: by_css(d, "#rotate-keys-error").text, timeout=60, message="a wrong password is not said")
    by_css(browser, "#rotate-keys-password").clear()
    by_css(browser, "#rotate-keys-password").send_keys("a new long password")
    click(browser, "#rotate-keys-make")
    wait(browser, lambda d: "(number 2)" in by_css(d, "#toast").text, timeout=60, message="no new key made")
    wait(browser, lambda d: app.cli_json("sync", "status")["pending"] == 0, timeout=60, message="the notes did not go up again")
    other = App(Path(tempfile.mkdtemp(prefix="notetaker-other-")))
    stale = other.run_cli("account", "recover", "--server", sync_server, "--user", "grace", "--password-stdin",
                          stdin=f"{code}\nyet another password\n")
    assert stale.returncode != 0, "the old code still works"
    other.cli("account", "login", "--server", sync_server, "--user", "grace", "--password-stdin", stdin="a new long password\n")
    other.cli("sync")
    assert [note["title"] for note in other.cli_json("list")] == ["Goes up"]
    shutil.rmtree(other.directory, ignore_errors=True)


def test_an_account_without_encryption_is_made_only_after_a_warning(app, browser, sync_server):
    app.start()
    open_app(browser, app, "#view=settings")
    fill_account(browser, sync_server)
    click(browser, "#account-unencrypted")
    click(browser, "#register")
    assert "can read every note" in answer(browser, choose=False)
    assert by_css(browser, "#account-form") and app.cli_json("account", "status")["loggedIn"] is False
    click(browser, "#register")
    answer(browser, choose=True)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-now"), timeout=60, message="not logged in")
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog.recovery"), "an unencrypted account has no recovery code"
    assert text_of(browser, "#encryption-state") == "Not end-to-end encrypted: whoever runs the server can read your notes"
    # Logging in again to it needs the same consent: without it the password is not sent.
    click(browser, "#log-out")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#account-form"))
    fill_account(browser, sync_server)
    click(browser, "#log-in")
    wait(browser, lambda d: "not end-to-end encrypted" in by_css(d, "#account-error").text, timeout=30,
         message="logging in to an unencrypted account was not refused")
    click(browser, "#account-unencrypted")
    click(browser, "#log-in")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-now"), timeout=60, message="not logged in")


def test_settings_lists_the_devices_logged_in_and_logs_one_out(app, browser, sync_server):
    phone = App(Path(tempfile.mkdtemp(prefix="notetaker-phone-")))
    app.cli("sync", "settings", "--device-name", "Study desktop", "--auto", "off")
    phone.cli("sync", "settings", "--device-name", "Lost phone")
    app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    phone.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    app.start()
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sessions li")) == 2, message="the two devices are not listed")
    devices = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#sessions .session-device")]
    assert sorted(devices) == ["Lost phone", "Study desktop (this device)"]
    # Only the other device has a button; this one logs out with "Log out" above.
    buttons = browser.find_elements(By.CSS_SELECTOR, "#sessions button")
    assert [button.get_attribute("aria-label") for button in buttons] == ["Log out Lost phone"]
    buttons[0].click()
    wait(browser, lambda d: [item.text for item in d.find_elements(By.CSS_SELECTOR, "#sessions .session-device")]
         == ["Study desktop (this device)"], message="the phone is still listed")
    refused = phone.run_cli("sync")
    assert refused.returncode != 0, refused.stdout
    assert app.cli_json("account", "status")["loggedIn"]
    shutil.rmtree(phone.directory, ignore_errors=True)


def test_settings_changes_the_password_and_the_other_devices_log_in_again(app, browser, sync_server):
    phone = App(Path(tempfile.mkdtemp(prefix="notetaker-phone-")))
    app.cli("sync", "settings", "--auto", "off")
    app.cli("account", "register", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    phone.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    app.start()
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#password-part"), message="no way to change the password")
    click(browser, "#password-part summary")
    by_css(browser, "#password-current").send_keys("correct horse")
    by_css(browser, "#password-new").send_keys("a new long password")
    by_css(browser, "#password-confirm").send_keys("a new long passwort")
    click(browser, "#password-change")
    wait(browser, lambda d: by_css(d, "#password-error").text == "The two new passwords differ. Nothing was changed.")
    by_css(browser, "#password-confirm").clear()
    by_css(browser, "#password-confirm").send_keys("a new long password")
    by_css(browser, "#password-current").clear()
    by_css(browser, "#password-current").send_keys("not the password")
    click(browser, "#password-change")
    wait(browser, lambda d: "current password is wrong" in by_css(d, "#password-error").text, timeout=60,
         message="a wrong current password is not said")
    by_css(browser, "#password-current").clear()
    by_css(browser, "#password-current").send_keys("correct horse")
    click(browser, "#password-change")
    wait(browser, lambda d: not d.find_element(By.CSS_SELECTOR, "#password-part").get_attribute("open"), timeout=60,
         message="the password was not changed")
    assert text_of(browser, "#password-error") == ""
    refused = phone.run_cli("sync")
    assert refused.returncode != 0 and "log in again" in refused.stderr.lower(), refused.stderr
    phone.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="a new long password\n")
    app.cli("sync")
    shutil.rmtree(phone.directory, ignore_errors=True)


def test_settings_logs_in_to_a_server_with_a_self_signed_certificate(app, browser, tmp_path):
    certificate, key = tmp_path / "server.pem", tmp_path / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=notes",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True)
    server, url = start_sync_server(tmp_path / "server", 0, "--tls-cert", str(certificate), "--tls-key", str(key))
    try:
        app.start()
        open_app(browser, app, "#view=settings")
        fill_account(browser, url)
        click(browser, "#register")
        wait(browser, lambda d: "certificate is not trusted" in by_css(d, "#account-error").text, timeout=30,
             message="the untrusted certificate is not explained")
        by_css(browser, "#account-ca").send_keys(str(certificate))
        click(browser, "#register")
        save_recovery_code(browser)
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#sync-now"), timeout=60, message="not logged in")
        assert app.cli_json("sync", "settings")["trustsOwnCertificates"] is True
        app.cli("sync")
    finally:
        stop_cleanly(server, "notetaker-server")


def test_another_host_name_is_refused(app):
    app.new_note("Private", "")
    app.start()
    port = int(app.url.rsplit(":", 1)[1].strip("/"))
    for host, expected in (("evil.example", 403), (f"evil.example:{port}", 403), (f"localhost:{port}", 200)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/v1/notes", headers={"Host": host, "Authorization": f"Bearer {app.key}"})
        response = connection.getresponse()
        body = response.read().decode()
        assert response.status == expected, (host, body)
        if expected == 403:
            assert "Private" not in body


def test_without_the_key_nothing_is_read_or_changed(app, sync_server):
    """The calls that found the hole, as another local user would make them: every one answers
    401, reads nothing, logs nothing in, and the store is as it was."""
    app.new_note("Private", "the diary")
    app.start()
    port = int(app.url.rsplit(":", 1)[1].strip("/"))
    calls = [
        ("GET", "/api/v1/export?format=json", None, {}),
        ("POST", "/api/v1/sync/account", {"server": sync_server, "username": "x", "password": "xxxxxxxx", "register": True}, {}),
        ("POST", "/api/v1/sync/now", None, {}),
        ("GET", "//api/v1/notes", None, {"Sec-Fetch-Site": "cross-site"}),
        ("GET", "//api/v1/notes", None, {}),
        ("GET", "/", None, {}),
        ("GET", "/?token=" + "A" * 43, None, {}),
    ]
    for method, path, body, headers in calls:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        payload = json.dumps(body) if body is not None else None
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        text = response.read().decode()
        assert response.status in (401, 403), (method, path, response.status, text)
        assert "the diary" not in text and "Private" not in text
    assert app.cli_json("sync", "settings")["serverURL"] is None, "no account was made"
    assert [note["title"] for note in app.cli_json("list")] == ["Private"]


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket, as `curl --unix-socket` speaks it."""

    def __init__(self, path):
        super().__init__("localhost", timeout=10)
        self.unix_path = str(path)

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(self.unix_path)


def get_through(path, address):
    """GET `address` through the Unix socket at `path`: the status and the text."""
    connection = UnixConnection(path)
    connection.request("GET", address)
    response = connection.getresponse()
    return response.status, response.read().decode()


def wait_for_socket(path, timeout=30):
    """Waits until the socket at `path` answers, failing with a message after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return get_through(path, "/api/v1/folders")
        except OSError as error:
            assert time.monotonic() < deadline, f"no app answered on {path} within {timeout} s: {error}"
            time.sleep(0.1)


def test_the_owners_unix_socket_needs_no_key_and_is_the_owners_alone(app):
    """`serve --socket`: the owner's scripts reach the API through a socket of mode 0600 without
    the key (the TCP port still asks for it); the socket goes when the app stops, one left by a
    killed app is replaced, and a live one or a plain file at the path is refused."""
    app.new_note("Through the socket", "no key needed")
    path = app.directory / "app.sock"
    app.start(0, "--socket", str(path))
    wait_for_socket(path)
    mode = os.lstat(path).st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600, oct(mode)
    status, text = get_through(path, "/api/v1/notes")
    assert status == 200 and "Through the socket" in text, (status, text)
    port = int(app.url.rsplit(":", 1)[1].strip("/"))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/v1/notes")
    assert connection.getresponse().status == 401, "the port still asks for the key"

    other = App(Path(tempfile.mkdtemp(prefix="notetaker-other-")))
    taken = other.run_cli("serve", "--port", "0", "--socket", str(path))
    assert taken.returncode != 0 and "another program is listening there" in taken.stderr, taken.stderr
    shutil.rmtree(other.directory, ignore_errors=True)

    app.stop()
    assert not path.exists(), "the socket went with the app"
    assert not list(app.directory.glob(".notetaker-socket-*")), "no private folder was left"

    app.start(0, "--socket", str(path))
    wait_for_socket(path)
    app.process.kill()
    app.process.wait(timeout=20)
    assert path.exists(), "a killed app leaves its socket"
    app.start(0, "--socket", str(path))
    assert wait_for_socket(path)[0] == 200, "the socket a killed app left is replaced"
    app.stop()

    plain = app.directory / "notes.txt"
    plain.write_text("mine")
    refused = app.run_cli("serve", "--port", "0", "--socket", str(plain))
    assert refused.returncode != 0 and "a file that is not a socket is there" in refused.stderr, refused.stderr
    assert plain.read_text() == "mine"


def test_settings_list_changes_from_the_server_that_could_not_be_applied(app, browser, sync_server):
    # A plaintext record from another client: the account has no encryption (an encrypted one
    # holds every record that is not sealed, whatever its numbers).
    app.cli("account", "register", "--unencrypted", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="correct horse\n")
    note = app.new_note("Plans", "kept")
    app.cli("sync")
    token = (app.directory / "NoteTaker.sync-token").read_text().strip()
    # A buggy device's folder: a sort order no integer holds.
    folder = str(uuid.uuid4())
    batch = {"requestId": str(uuid.uuid4()), "changes": [{
        "recordType": "folder", "recordId": folder, "operation": "save",
        "fields": {"name": "Evil", "icon": None, "sortOrder": 1e19, "createdAt": 1795000000,
                   "modifiedAt": 1795000000, "parentId": None}}]}
    host = sync_server.removeprefix("http://").rstrip("/")
    connection = http.client.HTTPConnection(host, timeout=10)
    connection.request("POST", "/v1/records/modify", body=json.dumps(batch),
                       headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 200, response.read()
    app.cli("sync")
    app.cli("sync", "settings", "--auto", "off")
    app.start()
    open_app(browser, app, "#view=settings")
    held = "return [...document.querySelectorAll('.held li')].map((item) => item.textContent)"
    wait(browser, lambda d: len(d.execute_script(held)) == 1 and "sortOrder" in d.execute_script(held)[0],
         message="Settings do not list the change that could not be applied")
    assert browser.execute_script(held)[0].startswith(f"folder {folder[:8]}"), browser.execute_script(held)
    wait(browser, lambda d: by_css(d, "#sync-indicator").text == "Sync problem")
    assert app.cli_json("show", note)["body"] == "kept"


def test_a_pending_note_reads_syncing_while_a_sync_is_under_way(app, browser, sync_server):
    app.cli("account", "register", "--server", sync_server, "--user", "lin", "--password-stdin", stdin="correct horse\n")
    app.cli("sync", "settings", "--auto", "off")
    note = app.new_note("Not sent yet", "")
    app.start()
    open_app(browser, app, f"#note={note}")
    wait(browser, lambda d: by_css(d, "#note-sync-status").text == "Waiting to sync")
    # Rows are not marked while their batch is in flight: the app's own sync under way says it.
    labels = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/syncstatus.js').then(({ syncData, syncView }) => {
          const state = syncData.status.state;
          const labels = [true, false].map(syncing => {
            state.syncing = syncing;
            return syncView({ status: 'pending' });
          });
          done(labels);
        });
    """)
    assert labels == ["Syncing", "Waiting to sync"]


def test_settings_says_when_the_server_was_restored_from_an_older_copy(app, browser):
    """The README's restore (stop, copy the data folder, and later put it back): Settings says so."""
    data = Path(tempfile.mkdtemp(prefix="notetaker-server-"))
    backup = Path(tempfile.mkdtemp(prefix="notetaker-server-backup-")) / "data"

    server, url = start_sync_server(data)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    try:
        app.cli("account", "register", "--server", url, "--user", "ada", "--password-stdin", stdin="correct horse\n")
        app.cli("sync", "settings", "--auto", "off")
        one = app.new_note("Plan", "v1")
        app.cli("sync")
        stop_cleanly(server, "notetaker-server")
        shutil.copytree(data, backup)
        server, _ = start_sync_server(data, port)
        app.cli("edit", one, "--body", "v2 after backup")
        app.cli("sync")
        stop_cleanly(server, "notetaker-server")
        shutil.rmtree(data)
        shutil.copytree(backup, data)
        server, _ = start_sync_server(data, port)
        assert "restored from an older copy" in app.cli("sync")
        app.start()
        open_app(browser, app, "#view=settings")
        notice = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#restored-server"), message="no word of the restored server")
        assert "restored from an older copy" in notice[0].text and "notes 1" in notice[0].text, notice[0].text
        assert "v2 after backup" in app.cli("show", one)
    finally:
        stop_cleanly(server, "notetaker-server")
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(backup.parent, ignore_errors=True)


def test_settings_encrypts_an_account_that_holds_notes(app, browser, sync_server):
    """An account without encryption, with notes on two devices: Settings converts it in place;
    the other device logs in again with the new password and keeps its unsent edit."""
    phone = App(Path(tempfile.mkdtemp(prefix="notetaker-phone-")))
    app.cli("sync", "settings", "--auto", "off")
    app.cli("account", "register", "--unencrypted", "--server", sync_server, "--user", "ada", "--password-stdin",
            stdin="correct horse\n")
    note = app.new_note("Diagnosis", "first opinion")
    app.cli("tag", "add", note, "Medical")
    app.cli("sync")
    phone.cli("account", "login", "--unencrypted", "--server", sync_server, "--user", "ada", "--password-stdin",
              stdin="correct horse\n")
    phone.cli("sync")
    phone.cli("edit", note, "--body", "first opinion\nsecond opinion")
    app.start()
    open_app(browser, app, "#view=settings")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#encrypt-part"), message="no way to turn encryption on")
    click(browser, "#encrypt-part summary")
    by_css(browser, "#encrypt-current").send_keys("correct horse")
    by_css(browser, "#encrypt-new").send_keys("correct horse")
    by_css(browser, "#encrypt-confirm").send_keys("correct horse")
    click(browser, "#encrypt-start")
    wait(browser, lambda d: "sent to the server as it is" in by_css(d, "#encrypt-error").text, message="the same password is not refused")
    for field in ("#encrypt-new", "#encrypt-confirm"):
        by_css(browser, field).clear()
        by_css(browser, field).send_keys("a new long password")
    click(browser, "#encrypt-start")
    assert "cannot be read by anyone" in answer(browser, choose=True)
    save_recovery_code(browser)
    wait(browser, lambda d: by_css(d, "#encryption-state").text == "End-to-end encrypted: the server cannot read your notes",
         timeout=60, message="the account is not shown encrypted")
    assert not browser.find_elements(By.CSS_SELECTOR, "#encrypt-part")
    wait(browser, lambda d: app.cli_json("sync", "status")["pending"] == 0, timeout=60, message="the notes did not go up sealed")
    assert phone.run_cli("sync").returncode != 0, "the phone's session ended"
    phone.cli("account", "login", "--server", sync_server, "--user", "ada", "--password-stdin", stdin="a new long password\n")
    phone.cli("sync")
    app.cli("sync")
    shown = app.cli_json("show", note)
    assert shown["body"] == "first opinion\nsecond opinion" and shown["tags"] == ["Medical"], shown
    shutil.rmtree(phone.directory, ignore_errors=True)
