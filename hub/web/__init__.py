"""The hub's web app (FastAPI): REST, WebSockets, pages and metrics. docs/web-api.md is its contract."""

from hub.web.app import create_app
from hub.web.settings import WebSettings

__all__ = ["WebSettings", "create_app"]
