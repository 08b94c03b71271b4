"""Text files sent compressed (Flask-Compress): the stylesheets, scripts, SVG icons, the web app
manifest and the service worker, in Brotli where the browser accepts it (every current one
does), else zstd or deflate. They are most of a first visit's bytes, and shrink to about a
third (`python -m bench.page_weight`; figures in docs/performance.md). Brotli's quality 6 costs
a few milliseconds for the whole set, where quality 11 costs tens for a few percent fewer
bytes; a returning browser revalidates and gets a 304.

HTML is left as it is. A move's answer is a fragment of 1.5-3.5 KB sent on every press: it
travels in one or two packets either way, and compressing it would cost every move CPU. A page
is read once a visit and would gain a few KB.
"""

from flask import Flask
from flask_compress import Compress

#: The media types sent compressed (Python names JavaScript text/javascript from 3.12 and
#: application/javascript before).
COMPRESSED_TYPES = (
    "text/css",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
    "application/manifest+json",
)


def init_compression(app: Flask) -> None:
    """Compress the answers of ``COMPRESSED_TYPES`` for browsers that accept it."""
    app.config.setdefault("COMPRESS_MIMETYPES", list(COMPRESSED_TYPES))
    # Static files are streamed, and the library streams no gzip.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "zstd", "deflate"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 6)
    Compress(app)
