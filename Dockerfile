# The game rules compiled to C (scripts/compile_engines.py, mypyc: ~10 % more moves per core, see
# benchmarks/README.md), in a stage of their own so the image carries the build but no compiler.
FROM python:3.11-slim AS rules
WORKDIR /srv/asobiba
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
# mypy (which contains mypyc) at the version requirements/test.txt pins, and setuptools at the
# version pyproject.toml's build needs. (Not hash-checked like the app's own packages: only their
# output, the compiled files, reaches the image.)
RUN pip install --no-cache-dir mypy==2.4.1 setuptools==84.2.1
COPY pyproject.toml ./
COPY engines ./engines
COPY scripts/compile_engines.py ./scripts/compile_engines.py
RUN python scripts/compile_engines.py

FROM python:3.11-slim
WORKDIR /srv/asobiba
# Japanese fonts, so pages rendered in the image (screenshots, headless checks) show Japanese, not boxes.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk && rm -rf /var/lib/apt/lists/*
# The locked versions first (exact, hash-checked: the same as every machine; see README "Dependencies"),
# in their own layer so a code change does not reinstall them.
COPY requirements/app.txt ./requirements/app.txt
RUN pip install --no-cache-dir --require-hashes -r requirements/app.txt
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY engines ./engines
COPY migrations ./migrations
COPY static ./static
# The compiled rules beside their sources (engines/compiled.json records which sources they match).
COPY --from=rules /srv/asobiba/engines ./engines
COPY --from=rules /srv/asobiba/asobiba_engines__mypyc*.so ./
RUN pip install --no-cache-dir --no-deps -e .
# PYTHONPATH: the compiled rules' shared library lies at the top of the tree, where the editable
# install's finder (which maps only app/ and engines/) does not look; found from any working directory.
ENV HOST=0.0.0.0 PORT=8000 PYTHONPATH=/srv/asobiba
EXPOSE 8000
# Liveness (docs/operations.md): the process answers. Readiness (/readyz) is for load balancers.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]
# SIGTERM drains (sockets closed with 1012, exit 0) within SHUTDOWN_TIMEOUT: give `docker stop` more.
STOPSIGNAL SIGTERM
# Same start command as scripts/serve: migrate, print the URL, serve.
CMD ["python", "-m", "app"]
