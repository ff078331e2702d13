"""The web console (README § Console): three static files shipped in the package
(``console_files/``), served at ``/console`` without a key. They hold no data: every
number and message the page shows comes from the ``/v1`` routes, called by the page's
script with the key the operator typed (kept in the tab's session storage, sent as the
bearer header; no cookies, so no CSRF surface), under the same key checks as any
client. Message content is untrusted: the script only ever sets ``textContent``, and
the Content-Security-Policy below forbids inline scripts, inline styles, other origins
and framing, so a message holding HTML cannot run or load anything."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files

from fastapi import FastAPI
from fastapi.responses import Response

CONSOLE_PATH = "/console"
#: What the browser may do on a console page: its own script, style and API only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Cache-Control": "no-cache"}
#: URL path → (file in console_files, media type).
_FILES = {
    CONSOLE_PATH: ("index.html", "text/html; charset=utf-8"),
    CONSOLE_PATH + "/console.js": ("console.js", "text/javascript; charset=utf-8"),
    CONSOLE_PATH + "/console.css": ("console.css", "text/css; charset=utf-8"),
    CONSOLE_PATH + "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}


def is_console_path(path: str) -> bool:
    """The console's own files are public (they hold no data; the API calls need a key)."""
    return path in _FILES or path == CONSOLE_PATH + "/"


def mount_console(app: FastAPI) -> None:
    """Add the console's routes to ``app`` (read from the package on each request: three
    small files, and an edited file shows without a restart)."""
    folder = files("chatmem.server").joinpath("console_files")

    def route_for(name: str, media_type: str) -> Callable[[], Response]:
        # The endpoint takes no arguments: FastAPI reads every argument of an endpoint
        # from the request. The first version bound the file name as a default
        # argument, which made it a query parameter: GET /console?name=../../../etc/passwd
        # read any file the server could, without a key (the console is public).
        def route() -> Response:
            return Response(folder.joinpath(name).read_bytes(), media_type=media_type,
                            headers=_HEADERS)
        return route

    # HEAD too: link checkers and load balancers probe with it (a 405 reads as down)
    for path, (name, media_type) in _FILES.items():
        app.add_api_route(path, route_for(name, media_type), methods=["GET", "HEAD"],
                          include_in_schema=False)
    app.add_api_route(CONSOLE_PATH + "/", _to_console, methods=["GET", "HEAD"],
                      include_in_schema=False)


def _to_console() -> Response:
    return Response(status_code=307, headers={"Location": CONSOLE_PATH})


__all__ = ["CONSOLE_PATH", "CSP", "is_console_path", "mount_console"]
