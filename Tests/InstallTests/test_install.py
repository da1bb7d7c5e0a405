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
import signal
import subprocess
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / ".build"


def run(*arguments, stdin=None, env=None, check=True):
    result = subprocess.run([str(a) for a in arguments], input=stdin, capture_output=True, text=True,
                            timeout=1800, env=env)
    if check:
        assert result.returncode == 0, f"{' '.join(map(str, arguments))} failed ({result.returncode}): {result.stderr[-3000:]}"
    return result


def started(process, pattern, name):
    """The first match of `pattern` in what `process` says, within a minute."""
    deadline = time.monotonic() + 60
    said = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        said.append(line)
        match = re.search(pattern, line)
        if match:
            return match
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"{name} did not start: {''.join(said)[-2000:]}")


def stop(process, name):
    process.send_signal(signal.SIGINT)
    try:
        process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"{name} did not stop within 20 s of Ctrl-C")
    assert process.returncode == 0, f"{name} exited with status {process.returncode}"


def get(url, key=None):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"} if key else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read().decode()


@pytest.fixture(scope="module")
def installed():
    """The executables installed by scripts/install and unpacked from scripts/package's
    archive; the build folder is away while the tests use them."""
    folder = Path(tempfile.mkdtemp(prefix="notetaker-install-"))
    prefix = folder / "prefix"
    said = run(ROOT / "scripts" / "install", "--debug", prefix).stdout
    assert f"in {prefix}/bin" in said
    archive = Path(run(ROOT / "scripts" / "package", "--debug", folder / "dist").stdout.strip().splitlines()[-1])
    assert re.fullmatch(r"notetaker-\d+\.\d+\.\d+-linux-\w+\.tar\.gz", archive.name), archive.name
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "unpacked", filter="data")
    unpacked = folder / "unpacked" / archive.name.removesuffix(".tar.gz")
    away = ROOT / ".build.moved-by-install-test"
    assert not away.exists(), f"{away} is left from an interrupted run: move it back to .build"
    BUILD.rename(away)
    try:
        yield {"prefix": prefix, "unpacked": unpacked, "folder": folder}
    finally:
        away.rename(BUILD)
        shutil.rmtree(folder, ignore_errors=True)


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
            run(bin / "notetaker", "--store", store, "account", "login", "--server", server, "--user", "ada",
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
