"""gunicorn settings for production: ``gunicorn -c gunicorn.conf.py``.

Everything comes from the environment (the app's own settings: webapp/config.py and
webapp/production.py):

    BIND              address to listen on (default ``127.0.0.1:$PORT``, PORT defaulting to 8000);
                      put a TLS-terminating proxy in front and set the app's PROXY_HOPS
    WEB_CONCURRENCY   worker processes (default: one per CPU core)
    GUNICORN_THREADS  threads per worker (default 16, the gthread worker: while one request
                      waits on the disk or on Redis, another runs, and a worker holds the answers
                      of clients that ignore Retry-After and queues the rest fairly without
                      running out of threads: webapp/traffic/gate.py and fair_queue.py; 1
                      selects the sync worker)
    GUNICORN_TIMEOUT  seconds before a silent worker is restarted (default 30)
    GUNICORN_CMD_ARGS any other gunicorn option, e.g. "--access-logfile -"
"""

import os

wsgi_app = "webapp.production:create_production_app()"
bind = os.environ.get("BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
# Build the app once, before forking: a bad setting (say, a weak SECRET_KEY) stops the start-up
# with its message, and the solver's compiled code is shared by every worker.
preload_app = True
# Recycle workers now and then, staggered, so no slow leak can build up.
max_requests = 20_000
max_requests_jitter = 2_000
# No control socket in the home directory: several servers (or a read-only home) must not clash.
control_socket_disable = True


def post_fork(server, worker):
    """Start the app's review thread in each worker process as it starts: threads are started
    after the fork, never before (a fork carries none), and every worker then also takes up the
    reviews another one lost (webapp/review/worker.py)."""
    from webapp.review import start_worker

    start_worker(worker.app.wsgi())
