FROM python:3.11-slim
WORKDIR /srv/asobiba
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY engines ./engines
COPY migrations ./migrations
COPY static ./static
RUN pip install --no-cache-dir -e .
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
# Same start command as scripts/serve: migrate, print the URL, serve.
CMD ["python", "-m", "app"]
