"""The deployment files in deploy/: the compose file's bonepile command is one the command line
takes, every service it names exists, and the proxy passes the tables' sockets on. (The project's
machines have no Docker: the site itself is tested with real processes in test_site.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bonepile.cli import cli

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
