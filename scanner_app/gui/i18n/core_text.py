"""The core's English texts in the UI language: failure causes, server (gRPC) errors, connection
states, the reimbursement sheet's headers.

The core stays free of Qt and speaks English (logs, the CLI, JSON); the GUI shows its messages
through ``translated``, which knows the core's message shapes (a table of patterns with their
parameters, context "CoreText") and leaves anything it does not know as it is. A gRPC library's
own detail after a known cause is reduced to the cause's name where one is known ("Connection
refused"); the full English text stays in tooltips (``with_original``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from scanner_app.core.export.reimbursement import COLUMNS

# (pattern, its text in the UI language from the groups); most specific first. Each pattern matches a
# piece of a message; the rest (file names, the wrapping sentence) is kept.
_N = r"[\d.]+"
_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), build)
    for pattern, build in (
        (
            r"is a folder, not a file$",
            lambda m: QCoreApplication.translate("CoreText", "is a folder, not a file"),
        ),
        (r"not a regular file$", lambda m: QCoreApplication.translate("CoreText", "not a regular file")),
        (
            r"empty file \(0 bytes\)$",
            lambda m: QCoreApplication.translate("CoreText", "empty file (0 bytes)"),
        ),
        (r"(?<=: )not found$", lambda m: QCoreApplication.translate("CoreText", "not found")),
        (
            rf"too large: ({_N}) MiB is over the limit of ({_N}) MiB for an image$",
            lambda m: QCoreApplication.translate(
                "CoreText", "too large: {0} MiB is over the limit of {1} MiB for an image"
            ).format(m[1], m[2]),
        ),
        (
            rf"too large: ({_N}) MiB is over the limit of ({_N}) MiB for a PDF$",
            lambda m: QCoreApplication.translate(
                "CoreText", "too large: {0} MiB is over the limit of {1} MiB for a PDF"
            ).format(m[1], m[2]),
        ),
        (
            r"not an image or PDF \(content looks like text\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "not an image or PDF (the content looks like text)"
            ),
        ),
        (
            r"not an image or PDF \(content looks like a ZIP archive or Office document\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "not an image or PDF (the content looks like a ZIP archive or Office document)"
            ),
        ),
        (
            r"not an image or PDF \(unrecognised content, starts with ([0-9a-f ]+)\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "not an image or PDF (unrecognised content, starts with {0})"
            ).format(m[1]),
        ),
        (
            r"HEIC/HEIF/AVIF photos are not supported \(export it as JPEG\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "HEIC/HEIF/AVIF photos are not supported (export it as JPEG)"
            ),
        ),
        (
            r"corrupt or truncated (\w+) file \(its header cannot be read\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "corrupt or truncated {0} file (its header cannot be read)"
            ).format(m[1]),
        ),
        (
            r"corrupt image header \((.*)\)$",
            lambda m: QCoreApplication.translate("CoreText", "corrupt image header ({0})").format(m[1]),
        ),
        (
            r"corrupt TIFF page list \((.*)\)$",
            lambda m: QCoreApplication.translate("CoreText", "corrupt TIFF page list ({0})").format(m[1]),
        ),
        (
            r"corrupt or truncated image data \((.*)\)$",
            lambda m: QCoreApplication.translate("CoreText", "corrupt or truncated image data ({0})").format(
                m[1]
            ),
        ),
        (
            r"colour mode (\S+) is not supported$",
            lambda m: QCoreApplication.translate("CoreText", "colour mode {0} is not supported").format(m[1]),
        ),
        (
            r"(\d+) pages is over the limit of (\d+) pages a file$",
            lambda m: QCoreApplication.translate(
                "CoreText", "{0} pages is over the limit of {1} pages a file"
            ).format(m[1], m[2]),
        ),
        (
            r"corrupt or truncated PDF$",
            lambda m: QCoreApplication.translate("CoreText", "corrupt or truncated PDF"),
        ),
        (
            r"password-protected PDF \(save a copy without the password and retry\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "password-protected PDF (save a copy without the password and retry)"
            ),
        ),
        (
            r"PDF uses an encryption scheme that is not supported$",
            lambda m: QCoreApplication.translate(
                "CoreText", "PDF uses an encryption scheme that is not supported"
            ),
        ),
        (
            r"PDF page tree is damaged$",
            lambda m: QCoreApplication.translate("CoreText", "PDF page tree is damaged"),
        ),
        (r"PDF has no pages$", lambda m: QCoreApplication.translate("CoreText", "PDF has no pages")),
        (
            r"cannot be opened \(missing or not readable\)$",
            lambda m: QCoreApplication.translate("CoreText", "cannot be opened (missing or not readable)"),
        ),
        (
            r"cannot be read \((.*)\)$",
            lambda m: QCoreApplication.translate("CoreText", "cannot be read ({0})").format(m[1]),
        ),
        (
            r"not well-formed XML \((.*)\)$",
            lambda m: QCoreApplication.translate("CoreText", "not well-formed XML ({0})").format(m[1]),
        ),
        (
            r"^page (\d+) of (\d+): ",
            lambda m: QCoreApplication.translate("CoreText", "page {0} of {1}: ").format(m[1], m[2]),
        ),
        # the server, as core.client.triton words it (the gRPC detail after it: see _GRPC_CAUSES)
        (
            r"server (\S+) is unavailable: (.*)$",
            lambda m: QCoreApplication.translate("CoreText", "server {0} is unavailable ({1})").format(
                m[1], _grpc_cause(m[2])
            ),
        ),
        (
            r"server (\S+) did not answer in time \((.*)\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "server {0} did not answer in time ({1})"
            ).format(m[1], _grpc_cause(m[2])),
        ),
        (
            r"server (\S+) has no ready (\S+) \(loading or stopping\): (.*)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "server {0} has no ready {1} (loading or stopping)"
            ).format(m[1], m[2]),
        ),
        (
            r"server (\S+) is up but not ready \(a model is loading or failed\)$",
            lambda m: QCoreApplication.translate(
                "CoreText", "server {0} is up but not ready (a model is loading or failed)"
            ).format(m[1]),
        ),
        (
            r"server (\S+) failed: (.*)$",
            lambda m: QCoreApplication.translate("CoreText", "server {0} failed: {1}").format(m[1], m[2]),
        ),
    )
)

_ATTEMPTS = re.compile(r" \(after (\d+) attempts\)$")

# Words of gRPC's own error details -> the cause in the UI language.
_GRPC_CAUSES = (
    ("Connection refused", QT_TRANSLATE_NOOP("CoreText", "connection refused")),
    ("Deadline Exceeded", QT_TRANSLATE_NOOP("CoreText", "no answer before the deadline")),
    ("DNS resolution failed", QT_TRANSLATE_NOOP("CoreText", "the host name cannot be resolved")),
    ("Connection reset", QT_TRANSLATE_NOOP("CoreText", "the connection was reset")),
    ("Socket closed", QT_TRANSLATE_NOOP("CoreText", "the connection was closed")),
    ("Network is unreachable", QT_TRANSLATE_NOOP("CoreText", "the network is unreachable")),
    ("No route to host", QT_TRANSLATE_NOOP("CoreText", "no route to the host")),
)


def _grpc_cause(detail: str) -> str:
    for needle, cause in _GRPC_CAUSES:
        if needle.lower() in detail.lower():
            # marked by QT_TRANSLATE_NOOP above, which hands back its str (typed object)
            return QCoreApplication.translate("CoreText", str(cause))
    return detail


def translated(message: str) -> str:
    """``message`` (a core failure cause or server error, possibly inside a sentence the GUI already
    translated) with every piece the table knows in the UI language; unknown text as it is."""
    if not _catalogue_loaded():
        return message  # English UI: the core's own words, in full
    attempts = _ATTEMPTS.search(message)  # core.client.triton's retry count ends the message: kept at the end
    if attempts:
        message = message[: attempts.start()]
    for pattern, build in _RULES:
        message = pattern.sub(build, message)
    if attempts:
        message += QCoreApplication.translate("CoreText", " (after {0} attempts)").format(attempts[1])
    return _dedupe(message)


def _catalogue_loaded() -> bool:
    probe = "empty file (0 bytes)"
    return QCoreApplication.translate("CoreText", probe) != probe


def _dedupe(text: str) -> str:
    """A sentence said twice in a row (the GUI's wrapper around the core's same words) once."""
    return re.sub(r"(?P<a>[^：;；\n]{8,}?)(?:：|: )\s*(?P=a)", r"\g<a>", text)


def file_cause(path: Path, cause: str) -> str:
    """A file's failure cause for its own row: translated, without the file's path or name in front
    (the row shows it)."""
    for prefix in (f"{path}: ", f"{path.name}: "):
        if cause.startswith(prefix):
            cause = cause[len(prefix) :]
            break
    return translated(cause)


def with_original(message: str) -> str:
    """For tooltips: the translated message, and the English one below when they differ."""
    shown = translated(message)
    return shown if shown == message else f"{shown}\n{message}"


def status_name(status: str) -> str:
    """A connection state's name ("ready", "starting"...) in the UI language."""
    names = {
        "idle": QCoreApplication.translate("CoreText", "idle"),
        "starting": QCoreApplication.translate("CoreText", "starting"),
        "ready": QCoreApplication.translate("CoreText", "ready"),
        "down": QCoreApplication.translate("CoreText", "down"),
        "error": QCoreApplication.translate("CoreText", "error"),
    }
    return names.get(str(status), str(status))


def sheet_headers() -> tuple[str, ...]:
    """The reimbursement sheet's column headers in the UI language, for a sheet written from the app
    (``core.export.reimbursement.write_sheet(..., headers=sheet_headers())``); in English the CLI's
    own COLUMNS, so one sheet has one set of names whichever tool wrote it."""
    if not _catalogue_loaded():
        return COLUMNS
    names = {
        "file": QCoreApplication.translate("CoreText", "File"),
        "vendor": QCoreApplication.translate("CoreText", "Vendor"),
        "date": QCoreApplication.translate("CoreText", "Date"),
        "number": QCoreApplication.translate("CoreText", "Number"),
        "net": QCoreApplication.translate("CoreText", "Net"),
        "tax": QCoreApplication.translate("CoreText", "Tax"),
        "total": QCoreApplication.translate("CoreText", "Total"),
        "currency": QCoreApplication.translate("CoreText", "Currency"),
        "flags": QCoreApplication.translate("CoreText", "Flags"),
    }
    return tuple(names[column] for column in COLUMNS)
