"""``colorclash serve``: run the site with uvicorn and print the URL to open."""

from __future__ import annotations

import logging
import sys
from typing import Any

from colorclash.server.config import Settings


def run_server(host: str = "127.0.0.1", port: int = 8000,
               store_url: str = "sqlite:///colorclash.sqlite3") -> None:
    import uvicorn

    from colorclash.server.app import create_app
    from colorclash.store import StoreError, open_store

    settings = Settings.from_env()
    try:
        store = open_store(store_url)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    app = create_app(settings=settings, store=store)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    print(f"Color Clash is starting: open http://{shown}:{port}/  (store: {store_url})",
          flush=True)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        uvicorn.Server(uvicorn_config(app, settings, host, port, log_level="info")).run()
    finally:
        store.close()


def uvicorn_config(app: Any, settings: Settings, host: str, port: int,
                   log_level: str = "info", access_log: bool = False) -> Any:
    """uvicorn's settings for the site (``colorclash serve`` and the test servers alike):
    the guarded HTTP protocol (server/guard.py), the WebSocket frame limit, and the
    forwarded-address headers trusted only from ``settings.trusted_proxies``."""
    import uvicorn

    from colorclash.server.guard import ConnectionGuard, http_protocol

    guard = ConnectionGuard(settings)
    trusted = ",".join(settings.trusted_proxies)
    config = uvicorn.Config(
        app, host=host, port=port, http=http_protocol(guard),
        ws_max_size=settings.hard_max_frame, log_level=log_level, access_log=access_log,
        ws_per_message_deflate=settings.ws_compression,
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
        timeout_keep_alive=5, lifespan="on")
    config.colorclash_guard = guard  # for /healthz figures and the tests
    return config
