"""The README's self-hosting sections, followed step by step with the installed executables.

Each step quotes a line of the README (checked to be there, so the two cannot drift apart) and
runs it in bash with HOME in a temporary folder and the installed executables first on PATH.
Where a line cannot run here as written, the step says what it changes: the server's address
(a free port on this machine instead of notes.example.com), the certificate (made by openssl
here, and given with --ca-file as the README says for a private one), the backup's date.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from conftest import ROOT, started

README = (ROOT / "README.md").read_text()
PASSWORD = "correct horse battery"


def readme(line):
    """`line` as the README has it, comments aside; the test fails if it is not there."""
    lines = [re.sub(r"\s+#.*$", "", text).strip() for text in README.splitlines()]
    assert line in lines, f"the README no longer says: {line}"
    return line


class Walk:
    def __init__(self, bin, home):
        self.home = home
        self.environment = dict(os.environ, HOME=str(home), PATH=f"{bin}:{os.environ['PATH']}", PASSWORD=PASSWORD)
        for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "NOTETAKER_SERVER_DATA", "NOTETAKER_SERVER_DATABASE"):
            self.environment.pop(name, None)

    def run(self, command, device=None, check=True):
        """Runs a line in bash; `device` names the device whose store the notetaker lines use."""
        environment = dict(self.environment)
        if device:
            environment["XDG_DATA_HOME"] = str(self.home / device)
        result = subprocess.run(["bash", "-c", command], env=environment, capture_output=True, text=True, timeout=120)
        if check:
            assert result.returncode == 0, f"{command}\n{result.stderr}"
        return result

    def start(self, command):
        process = subprocess.Popen(["bash", "-c", command], env=self.environment,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return process, started(process, r"listening on (https?://\S+)", command).group(1)


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)


def free_port():
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_readme_self_hosting_walkthrough(installed):
    home = Path(tempfile.mkdtemp(prefix="notetaker-readme-"))
    walk = Walk(installed["prefix"] / "bin", home)
    try:
        export = readme("export NOTETAKER_SERVER_DATA=~/notetaker-server")
        walk.environment["NOTETAKER_SERVER_DATA"] = walk.run(f"{export}; echo $NOTETAKER_SERVER_DATA").stdout.strip()
        assert walk.environment["NOTETAKER_SERVER_DATA"] == str(home / "notetaker-server")

        # HTTPS for other machines, with a certificate made here (so a private one: --ca-file).
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=notes",
                        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(home / "key.pem"), "-out", str(home / "cert.pem")],
                       check=True, capture_output=True, cwd=home)
        serve = readme("notetaker-server --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem \\")
        port = free_port()
        serve_here = f"cd ~ && exec {serve[:-2]} --registration closed".replace("--port 8443", f"--port {port}")
        server, url = walk.start(serve_here)
        url = url.replace("0.0.0.0", "127.0.0.1")
        try:
            walk.run(readme('echo "$PASSWORD" | notetaker-server account add ada --password-stdin'))
            # An account the operator made has no end-to-end encryption: its owner logs in allowing that.
            login = readme('echo "$PASSWORD" | notetaker account login --unencrypted --server https://notes.example.com --user ada --password-stdin')
            for device in ("laptop", "phone"):
                walk.run(login.replace("https://notes.example.com", url) + " --ca-file ~/cert.pem", device)
            walk.run('notetaker new "Packed lunch" --body "from the README"', "laptop")
            walk.run(readme("notetaker sync"), "laptop")
            walk.run(readme("notetaker sync"), "phone")
            assert "Packed lunch" in walk.run("notetaker list", "phone").stdout
            assert "waiting to sync 0" in walk.run(readme("notetaker sync status"), "phone").stdout
            assert "(this device)" in walk.run(readme("notetaker account sessions"), "phone").stdout

            # The operator's account commands.
            readme("notetaker-server account list [--json]")
            listed = json.loads(walk.run("notetaker-server account list --json").stdout)
            assert [account["username"] for account in listed] == ["ada"] and listed[0]["sessions"] == 2
            walk.run(readme("notetaker-server account quota ada 2048"))
            assert json.loads(walk.run("notetaker-server account list --json").stdout)[0]["quotaBytes"] == 2048 * 1_048_576

            # A password change from a device: the other logs in again.
            change = readme('''printf '%s\\n%s\\n' "$OLD" "$NEW" | notetaker account password --password-stdin''')
            walk.run(f'OLD="{PASSWORD}" NEW="a newer horse battery" && ' + change, "laptop")
            assert walk.run("notetaker sync", "phone", check=False).returncode == 1
            walk.environment["PASSWORD"] = "a newer horse battery"
            walk.run(login.replace("https://notes.example.com", url) + " --ca-file ~/cert.pem", "phone")

            # A backup while the server runs, a note after it, then the folder lost and restored.
            backup = readme("notetaker-server backup ~/backups/notetaker-$(date +%F)")
            walk.run(backup)
            walk.run('notetaker new "After the backup"', "laptop")
            walk.run("notetaker sync", "laptop")
        finally:
            stop(server)
        walk.run(readme("mv ~/notetaker-server ~/notetaker-server.old"))
        restore = readme("notetaker-server restore ~/backups/notetaker-2026-11-28 --data ~/notetaker-server")
        walk.run(restore.replace("2026-11-28", "$(date +%F)"))
        server, url2 = walk.start(serve_here)
        try:
            healed = walk.run("notetaker sync", "laptop").stdout
            assert "restored from an older copy" in healed, healed
            walk.run("notetaker sync", "phone")
            phone = walk.run("notetaker list", "phone").stdout
            assert "Packed lunch" in phone and "After the backup" in phone
            walk.run(readme('echo "$NEW" | notetaker-server account reset-password ada --password-stdin').replace("$NEW", "$PASSWORD"))
            assert walk.run("notetaker sync", "phone", check=False).returncode == 1
            walk.run(readme("notetaker-server account delete ada --yes"))
            assert json.loads(walk.run("notetaker-server account list --json").stdout) == []
            assert "After the backup" in walk.run("notetaker list", "phone").stdout, "a deleted account's devices keep their notes"
        finally:
            stop(server)
        assert re.fullmatch(r"\d+\.\d+\.\d+\n", walk.run("notetaker-server --version").stdout)
    finally:
        shutil.rmtree(home, ignore_errors=True)
