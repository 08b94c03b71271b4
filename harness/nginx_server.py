"""nginx in front of a live gunicorn on loopback, run with the shipped configuration
(deploy/nginx/): the same file, its SITE lines (the name, the ports, the certificate, where
gunicorn and the checkout are) replaced with this run's, each replacement checked to have
happened, so that the file tested is the file shipped.

`FrontDoor(upstream_port)` writes a self-signed certificate for 127.0.0.1 (openssl), the main
configuration nginx needs around the site's file (no daemon, its files in a scratch folder)
and starts nginx; it serves HTTPS on `https_port` and the redirect on `http_port`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from harness import ROOT
from harness.ports import free_port

SHIPPED = ROOT / "deploy" / "nginx"
SITE_FILE, HEADERS_FILE = SHIPPED / "game2048.conf", SHIPPED / "game2048-headers.conf"


def nginx_binary() -> str:
    """Debian's nginx (``make system-deps`` installs it)."""
    return shutil.which("nginx") or "/usr/sbin/nginx"


class FrontDoor:
    """nginx with the shipped site configuration, proxying to gunicorn at `upstream_port`."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.http_port, self.https_port = free_port(), free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="nginx-"))
        self.process: subprocess.Popen[bytes] | None = None

    def site(self) -> str:
        """The shipped site file with this run's SITE values."""
        text = SITE_FILE.read_text()
        for shipped, here in self._site_values().items():
            if shipped not in text:
                raise RuntimeError(f"{SITE_FILE} no longer holds {shipped!r}")
            text = text.replace(shipped, here)
        return text

    def _site_values(self) -> dict[str, str]:
        return {
            "listen 80;": f"listen 127.0.0.1:{self.http_port};",
            "listen 443 ssl http2 default_server;":
                f"listen 127.0.0.1:{self.https_port} ssl http2 default_server;",
            "server 127.0.0.1:8000;": f"server 127.0.0.1:{self.upstream_port};",
            "/etc/ssl/game2048/fullchain.pem": str(self.directory / "cert.pem"),
            "/etc/ssl/game2048/privkey.pem": str(self.directory / "key.pem"),
            "/etc/nginx/snippets/game2048-headers.conf": str(HEADERS_FILE),
            "root /srv/game2048/deploy/nginx;": f"root {SHIPPED};",
            "alias /srv/game2048/static/;": f"alias {ROOT / 'static'}/;",
        }

    def main_config(self) -> str:
        """What nginx.conf holds around the site: no daemon, every file in the scratch folder
        (workers as root when the tests run as root, to read the checkout wherever it is)."""
        scratch = self.directory
        temp = "\n".join(f"    {name}_temp_path {scratch / name};"
                         for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        return (f"{user}daemon off;\nworker_processes 2;\npid {scratch / 'nginx.pid'};\n"
                f"error_log {scratch / 'error.log'} warn;\nevents {{}}\n"
                f"http {{\n    include /etc/nginx/mime.types;\n    access_log off;\n{temp}\n"
                f"    include {scratch / 'site.conf'};\n}}\n")

    def check(self) -> subprocess.CompletedProcess[str]:
        """`nginx -t` on the configuration (written first)."""
        self._write()
        return subprocess.run([nginx_binary(), "-t", "-c", str(self.directory / "nginx.conf")],
                              capture_output=True, text=True, timeout=30)

    def _write(self) -> None:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", str(self.directory / "key.pem"),
                        "-out", str(self.directory / "cert.pem")], check=True,
                       capture_output=True)
        (self.directory / "site.conf").write_text(self.site())
        (self.directory / "nginx.conf").write_text(self.main_config())

    def __enter__(self) -> FrontDoor:
        self._write()
        self.process = subprocess.Popen([nginx_binary(), "-c", str(self.directory / "nginx.conf"),
                                         "-e", str(self.directory / "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _listening(self.https_port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (self.directory / "error.log").read_text()
                raise RuntimeError(f"nginx did not start:\n{log}")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False
