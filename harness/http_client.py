"""A client for a live server with the part of Flask's test-client interface a player uses.

`HttpClient` keeps one keep-alive connection and the cookies the server sets, as a browser
does; `address`, if given, is the client address a proxy in front would report
(X-Forwarded-For, which the server reads with PROXY_HOPS=1). Talking to a real proxy instead
(nginx, `harness.nginx_server`), `source` is the loopback address the connection comes from
(127.0.0.2, ...: the proxy sees each as a client of its own) and `tls` speaks HTTPS, trusting
the run's self-signed certificate.
"""

from __future__ import annotations

import http.client
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode


#: A test run's own certificate is self-signed: nothing to verify it against.
TRUST_ANY = ssl._create_unverified_context()
#: The encodings Chromium accepts, as it asks for them.
CHROMIUM_ENCODINGS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@dataclass
class HttpAnswer:
    """An answer, named as Werkzeug's test response names it."""

    status_code: int
    headers: http.client.HTTPMessage
    text: str


class HttpClient:
    """A browser's connection to the server on a loopback port."""

    def __init__(self, port: int, address: str | None = None, timeout: float = 60,
                 source: str | None = None, tls: bool = False) -> None:
        options = {"timeout": timeout, "source_address": (source, 0) if source else None}
        self.connection = (
            http.client.HTTPSConnection("127.0.0.1", port, context=TRUST_ANY, **options)
            if tls else http.client.HTTPConnection("127.0.0.1", port, **options))
        self.address = address
        self.origin = f"https://127.0.0.1:{port}/" if tls else None
        self.cookies: dict[str, str] = {}

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> HttpAnswer:
        return self.open("GET", path, None, headers)

    def post(self, path: str, data: Mapping[str, Any] | None = None,
             headers: Mapping[str, str] | None = None) -> HttpAnswer:
        return self.open("POST", path, data or {}, headers)

    def open(self, method: str, path: str, data: Mapping[str, Any] | None,
             headers: Mapping[str, str] | None) -> HttpAnswer:
        """Send one request with the cookies kept so far; keep the ones its answer sets."""
        sent = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items()),
                **(headers or {})}
        if self.address:
            sent["X-Forwarded-For"] = self.address
        if self.origin:  # a browser's page sends its own origin (Flask-WTF checks it on HTTPS)
            sent.setdefault("Referer", self.origin)
        body = None
        if data is not None:
            body = urlencode(data, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        answer = self._send(method, path, body, sent)
        text = answer.read().decode()
        for cookie in answer.headers.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        return HttpAnswer(answer.status, answer.headers, text)

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]
              ) -> http.client.HTTPResponse:
        """Send the request, again on a new connection if the server closed the kept-alive one
        while the client was idle (gunicorn keeps an idle connection for 2 s)."""
        try:
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()

    def close(self) -> None:
        self.connection.close()
