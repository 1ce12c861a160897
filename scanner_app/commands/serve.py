"""`scanner-app serve`: run the embedded Triton server on loopback until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from scanner_app.server.embedded import EmbeddedServer, ServerStartError
from scanner_app.server.hardware import DEVICE_REQUESTS
from scanner_app.server.listen import ListenPlan, ListenRefused, ServerTls, plan_listen
from scanner_app.server.supervise import KIND_RESTART_FAILED, HealthEvent, Supervisor

try:
    from scanner_app.server.model_fetch import default_repository
except ImportError:  # pragma: no cover - model_fetch is written separately

    def default_repository() -> Path:
        """$SCANNER_APP_MODEL_REPOSITORY, else model_repository/ in the project checkout."""
        root = Path(__file__).resolve().parents[2]
        return Path(os.environ.get("SCANNER_APP_MODEL_REPOSITORY") or root / "model_repository")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--grpc-port", type=int, default=8001, metavar="PORT", help="0: any free port")
    parser.add_argument("--http-port", type=int, default=8000, metavar="PORT", help="0: any free port")
    parser.add_argument("--metrics-port", type=int, default=8002, metavar="PORT", help="0: any free port")
    parser.add_argument(
        "--repository",
        type=Path,
        metavar="DIR",
        help="model repository (default: $SCANNER_APP_MODEL_REPOSITORY or ./model_repository)",
    )
    parser.add_argument(
        "--log", type=Path, metavar="FILE", help="server log (default: ~/.cache/scanner-app/logs/)"
    )
    parser.add_argument("--ready-timeout", type=float, default=300.0, metavar="SECONDS")
    parser.add_argument(
        "--device",
        choices=DEVICE_REQUESTS,
        default="auto",
        help="where the ONNX models run: auto (the GPU when an NVIDIA GPU and onnxruntime-gpu are "
        "there, else the CPU), cpu, or gpu (fails rather than fall back); instances and threads are "
        "sized to the machine (scanner_app/server/model_configs.py)",
    )
    _add_baseline_arguments(parser)
    _add_listen_arguments(parser)
    parser.set_defaults(func=run)


def _add_baseline_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("baseline", "The serial 'before' of the Triton demo (no Triton).")
    group.add_argument(
        "--baseline",
        action="store_true",
        help="instead of Triton, serve the same OCR and ONNX models from one Flask process, one "
        "request at a time, on 127.0.0.1 (POST /ocr with the image bytes, GET /health)",
    )
    group.add_argument(
        "--port", type=int, default=5000, metavar="PORT", help="--baseline's HTTP port (0: any free port)"
    )


def _add_listen_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "network",
        "Any address but 127.0.0.1 needs TLS on gRPC (or --insecure). Triton's HTTP and metrics "
        "endpoints have no TLS: with TLS they stay on 127.0.0.1.",
    )
    group.add_argument(
        "--listen",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="IPv4 address to listen on; 0.0.0.0 for every interface (default: 127.0.0.1)",
    )
    group.add_argument("--tls-cert", type=Path, metavar="PEM", help="the server's certificate (chain)")
    group.add_argument("--tls-key", type=Path, metavar="PEM", help="the server's private key")
    group.add_argument(
        "--tls-ca",
        type=Path,
        metavar="PEM",
        help="CA certificate that signed the client certificates (with --tls-verify-client)",
    )
    group.add_argument(
        "--tls-verify-client",
        action="store_true",
        help="accept only clients presenting a certificate signed by --tls-ca (mutual TLS)",
    )
    group.add_argument(
        "--insecure",
        action="store_true",
        help="listen on a non-loopback address without TLS (everything readable on the network)",
    )


def _listen_plan(args: argparse.Namespace) -> ListenPlan:
    """The listen plan from the flags; ListenRefused with a message for people."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ListenRefused("TLS needs both --tls-cert and --tls-key.")
    if args.tls_cert is None and (args.tls_ca or args.tls_verify_client):
        raise ListenRefused("--tls-ca and --tls-verify-client need --tls-cert and --tls-key as well.")
    tls = None
    if args.tls_cert is not None:
        tls = ServerTls(
            args.tls_cert.absolute(),
            args.tls_key.absolute(),
            args.tls_ca.absolute() if args.tls_ca else None,
            args.tls_verify_client,
        )
    return plan_listen(args.listen, tls, insecure=args.insecure)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register `serve`; sets func=run on the parsed arguments."""
    parser = subparsers.add_parser(
        "serve",
        help="run the embedded Triton server until Ctrl-C",
        description="Start the tritonserver bundled with nvidia-pytriton (on 127.0.0.1 unless --listen "
        "says otherwise) with the model repository, wait until every model is ready, and serve until "
        "Ctrl-C or SIGTERM. Clients cannot load or unload models (model control is off).",
    )
    _add_arguments(parser)
    return parser


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Serve until a signal; 0 after a clean stop, 1 when the server cannot start or dies, 2 refused."""
    if getattr(args, "baseline", False):
        from scanner_app.baseline.app import run as run_baseline

        return run_baseline(args)
    try:
        listen = _listen_plan(args)
    except ListenRefused as err:
        _say(f"error: {err}")
        return 2
    for warning in listen.warnings:
        _say(warning)
    server = EmbeddedServer(
        args.repository or default_repository(),
        args.grpc_port,
        args.http_port,
        args.metrics_port,
        log_path=args.log,
        on_message=_say,
        ready_timeout=args.ready_timeout,
        listen=listen,
        device=args.device,
    )
    stop = threading.Event()  # set by the signal handler only; the main thread never waits on it
    wake_r, wake_w = os.pipe()  # written by the C signal handler and by the watcher thread
    os.set_blocking(wake_w, False)
    handlers = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    old_wakeup = signal.set_wakeup_fd(wake_w)

    gave_up = threading.Event()

    def on_health(event: HealthEvent) -> None:  # the supervisor's thread
        _say(f"health: {event.message}")
        if event.kind == KIND_RESTART_FAILED:
            gave_up.set()
            with contextlib.suppress(OSError):
                os.write(wake_w, b"x")

    # A server whose process or a model's stub died, or that fails the end-to-end probe, is restarted.
    supervisor = Supervisor(server, on_event=on_health)
    try:
        server.start()
        _say(f"Starting tritonserver (pid {server.pid}); log: {server.log_path}")
        server.wait_ready(cancel=stop)
        print(_summary(server), flush=True)
        supervisor.start()
        while not stop.is_set() and not gave_up.is_set():
            os.read(wake_r, 64)
        if not stop.is_set():
            tail = server.log_tail()
            _say(f"tritonserver could not be brought back. Last lines of {server.log_path}:\n{tail}")
            return 1
        _say("Stopping tritonserver...")
        return 0
    except ServerStartError as err:
        if stop.is_set():
            return 0
        _say(f"error: {err}")
        return 1
    finally:
        supervisor.stop()
        server.stop()
        signal.set_wakeup_fd(old_wakeup)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        os.close(wake_r)
        os.close(wake_w)


def _summary(server: EmbeddedServer) -> str:
    models = ", ".join(server.ready_models()) or "(none)"
    hosts, ports, tls = server.listen.hosts, server.ports, server.listen.tls
    scope = "reachable from the network" if server.listen.exposed else "on loopback only"
    grpc_tls = "" if tls is None else " (TLS, client certificate required)" if tls.verify_client else " (TLS)"
    return "\n".join(
        [
            f"Triton is ready (pid {server.pid}), {scope}:",
            f"  gRPC     {hosts['gRPC']}:{ports['gRPC']}{grpc_tls}",
            f"  HTTP     http://{hosts['HTTP']}:{ports['HTTP']}",
            f"  metrics  http://{hosts['metrics']}:{ports['metrics']}/metrics",
            f"  models   {models}",
            f"  device   {server.prepared.describe() if server.prepared else 'as configured'}",
            f"  log      {server.log_path}",
            "Press Ctrl-C to stop.",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for `python -m scanner_app.commands.serve`."""
    parser = argparse.ArgumentParser(prog="scanner-app serve", description=__doc__)
    _add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
