"""``colorclash serve``: run the site with uvicorn and print the URL to open."""

from __future__ import annotations

import logging
import sys

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
        uvicorn.run(app, host=host, port=port, ws_max_size=settings.hard_max_frame,
                    log_level="info", access_log=False)
    finally:
        store.close()
