"""What the install tests share: the executables installed into a clean folder (once for the
whole run), with the build folder moved away while the tests use them."""

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


@pytest.fixture(scope="session")
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


