"""Installing NoteTaker as the README says, then running it without the build folder.

`scripts/install` and `scripts/package` (both with --debug here, to keep the test run short: a
release build takes a quarter of an hour on two cores) put the executables into a clean
folder; the build folder is then moved away, and the installed `notetaker serve`,
`notetaker-server` and a sync between two devices must work from there alone. The systemd unit
in deploy/ is checked by `systemd-analyze verify` where systemd is installed.
"""

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import get, run, started, stop


def test_everything_is_in_place(installed):
    for root in (installed["prefix"], installed["unpacked"]):
        for name in ("notetaker", "notetaker-full", "notetaker-server"):
            executable = root / "bin" / name
            assert os.access(executable, os.X_OK), f"{executable} is missing"
            version = run(executable, "--version").stdout.strip()
            assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
        assert (root / "share" / "notetaker" / "notetaker-server.service").is_file()
    assert (installed["unpacked"] / "README.md").is_file()


@pytest.mark.parametrize("where", ["prefix", "unpacked"])
def test_the_web_app_serves_its_page_without_the_build_folder(installed, where):
    bin = installed[where] / "bin"
    store = installed["folder"] / f"web-{where}" / "NoteTaker.sqlite"
    run(bin / "notetaker", "--store", store, "new", "Shopping", "--body", "milk")
    process = subprocess.Popen([str(bin / "notetaker"), "--store", str(store), "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        match = started(process, r"running at (http://127\.0\.0\.1:\d+/)\?token=([A-Za-z0-9_-]+) ", "notetaker serve")
        url, key = match.group(1), match.group(2)
        status, kind, page = get(url, key)
        assert status == 200 and "text/html" in kind and '<script type="module" src="/js/app.js">' in page
        status, kind, script = get(url + "js/app.js", key)
        assert status == 200 and "javascript" in kind and "import" in script
        status, _, strings = get(url + "strings/de.json", key)
        assert status == 200 and json.loads(strings)
        status, _, notes = get(url + "api/v1/notes", key)
        assert status == 200 and "Shopping" in notes
        status, _, document = get(url + "api/v1/openapi.json", key)
        assert json.loads(document)["openapi"].startswith("3.")
    finally:
        stop(process, "notetaker serve")


def test_the_server_and_a_sync_without_the_build_folder(installed):
    bin = installed["prefix"] / "bin"
    folder = installed["folder"]
    # Configured as a unit file would: a settings file named by the environment, nothing on
    # the command line.
    settings = folder / "server.env"
    settings.write_text(f"# notetaker-server\nNOTETAKER_SERVER_DATA={folder / 'server'}\nNOTETAKER_SERVER_PORT=0\n"
                        "NOTETAKER_SERVER_REGISTRATION=closed\nNOTETAKER_SERVER_LOG_FORMAT=json\n")
    environment = dict(os.environ, NOTETAKER_SERVER_CONFIG=str(settings))
    run(bin / "notetaker-server", "account", "add", "ada", "--password-stdin", stdin="correct horse battery\n", env=environment)
    process = subprocess.Popen([str(bin / "notetaker-server")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    try:
        match = started(process, r"listening on (http://\S+) \(data in (\S+), registration (\w+)\)", "notetaker-server")
        server = match.group(1)
        assert (match.group(2), match.group(3)) == (str(folder / "server"), "closed")
        assert json.loads(process.stdout.readline())["message"] == "started"
        status, _, document = get(server + "/v1/openapi.json")
        assert status == 200 and json.loads(document)["openapi"].startswith("3.")
        laptop, phone = folder / "laptop" / "NoteTaker.sqlite", folder / "phone" / "NoteTaker.sqlite"
        for store in (laptop, phone):
            # An account the operator made has no end-to-end encryption: its owner allows that.
            run(bin / "notetaker", "--store", store, "account", "login", "--unencrypted", "--server", server, "--user", "ada",
                "--password-stdin", stdin="correct horse battery\n")
        run(bin / "notetaker", "--store", laptop, "new", "Packed without a build folder", "--body", "it syncs")
        run(bin / "notetaker", "--store", laptop, "sync")
        run(bin / "notetaker", "--store", phone, "sync")
        titles = [note["title"] for note in json.loads(run(bin / "notetaker", "--store", phone, "list", "--json").stdout)]
        assert titles == ["Packed without a build folder"]
    finally:
        stop(process, "notetaker-server")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_verifies(installed, tmp_path):
    unit = (installed["prefix"] / "share" / "notetaker" / "notetaker-server.service").read_text()
    assert "ExecStart=/usr/local/bin/notetaker-server " in unit
    checked = tmp_path / "notetaker-server.service"
    checked.write_text(unit.replace("/usr/local/bin/notetaker-server", str(installed["prefix"] / "bin" / "notetaker-server")))
    result = run("systemd-analyze", "verify", checked, check=False)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
    exposure = run("systemd-analyze", "security", "--offline=yes", checked).stdout
    level = float(re.search(r"Overall exposure level for \S+: (\d+\.\d+)", exposure).group(1))
    assert level <= 2.0, f"the unit's hardening slipped: exposure {level}\n{exposure[-2000:]}"
