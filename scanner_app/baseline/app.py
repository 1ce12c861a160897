"""The baseline's Flask app and its server: one process, one request at a time (the seeds' "before").

`POST /ocr` takes the raw encoded image as the body (optional `?name=` for messages) and answers
PageResult JSON; `GET /health` answers 200 once the models are loaded. Errors are JSON
`{"error": "..."}`: 400 for an image that cannot be decoded (the cause named), 413 over the
shared size limit, 500 when inference itself fails.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any, NoReturn

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.serving import make_server

from scanner_app.contract import MAX_IMAGE_BYTES
from scanner_app.ocr.decode import ImageDecodeError
from scanner_app.ocr.in_process import InProcessEngine

LOOPBACK = "127.0.0.1"
READY_PREFIX = "Baseline ready on "  # the launcher reads the URL after this on the first line that has it
DEFAULT_PORT = 5000


def create_app(engine: InProcessEngine) -> Flask:
    """The Flask app around one InProcessEngine (not thread-safe by design: the server is serial)."""
    from scanner_app.baseline.engine import recognize

    app = Flask("scanner_app.baseline")
    app.config["MAX_CONTENT_LENGTH"] = MAX_IMAGE_BYTES

    @app.get("/health")
    def health() -> Any:
        return jsonify(status="ok", server="scanner-app baseline: Flask, one request at a time")

    @app.post("/ocr")
    def ocr() -> Any:
        name = request.args.get("name", "")
        data = request.get_data(cache=False)
        try:
            page = recognize(engine, data, name)
        except ImageDecodeError as exc:
            return jsonify(error=f"cannot decode the image{' ' + name if name else ''}: {exc}"), 400
        return jsonify(page.to_json())

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> Any:
        _drain()
        size = request.content_length
        told = f"{size} bytes is" if size else "the body is"
        return jsonify(error=f"{told} over the limit of {MAX_IMAGE_BYTES} bytes for one image"), 413

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return jsonify(error=f"{exc.code} {exc.name}: {exc.description}"), exc.code

    @app.errorhandler(Exception)
    def failed(exc: Exception) -> Any:
        app.logger.exception("inference failed")
        return jsonify(error=f"inference failed: {type(exc).__name__}: {exc}"), 500

    return app


def _drain(limit: int = 4 * MAX_IMAGE_BYTES) -> None:
    """Read and drop what is left of a refused body, so the client reads the answer, not a reset."""
    stream = request.environ.get("wsgi.input")
    left = min(request.content_length or 0, limit)
    while stream is not None and left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            break
        left -= len(chunk)


def serve(repository: Path, port: int = DEFAULT_PORT, host: str = LOOPBACK, device: str = "cpu") -> int:
    """Load the models, print the URL, serve one request at a time until SIGTERM or Ctrl-C."""
    from scanner_app.baseline.engine import build_engine

    try:
        engine = build_engine(repository, device=device)
    except (FileNotFoundError, OSError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1
    try:
        server = make_server(host, port, create_app(engine), threaded=False, processes=1)
    except OSError as exc:  # SystemExit from werkzeug too: caught below
        print(f"error: cannot listen on {host}:{port}: {exc}; --port 0 picks a free port", file=sys.stderr)
        return 1
    except SystemExit:
        print(f"error: cannot listen on {host}:{port} (taken?); --port 0 picks a free port", file=sys.stderr)
        return 1
    previous = signal.signal(signal.SIGTERM, _raise_exit)
    print(f"{READY_PREFIX}http://{host}:{server.port} (Flask, one process, one request at a time)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        signal.signal(signal.SIGTERM, previous)
    print("Baseline stopped.", file=sys.stderr, flush=True)
    return 0


def _raise_exit(*_: object) -> NoReturn:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    """`scanner-app serve --baseline`: the flags of `serve` that apply (--port, --repository)."""
    from scanner_app.server.model_fetch import default_repository

    listen = getattr(args, "listen", LOOPBACK)
    if listen != LOOPBACK:
        print(f"error: the baseline listens on {LOOPBACK} only, not {listen}", file=sys.stderr)
        return 2
    from scanner_app.server.hardware import DeviceError, choose_device

    try:  # serve's --device: the baseline runs where Triton would, for a fair comparison
        device = choose_device(getattr(args, "device", "cpu")).kind
    except DeviceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return serve(args.repository or default_repository(), args.port, device=device)
