"""Issue 17, caution from issue 13: an app terminated (SIGTERM) while its embedded server is busy
leaves no server or stub behind (the server is briefly orphaned while it shuts down, then gone)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

from scanner_app.server import shm
from scanner_app.server.supervise import stubs_of
from tests.helpers.paths import SROIE_IMAGES

GONE_WITHIN_S = 120.0  # a bound for the wait, far above the server's exit timeout

BUSY_APP = """
import sys, threading
from pathlib import Path
import numpy as np
import tritonclient.grpc as grpcclient
from scanner_app import contract
from scanner_app.server.embedded import EmbeddedServer

server = EmbeddedServer(Path(sys.argv[1]), 0, 0, 0, log_path=Path(sys.argv[2]), ready_timeout=600)

def start():  # as the desktop app does: off the main thread
    server.start()
    server.wait_ready()

worker = threading.Thread(target=start)
worker.start()
worker.join()
data = Path(sys.argv[3]).read_bytes()

def load():
    with grpcclient.InferenceServerClient(server.grpc_url) as client:
        while True:
            image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
            image.set_data_from_numpy(np.array([[data]], dtype=np.object_))
            client.infer(contract.PIPELINE_MODEL, [image], client_timeout=600)

for _ in range(4):
    threading.Thread(target=load, daemon=True).start()
print(server.pid, flush=True)
threading.Event().wait()
"""


def _wait_gone(pid: int) -> bool:
    """True once `pid` has exited (a zombie counts: it holds no memory), waiting on its pidfd."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], GONE_WITHIN_S)[0])
    finally:
        os.close(fd)


def test_app_terminated_while_its_server_is_busy_leaves_no_process(
    model_repository: Path, tmp_path: Path
) -> None:
    receipt = sorted(SROIE_IMAGES.glob("*.jpg"))[0]
    command = [sys.executable, "-c", BUSY_APP, str(model_repository), str(tmp_path / "s.log"), str(receipt)]
    app = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        server_pid = int(app.stdout.readline())
        stubs = [s.info for s in stubs_of(server_pid)]
        assert stubs
        app.send_signal(signal.SIGTERM)  # no handler: Python dies at once, without clean-up
        assert app.wait(60) == -signal.SIGTERM
        assert _wait_gone(server_pid), "the embedded server outlived the app that was terminated"
        left = [s.pid for s in stubs if not _wait_gone(s.pid) and shm.still_running(s)]
        assert not left, f"stubs left running: {left}"
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
