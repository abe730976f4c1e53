"""JupyterLab starts on notebooks/, lists them, and the notebooks' kernel ("bolib", registered by the venv's
build) imports bolib on the pinned code path, though the server itself started without the pins."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
import websocket

ROOT = Path(__file__).resolve().parents[1]
TOKEN = uuid.uuid4().hex


def _get(url, method="GET", body=None):
    req = urllib.request.Request(url, method=method, data=body,
                                 headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _unpinned_env() -> dict:
    from bolib.codepath import PINS

    return {k: v for k, v in os.environ.items() if k not in ("BOLIB_CODE_PATH", *PINS)}


@pytest.fixture
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    jupyter = Path(sys.executable).with_name("jupyter")
    proc = subprocess.Popen([str(jupyter), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                             f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={ROOT / 'notebooks'}",
                             "--ServerApp.open_browser=False", "--allow-root"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_unpinned_env())
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            _get(f"{base}/api/status")
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("jupyter lab did not start within 90 s")
            time.sleep(0.5)
    yield base, port
    proc.terminate()
    proc.wait(timeout=30)


@pytest.mark.slow
def test_lab_lists_notebooks_and_kernel_imports_bolib(server):
    base, port = server
    listed = {item["name"] for item in _get(f"{base}/api/contents")["content"]}
    assert "_template.ipynb" in listed
    assert {p.name for p in (ROOT / "notebooks").glob("*.ipynb")} <= listed
    assert _get(f"{base}/lab/api/settings") is not None  # the Lab application itself is served

    specs = _get(f"{base}/api/kernelspecs")["kernelspecs"]
    assert "bolib" in specs and specs["bolib"]["spec"]["display_name"] == "bolib (Python 3)"
    assert {json.loads(p.read_text())["metadata"]["kernelspec"]["name"] for p in (ROOT / "notebooks").glob("*.ipynb")} \
        == {"bolib"}
    kernel = _get(f"{base}/api/kernels", "POST", json.dumps({"name": "bolib"}).encode())
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/api/kernels/{kernel['id']}/channels?token={TOKEN}",
                                     timeout=60)
    msg_id = uuid.uuid4().hex
    ws.send(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test",
                   "session": uuid.uuid4().hex, "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": "import bolib, bolib.loop; print('bolib', bolib.__version__, "
                                    "bolib.codepath.STATE['mode'])", "silent": False,
                    "store_history": False, "user_expressions": {}, "allow_stdin": False}}))
    output, status = "", None
    deadline = time.monotonic() + 120
    while status is None and time.monotonic() < deadline:
        msg = json.loads(ws.recv())
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            output += msg["content"]["text"]
        elif msg["msg_type"] == "execute_reply":
            status = msg["content"]["status"]
    ws.close()
    assert status == "ok", output
    assert output.startswith("bolib ") and output.split()[-1] == "pinned", output
