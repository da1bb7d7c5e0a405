"""Both HTTP APIs do what their OpenAPI documents say, checked by schemathesis.

schemathesis (PyPI) reads each document and sends thousands of generated requests, valid
and invalid, to the real executables: `notetaker serve` (with its key) and
`notetaker-server` (with a session). A server error, an answer the document does not
declare, a valid request refused or an invalid one accepted fails the run. The seed is
fixed, so a failure replays (`SCHEMATHESIS_SEED` picks another; `SCHEMATHESIS_EXAMPLES`
sets how many cases per operation).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BIN = Path(os.environ.get("NOTETAKER_BIN", ROOT / ".build" / "debug"))
SEED = os.environ.get("SCHEMATHESIS_SEED", "1")
EXAMPLES = os.environ.get("SCHEMATHESIS_EXAMPLES", "20")


def start(arguments, pattern, what):
    """Starts a server; the match of `pattern` in what it prints when it listens."""
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        said.append(line)
        match = re.search(pattern, line)
        if match:
            return process, match
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"{what} did not start: {''.join(said)[-2000:]}")


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def schemathesis(config, url, folder, *options):
    """Runs schemathesis on the document at `url` (in `folder`, where it keeps its files);
    fails with its report unless it found nothing."""
    command = ["python3", str(HERE / "run_schemathesis.py"), "--config-file", str(HERE / config), "run", url, "--seed", SEED,
               "--max-examples", EXAMPLES, "--generation-database", "none", "--no-color", "--workers", "2",
               "--request-timeout", "20", *options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=1800, cwd=folder)
    summary = result.stdout[-1500:]
    print(summary)
    assert result.returncode == 0, f"schemathesis found failures (seed {SEED}):\n{result.stdout[-20000:]}\n{result.stderr[-3000:]}"


@pytest.fixture
def folder():
    path = Path(tempfile.mkdtemp(prefix="notetaker-contract-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_the_local_app_api_is_what_its_document_says(folder):
    process, match = start([str(BIN / "notetaker"), "--store", str(folder / "NoteTaker.sqlite"), "serve", "--port", "0"],
                           r"running at (http://127\.0\.0\.1:\d+/)\?token=([A-Za-z0-9_-]+) ", "notetaker serve")
    url, key = match.group(1), match.group(2)
    try:
        schemathesis("web.toml", f"{url}api/v1/openapi.json", folder, "-H", f"Authorization: Bearer {key}")
    finally:
        stop(process)


def register(server, username):
    request = urllib.request.Request(
        f"{server}/v1/accounts", data=json.dumps({"username": username, "password": "correct horse battery"}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["token"]


def test_the_sync_server_api_is_what_its_document_says(folder):
    process, match = start([str(BIN / "notetaker-server"), "--data", str(folder / "server"), "--port", "0", "--log-level", "warning"],
                           r"listening on (http://\S+)", "notetaker-server")
    server = match.group(1).rstrip("/")
    document = f"{server}/v1/openapi.json"
    ending = ["--include-operation-id", "logout", "--include-operation-id", "endSession", "--include-operation-id", "changePassword"]
    try:
        everything_else = ["--exclude-operation-id", "logout", "--exclude-operation-id", "endSession",
                           "--exclude-operation-id", "changePassword"]
        schemathesis("server.toml", document, folder, "-H", f"Authorization: Bearer {register(server, 'contract')}", *everything_else)
        # Last, the operations that can end the session in use, with an account of their own.
        schemathesis("server.toml", document, folder, "-H", f"Authorization: Bearer {register(server, 'ending')}", *ending)
    finally:
        stop(process)
