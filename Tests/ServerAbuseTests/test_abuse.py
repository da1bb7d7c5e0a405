"""The real notetaker-server under abuse on loopback, with at most 1,024 open files: push
streams by the thousand, idle connections, bodies trickled a byte at a time, parallel password
guesses and an over-quota upload, while another account syncs normally. Each account's devices
connect from their own loopback address (127.0.0.0/8 is all this machine's), as people on
their own networks do. Every wait is bounded; the figures are printed (pytest -s)."""

import concurrent.futures
import hashlib
import http.client
import json
import os
import pathlib
import resource
import select
import socket
import subprocess
import tempfile
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = ROOT / ".build" / "debug" / "notetaker-server"
PASSWORD = "correct horse battery"


def limit_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def start_server(data):
    process = subprocess.Popen(
        [str(SERVER), "--data", str(data), "--port", "0", "--quota-mb", "1", "--log-level", "warning"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, preexec_fn=limit_files, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stderr.readline()
        if "notetaker-server listening on http://127.0.0.1:" in line:
            return process, int(line.split("http://127.0.0.1:")[1].split(" ")[0])
    process.kill()
    raise AssertionError("the server did not start within 60 s")


def request(port, method, path, body=None, token=None, raw=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    payload = json.dumps(body) if body is not None else raw
    start = time.monotonic()
    connection.request(method, path, body=payload, headers=headers)
    response = connection.getresponse()
    data = response.read()
    elapsed = (time.monotonic() - start) * 1000
    connection.close()
    return response.status, data, elapsed


def register(port, name):
    status, data, _ = request(port, "POST", "/v1/accounts", {"username": name, "password": PASSWORD})
    assert status == 201, data
    return json.loads(data)["token"]


def connect(port, source="127.0.0.1"):
    return socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))


def closed_by_server(sockets, wait=5):
    """The sockets the server has closed (they read as ended) within `wait` seconds."""
    deadline = time.monotonic() + wait
    closed = set()
    while time.monotonic() < deadline:
        readable, _, _ = select.select([s for s in sockets if s not in closed], [], [], 0.5)
        for sock in readable:
            try:
                if sock.recv(1) == b"":
                    closed.add(sock)
            except OSError:
                closed.add(sock)
    return closed


def open_stream(port, token, source="127.0.0.1"):
    """Opens a push stream; returns (socket, HTTP status)."""
    sock = connect(port, source)
    sock.sendall(f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    status = int(sock.recv(64).split(b" ")[1])
    return sock, status


def normal_sync(port, token):
    note = {"requestId": str(uuid.uuid4()), "changes": [{
        "recordType": "note", "recordId": str(uuid.uuid4()), "operation": "save", "fields": {
            "title": "ordinary", "body": "still syncing", "createdAt": 1795000000, "modifiedAt": 1795000000,
            "isPinned": False, "folderId": None, "tagIds": [], "trashedAt": None}}]}
    status, _, up = request(port, "POST", "/v1/records/modify", note, token)
    assert status == 200
    status, _, down = request(port, "GET", "/v1/changes", token=token)
    assert status == 200
    return up + down


def test_server_holds_under_abuse():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    data = pathlib.Path(tempfile.mkdtemp(prefix="notetaker-abuse-"))
    server, port = start_server(data)
    sockets = []
    try:
        bystander = register(port, "bystander")
        tokens = [register(port, f"user{index}") for index in range(50)]
        normal_sync(port, bystander)

        # 1,000 push streams asked for, 20 per account from its own address: the server takes 500 in all.
        statuses = []
        for index in range(1000):
            sock, status = open_stream(port, tokens[index % 50], f"127.0.1.{index % 50 + 1}")
            statuses.append(status)
            if status == 200:
                sockets.append(sock)
            else:
                sock.close()
        accepted = statuses.count(200)
        refused = statuses.count(429)
        assert accepted == 500 and refused == 500, (accepted, refused)

        # 300 idle connections on top, from one address: it holds 100, the rest are closed as they open.
        idle = [connect(port, "127.0.2.1") for _ in range(300)]
        sockets += idle
        shut = closed_by_server(idle)
        assert len(shut) == 200, f"{len(idle) - len(shut)} idle connections held from one address"

        # 100 bodies trickled a byte at a time from another address: closed at the deadline (30 s).
        trickled = [connect(port, "127.0.3.1") for _ in range(100)]
        for sock in trickled:
            sock.sendall(b"POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n{")
        sockets += trickled
        trickle_start = time.monotonic()
        cut = set()
        while len(cut) < len(trickled) and time.monotonic() - trickle_start < 60:
            for sock in trickled:
                if sock not in cut:
                    try:
                        sock.sendall(b" ")
                    except OSError:
                        cut.add(sock)
            cut |= closed_by_server([s for s in trickled if s not in cut], wait=1)
        trickle_seconds = time.monotonic() - trickle_start
        assert len(cut) == len(trickled), f"{len(trickled) - len(cut)} trickled bodies still open after {trickle_seconds:.0f} s"

        status, _, health = request(port, "GET", "/v1/health")
        assert status == 200
        sync_ms = normal_sync(port, bystander)

        # 20 wrong passwords at once: 5 are checked, 15 told to wait.
        with concurrent.futures.ThreadPoolExecutor(20) as pool:
            guesses = list(pool.map(lambda i: request(port, "POST", "/v1/sessions", {"username": "bystander", "password": f"guess {i}"})[0], range(20)))
        assert guesses.count(401) == 5 and guesses.count(429) == 15, guesses

        # An upload over the 1 MB quota: refused, nothing left on disk or counted.
        content = os.urandom(2 * 1024 * 1024)
        digest = hashlib.sha256(content).hexdigest()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("PUT", f"/v1/assets/{digest}", body=content,
                           headers={"Authorization": f"Bearer {bystander}", "Content-Type": "application/octet-stream"})
        upload = connection.getresponse()
        upload.read()
        connection.close()
        assert upload.status == 507
        leftover = [path for path in (data / "assets").rglob("*") if path.is_file()]
        assert leftover == [], leftover

        status, _, health_after = request(port, "GET", "/v1/health")
        assert status == 200
        sync_after = normal_sync(port, bystander)
        print(f"\nabuse figures: 500 push streams held, 500 refused (429); 300 idle connections from one address, 100 held; "
              f"100 trickled bodies closed within {trickle_seconds:.0f} s; "
              f"/v1/health {health:.1f} ms, another account's push+pull {sync_ms:.1f} ms under load; "
              f"after the guesses and the upload: health {health_after:.1f} ms, sync {sync_after:.1f} ms; "
              f"20 parallel wrong passwords: {guesses.count(401)} checked, {guesses.count(429)} refused")
    finally:
        for sock in sockets:
            sock.close()
        server.kill()
        server.wait(timeout=30)
