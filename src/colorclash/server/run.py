"""``colorclash serve``: run the site with uvicorn and print the URL to open."""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from colorclash.build import version_line
from colorclash.server.config import Settings, SettingsError
from colorclash.server.logs import log_config


def run_server(host: str = "127.0.0.1", port: int = 8000,
               store_url: str = "sqlite:///colorclash.sqlite3",
               listen_fd: int | None = None) -> None:
    """Serve the site. ``listen_fd``: a socket already bound (to ``host:port``), inherited
    from whoever started this process (the tests' ``ServerProcess``), instead of binding
    one here."""
    from colorclash.server.app import create_app
    from colorclash.store import StoreError, open_store, shown_url, sqlite_path

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    for warning in Settings.unknown_env() + Settings.store_env_warnings(
            redis=sqlite_path(store_url) is None):
        print(warning, file=sys.stderr)
    if _password_in_arguments(store_url):
        print("warning: the store's password was given on the command line, where every "
              "user of this machine reads it (ps): give the URL in COLORCLASH_STORE instead "
              "(a systemd EnvironmentFile readable by root only; docs/deployment.md)",
              file=sys.stderr)
    # The port first, then the store: a server that cannot listen, or whose SQLite file
    # another server holds, stops before it restores a room or runs a clock.
    try:
        sock = listen_socket(host, port) if listen_fd is None else socket.socket(fileno=listen_fd)
    except OSError as exc:
        print(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(2) from None
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    try:
        store = open_store(store_url)
        claim = getattr(store, "claim", None)
        if claim is not None:
            claim(alone=not settings.cluster,  # (Redis: one process, or a cluster's)
                  waiting=lambda why: print(why, file=sys.stderr, flush=True))
    except StoreError as exc:
        sock.close()
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    app = create_app(settings=settings, store=store, close_store=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    public = f"; invite links: {settings.public_url}/" if settings.public_url else ""
    if not settings.public_url and not _loopback(host):
        print(host_header_warning(), file=sys.stderr, flush=True)
    for name in ("durability_warning", "privacy_warning", "password_warning"):
        check = getattr(store, name, None)
        warning = check() if check is not None else None
        if warning:
            print(warning, file=sys.stderr, flush=True)
    path = getattr(store, "path", None)
    where = (f", the file {os.path.abspath(path)}"
             if path and path != ":memory:" and not os.path.isabs(path) else "")
    others = ""
    if host in ("0.0.0.0", "::", ""):  # (127.0.0.1 opens only on this machine)
        others = (f"; from another machine: http://THIS-MACHINE'S-ADDRESS:{port}/, every "
                  "interface listens")
    print(f"Color Clash {version_line()} is starting: open http://{shown}:{port}/  "
          f"(store: {shown_url(store_url)}{where}{public}{others})", flush=True)
    try:  # (uvicorn applies log_config as it is configured, before anything is logged)
        config = uvicorn_config(app, settings, host, port, log_level="info",
                                access_log=settings.access_log, log_config=log_config())
        cap = config.colorclash_guard.max_connections
        if cap < settings.max_connections:
            print(file_limit_warning(cap, settings.max_connections), file=sys.stderr,
                  flush=True)
        _hangup_server_class()(config).run(sockets=[sock])
    finally:
        store.close()  # (if the app's shutdown did not: closing twice is harmless)


def _hangup_server_class() -> type:
    import contextlib
    import logging
    import signal
    import threading

    import uvicorn

    class StoppedByHangupToo(uvicorn.Server):
        """SIGHUP (the terminal a server was started from closed) stops it as SIGTERM
        does: its rooms kept, the WAL folded in, a line in the log. It ended the process
        at once, with no word (an operator could not tell it from a crash). Under
        ``nohup``, which ignores it, it is still ignored."""

        @contextlib.contextmanager
        def capture_signals(self) -> Any:
            hup = getattr(signal, "SIGHUP", None)
            previous = None
            if (hup is not None and threading.current_thread() is threading.main_thread()
                    and signal.getsignal(hup) is not signal.SIG_IGN):
                previous = signal.signal(hup, self._hangup)
            try:
                with super().capture_signals():
                    yield
            finally:
                if previous is not None:
                    signal.signal(hup, previous)

        def _hangup(self, sig: int, frame: Any) -> None:
            logging.getLogger("colorclash.server").warning(
                "SIGHUP (the terminal closed): stopping as for SIGTERM; start the server "
                "under systemd or nohup to keep it running")
            self.should_exit = True

    return StoppedByHangupToo


def _password_in_arguments(store_url: str) -> bool:
    """A store URL with a password that came from the command line (not the variable)."""
    from urllib.parse import urlsplit

    try:
        password = urlsplit(store_url).password  # (a ?password= is refused by the store)
    except ValueError:
        return False
    return bool(password) and os.environ.get("COLORCLASH_STORE") != store_url


def _loopback(host: str) -> bool:
    """Only this machine can reach a server bound to ``host``."""
    import ipaddress

    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False  # a host name: whoever resolves it


def host_header_warning() -> str:
    return ("warning: COLORCLASH_PUBLIC_URL is not set: invite links and QR codes take "
            "the site's address from each request's Host header, which a client chooses "
            "(a reverse proxy that does not pass its own Host hides it). Set it to the "
            "public address, e.g. COLORCLASH_PUBLIC_URL=https://cards.example.org "
            "(docs/deployment.md)")


def file_limit_warning(cap: int, wanted: int) -> str:
    """The line said at start when the process's open-file limit holds fewer connections
    than COLORCLASH_MAX_CONNECTIONS (the next ones get 503 overloaded)."""
    return (f"warning: this process may open too few files for COLORCLASH_MAX_CONNECTIONS="
            f"{wanted:,}: it takes at most {cap:,} connections (raise the open-file limit: "
            "ulimit -n, or LimitNOFILE= in a systemd unit; docs/deployment.md)")


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound now (uvicorn listens on it once started)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app: Any, settings: Settings, host: str, port: int,
                   log_level: str = "info", access_log: bool = False,
                   log_config: dict[str, Any] | None = None) -> Any:
    """uvicorn's settings for the site (``colorclash serve`` and the test servers alike):
    the guarded HTTP protocol (server/guard.py), the WebSocket protocol with a direct send
    (server/direct_ws.py), the WebSocket frame limit, and the
    forwarded-address headers trusted only from ``settings.trusted_proxies``."""
    import uvicorn

    from colorclash.server.direct_ws import ws_protocol
    from colorclash.server.guard import ConnectionGuard, http_protocol

    guard = ConnectionGuard(settings)
    trusted = ",".join(settings.trusted_proxies)
    config = uvicorn.Config(
        app, host=host, port=port, http=http_protocol(guard), ws=ws_protocol(),
        ws_max_size=settings.hard_max_frame, log_level=log_level, access_log=access_log,
        **({} if log_config is None else {"log_config": log_config}),
        ws_per_message_deflate=settings.ws_compression,
        # A player whose link died without a close is seen as away (the others' seat
        # badge, and the reconnect grace starts) after 10-20 s, not uvicorn's 20-40 s.
        ws_ping_interval=settings.ws_ping, ws_ping_timeout=settings.ws_ping,
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
        timeout_keep_alive=5, lifespan="on")
    config.colorclash_guard = guard  # for the tests
    state = getattr(app, "state", None)
    if state is not None:  # /healthz's and /metrics' connection figures
        state.connection_guard = guard
    return config
