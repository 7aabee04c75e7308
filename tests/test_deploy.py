"""The deployment files in deploy/: the compose file's bonepile command is one the command line
takes, every service it names exists, and its nginx configuration, in front of a real site of
two workers on this machine's PostgreSQL and Redis, serves a hand from start to end. (The
project's machines have no Docker, so the compose file itself is not run.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import types
import urllib.request
from pathlib import Path

import pytest

from bonepile.cli import cli

pytestmark = pytest.mark.system

yaml = pytest.importorskip("yaml")

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def test_the_compose_file_runs_a_site_the_command_line_takes() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"db", "redis", "app", "proxy"} <= set(services)
    command = services["app"]["command"]
    assert command[:2] == ["bonepile", "serve"]
    serve = cli.commands["serve"]
    ctx = serve.make_context("serve", list(command[2:]))  # raises on an unknown option
    params = ctx.params
    assert params["database"].startswith("postgresql://") and "@db:" in params["database"]
    assert params["redis"].startswith("redis://redis:")
    assert params["workers"] >= 2 and params["host"] == "0.0.0.0"
    for needed in services["app"]["depends_on"]:
        assert needed in services
    assert services["app"]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert (DEPLOY.parent / services["app"]["build"]["dockerfile"]).exists()
    volume = services["proxy"]["volumes"][0].split(":")[0]
    assert (DEPLOY / volume).exists()


def test_the_proxy_passes_sockets_and_the_client_address_on() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    for line in (
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "server app:8000;",
    ):
        assert line in conf
    docker = (DEPLOY / "Dockerfile").read_text()
    assert "'.[server]'" in docker and "USER bonepile" in docker


NO_NGINX = "nginx is not installed (make test installs it)"


@pytest.mark.skipif(shutil.which("nginx") is None, reason=NO_NGINX)
def test_the_proxy_config_serves_a_whole_site(tmp_path: Path) -> None:
    """deploy/nginx.conf in front of a site of two workers (the compose file's app, on this
    machine's PostgreSQL and Redis): a hand is set up and played through the proxy."""
    from websockets.exceptions import InvalidStatus

    from live_server import free_port
    from site_servers import Browser, Seat, Site, play, services_or_skip

    services_or_skip()
    site = Site(tmp_path)
    proc = None
    try:
        app = site.add("--workers", "2")
        port = free_port()
        conf = (DEPLOY / "nginx.conf").read_text()
        conf = conf.replace("server app:8000;", f"server 127.0.0.1:{app.port};")
        conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
        main = tmp_path / "nginx.conf"
        main.write_text(
            f"daemon off;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
            "events {}\nhttp {\n"
            f"access_log off;\nclient_body_temp_path {tmp_path}/body;\n"
            f"proxy_temp_path {tmp_path}/proxy;\n{conf}\n}}\n"
        )
        proc = subprocess.Popen(["nginx", "-c", str(main), "-p", str(tmp_path)])
        proxy = types.SimpleNamespace(port=port, base=f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(proxy.base + "/api/health", timeout=5) as r:
                    assert json.loads(r.read())["ok"]
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        ann, bob = Browser(), Browser()
        made = ann.post(proxy, "/api/tables", {"game": "block", "seats": ["me", "open"]})
        joined = bob.post(proxy, f"/api/tables/{made['id']}/join", {"name": "Bob"})
        # Bob's browser sends its page's origin, as browsers do: the proxy passes the name
        # and port asked for, and the app lets a page of its own origin in
        page = f"http://127.0.0.1:{port}"
        seats = [
            Seat(proxy, made["id"], made["token"]),
            Seat(proxy, made["id"], joined["token"], origin=page),
        ]
        with pytest.raises(InvalidStatus, match="403"):  # a page of another site is refused
            Seat(proxy, made["id"], joined["token"], origin="http://evil.example")
        play(seats)
        assert all(s.last is not None and s.last["status"] == "over" for s in seats)
        for s in seats:
            s.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
        logs = site.close()
        assert "Traceback" not in logs, logs[-3000:]
