"""The sync server when things break, with real processes: PostgreSQL stopped mid-run (and a
node started while it is down), and the server's disk full (a small tmpfs).

What must hold: devices hear what is wrong at once (not after a minute), nothing is lost,
the health answer says 503 with the reason, the operator's log says what is wrong once and
again when it is over, and everything carries on when the database or the room is back.
The logs are read in JSON (--log-format json), which also checks that form and that a
request's line holds no token and no note text.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("NOTETAKER_BIN", ROOT / ".build" / "debug"))
PASSWORD = "correct horse battery\n"


class Server:
    """A notetaker-server process whose standard error is collected as it comes."""

    def __init__(self, *arguments, env=None):
        self.process = subprocess.Popen(
            [str(BIN / "notetaker-server"), "--port", "0", "--log-format", "json", *arguments],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        self.url = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern, timeout=60, what=None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                match = re.search(pattern, line)
                if match:
                    return match
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{what or pattern} did not appear in the server's log: {self.lines[-20:]}")

    def started(self):
        self.url = self.wait_for(r"listening on (http://\S+)", what="the server's start").group(1)
        return self

    def records(self):
        """The log's JSON lines."""
        return [json.loads(line) for line in list(self.lines) if line.startswith("{")]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                raise AssertionError("notetaker-server did not stop within 20 s of SIGTERM")


def health(url):
    try:
        with urllib.request.urlopen(url + "/v1/health", timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def notetaker(store, *arguments, stdin=None, check=True):
    # The timeout is the failure of a sync that hangs, which these tests look for.
    result = subprocess.run([str(BIN / "notetaker"), "--store", str(store), *map(str, arguments)],
                            input=stdin, capture_output=True, text=True, timeout=45)
    if check:
        assert result.returncode == 0, f"notetaker {' '.join(map(str, arguments))} failed: {result.stderr}"
    return result


def titles(store):
    return sorted(note["title"] for note in json.loads(notetaker(store, "list", "--json").stdout))


def eventually(condition, what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def errors(server):
    return [record for record in server.records() if record["level"] in ("error", "critical")]


def check_request_lines(server, secrets):
    requests = [record for record in server.records() if record["message"] == "request"]
    assert requests, "no request was logged"
    for record in requests:
        assert {"method", "route", "status", "ms", "time", "level", "logger"} <= record.keys(), record
        assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-", record["route"]), f"a path with ids was logged: {record}"
    text = "\n".join(server.lines)
    for secret in secrets:
        assert secret not in text, f"the log holds {secret!r}"


@pytest.fixture
def cluster():
    folder = Path(tempfile.mkdtemp(prefix="notetaker-pg-"))
    url = subprocess.run([str(ROOT / "scripts" / "postgres-cluster"), "start", str(folder)],
                         capture_output=True, text=True, check=True).stdout.strip()
    yield folder, url
    subprocess.run([str(ROOT / "scripts" / "postgres-cluster"), "stop", str(folder)], check=False)
    shutil.rmtree(folder, ignore_errors=True)


def postgres(command, folder):
    subprocess.run([str(ROOT / "scripts" / "postgres-cluster"), command, str(folder)], check=True, capture_output=True)


def test_postgres_stopped_mid_run(cluster, tmp_path):
    folder, url = cluster
    server = Server("--database", url).started()
    try:
        laptop, phone = tmp_path / "laptop" / "NoteTaker.sqlite", tmp_path / "phone" / "NoteTaker.sqlite"
        said = notetaker(laptop, "account", "register", "--server", server.url, "--user", "ada", "--password-stdin", stdin=PASSWORD)
        notetaker(laptop, "new", "Before the outage", "--body", "secret body text")
        notetaker(laptop, "sync")
        assert health(server.url) == (200, health(server.url)[1]) and health(server.url)[1]["database"] == "ok"

        postgres("stop", folder)
        status, answer = health(server.url)
        assert status == 503 and answer["status"] == "unavailable" and answer["database"] == "unreachable", answer
        assert "cannot reach its database" in answer["message"]

        notetaker(laptop, "new", "During the outage")
        failed = notetaker(laptop, "sync", check=False)
        assert failed.returncode != 0
        assert "cannot reach its database" in failed.stderr, failed.stderr
        assert "your changes wait" in failed.stderr.lower() or "kept here" in failed.stderr, failed.stderr
        notetaker(laptop, "sync", check=False)
        health(server.url)

        outage = [record for record in errors(server) if "cannot be reached" in record["message"]]
        assert len(outage) == 1, f"the outage was logged {len(outage)} times: {errors(server)}"
        assert not any("Generic description" in line for line in server.lines)

        postgres("resume", folder)
        eventually(lambda: health(server.url)[0] == 200, "the health answer's recovery")
        notetaker(laptop, "sync")
        notetaker(phone, "account", "login", "--server", server.url, "--user", "ada", "--password-stdin", stdin=PASSWORD)
        notetaker(phone, "sync")
        assert titles(phone) == ["Before the outage", "During the outage"]
        server.wait_for(r"works again", what="the recovery's log line")
        check_request_lines(server, ["secret body text", "Before the outage", "correct horse", "Bearer"])
        failed_login = notetaker(tmp_path / "other" / "NoteTaker.sqlite", "account", "login", "--server", server.url,
                                 "--user", "ada", "--password-stdin", stdin="wrong password\n", check=False)
        assert failed_login.returncode != 0
        server.wait_for(r'"message":"failed log-in"', what="the failed log-in's line")
        assert any(record.get("user") == "ada" and "client" in record for record in server.records() if record["message"] == "failed log-in")
        del said
    finally:
        server.stop()
    assert server.wait_for(r'"message":"stopped"', what="the stop's line")


def test_a_node_started_while_postgres_is_down_waits_for_it(cluster):
    folder, url = cluster
    subprocess.run([str(BIN / "notetaker-server"), "migrate", "--database", url], check=True, capture_output=True)
    postgres("stop", folder)
    server = Server("--database", url)
    try:
        server.wait_for(r"cannot be reached", what="the first failed attempt")
        time.sleep(2)
        assert server.process.poll() is None, f"the node exited while the database was down: {server.lines[-5:]}"
        postgres("resume", folder)
        server.started()
        assert health(server.url)[0] == 200
        server.wait_for(r"reachable; starting after", what="the recovery's log line")
        assert len([record for record in errors(server) if "cannot be reached" in record["message"]]) == 1
    finally:
        server.stop()


@pytest.fixture
def small_disk():
    """A 3 MB tmpfs: as root only (mount needs it); the test is skipped, saying so, otherwise."""
    folder = Path(tempfile.mkdtemp(prefix="notetaker-full-"))
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs", str(folder)], capture_output=True).returncode == 0
    if not mounted:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("a small tmpfs cannot be mounted here (needs root)")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)
    shutil.rmtree(folder, ignore_errors=True)


def fill(folder):
    """Fills the file system `folder` is on, leaving nothing free; the filler's path."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(descriptor)
    return filler


def test_the_disk_full(small_disk, tmp_path):
    data = small_disk / "server"
    environment = dict(os.environ, NOTETAKER_SERVER_DATA=str(data))
    subprocess.run([str(BIN / "notetaker-server"), "account", "add", "ada", "--password-stdin"],
                   input=PASSWORD, env=environment, check=True, capture_output=True, text=True)
    server = Server(env=environment).started()
    try:
        laptop = tmp_path / "laptop" / "NoteTaker.sqlite"
        # An account the operator made has no end-to-end encryption: its owner allows that.
        notetaker(laptop, "account", "login", "--unencrypted", "--server", server.url, "--user", "ada", "--password-stdin", stdin=PASSWORD)
        notetaker(laptop, "new", "Before the disk filled")
        notetaker(laptop, "sync")

        filler = fill(small_disk)
        for index in range(5):
            notetaker(laptop, "new", f"Tiny note {index}", "--body", "x" * 2000)
        scan = tmp_path / "scan.pdf"
        scan.write_bytes(os.urandom(200_000))
        notetaker(laptop, "attach", notetaker(laptop, "new", "With a scan").stdout.strip(), scan)
        failed = notetaker(laptop, "sync", check=False)
        assert failed.returncode != 0
        assert "no room left on its disk" in failed.stderr, failed.stderr
        status = notetaker(laptop, "sync", "status").stdout
        assert "no room left on its disk" in status, status
        status, answer = health(server.url)
        full = [record for record in errors(server) if "storage is full" in record["message"]]
        assert len(full) == 1, f"the full disk was logged {len(full)} times: {errors(server)}"

        filler.unlink()
        notetaker(laptop, "sync")
        server.wait_for(r"works again", what="the recovery's log line")
        phone = tmp_path / "phone" / "NoteTaker.sqlite"
        notetaker(phone, "account", "login", "--unencrypted", "--server", server.url, "--user", "ada", "--password-stdin", stdin=PASSWORD)
        notetaker(phone, "sync")
        assert titles(phone) == sorted(["Before the disk filled", "With a scan"] + [f"Tiny note {index}" for index in range(5)])
        with_scan = next(note for note in json.loads(notetaker(phone, "list", "--json").stdout) if note["title"] == "With a scan")
        assert "scan.pdf" in notetaker(phone, "attachments", with_scan["id"]).stdout
    finally:
        server.stop()
