"""``chatmem doctor`` and :func:`chatmem.embedding.diagnose`, against a real HTTP server on
127.0.0.1 (no patched client), and the environment read at the CLI's edge."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from chatmem.cli import main
from chatmem.config import Config
from chatmem.embedding import Diagnosis, diagnose
from chatmem.embedding.doctor import EXIT_CONFIG, EXIT_OK, EXIT_UNAVAILABLE
from chatmem.server.http import create_app
from fake_embedding_service import Step, fresh_service
from fake_embeddings import FakeOpenAI
from servers import running

KEY = "sk-doctor-secret-0123456789"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def no_key_in(diagnosis: Diagnosis) -> None:
    assert KEY not in json.dumps(diagnosis.to_dict())
    assert KEY not in "\n".join(diagnosis.lines())


def toml(path: Path, endpoint: str, **extra: object) -> str:
    lines = ["[embedding]", 'provider = "openai"', f'endpoint = "{endpoint}"',
             'model = "fake-embed"',
             *(f"{k} = {json.dumps(v)}" for k, v in extra.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- library


async def test_a_working_remote_provider_reports_model_dimensions_latency_endpoint() -> None:
    with FakeOpenAI(key=KEY, dim=24) as fake:
        d = await diagnose({"provider": "openai", "endpoint": fake.url, "batch_size": 8,
                            "model": "fake-embed"}, env={"OPENAI_API_KEY": KEY})
        assert fake.requests[0][1]["authorization"] == f"Bearer {KEY}"
    assert d.ok and d.exit_code == EXIT_OK
    assert (d.provider, d.model_id, d.dimensions) == ("openai", "openai:fake-embed", 24)
    assert d.endpoint == fake.url and d.key_from == "OPENAI_API_KEY"
    assert d.latency_ms is not None and d.latency_ms > 0 and d.warm_latency_ms is not None
    assert (d.cache, d.batch_size, d.error, d.fix) == ("lru(20000)", 8, None, None)
    assert len(fake.texts) == 2  # the probe, then a second text for the warm latency
    no_key_in(d)


async def test_the_local_model_reports_its_files() -> None:
    d = await diagnose({"cache": {"enabled": False}})
    assert d.ok and d.model_id == "local:all-MiniLM-L6-v2" and d.dimensions == 384
    assert d.endpoint is None and d.key_from is None and d.cache == "off"
    assert any(f.endswith("model.onnx") for f in d.model_files)
    assert any(f.endswith("tokenizer.json") for f in d.model_files)


async def test_a_refused_key_is_a_setting_to_fix_and_never_shown() -> None:
    with FakeOpenAI(key="the-right-key") as fake:  # its 401 body echoes what it got
        d = await diagnose({"provider": "openai", "endpoint": fake.url},
                           env={"OPENAI_API_KEY": KEY})
    assert not d.ok and d.exit_code == EXIT_CONFIG
    assert (d.status, d.decision) == (401, "fail")
    assert d.url == f"{fake.url}/embeddings"
    assert d.fix is not None and d.fix.startswith("embedding.api_key or OPENAI_API_KEY")
    assert d.error is not None and "***" in d.error
    no_key_in(d)


async def test_a_failing_service_is_unavailable_with_status_and_decision() -> None:
    with FakeOpenAI() as fake:
        fake.fail_status = 503
        d = await diagnose({"provider": "openai", "endpoint": fake.url, "max_retries": 1},
                           env={})
    assert not d.ok and d.exit_code == EXIT_UNAVAILABLE
    assert (d.status, d.decision) == (503, "defer")
    assert d.fix is not None and d.fix.startswith("none: the service failed (HTTP 503)")
    assert len(fake.requests) == 2  # one retry


async def test_an_unreachable_endpoint_names_the_endpoint() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    d = await diagnose({"provider": "openai", "endpoint": url, "max_retries": 0}, env={})
    assert d.exit_code == EXIT_UNAVAILABLE and d.decision == "defer" and d.status is None
    assert "network error" in (d.error or "")
    assert d.fix is not None and d.fix.startswith("embedding.endpoint")


async def test_a_size_other_than_the_models_is_a_setting_to_fix() -> None:
    with FakeOpenAI(dim=24) as fake:  # asked for 32, answers 24
        d = await diagnose({"provider": "openai", "endpoint": fake.url, "dimensions": 32},
                           env={})
    assert d.exit_code == EXIT_CONFIG and d.decision == "invalid"
    assert d.fix == "embedding.dimensions or embedding.model"


async def test_a_wrong_path_is_a_setting_to_fix() -> None:
    with FakeOpenAI() as fake:
        d = await diagnose({"provider": "openai", "endpoint": fake.url + "/nested"}, env={})
    assert d.exit_code == EXIT_CONFIG and d.status == 404
    assert d.fix is not None and d.fix.startswith("embedding.endpoint or embedding.model")


@pytest.mark.parametrize("config, env, fix", [
    ({"provider": "openai"}, {}, "embedding.api_key or OPENAI_API_KEY"),
    ({"provider": "openai", "endpoint": "https://x.openai.azure.com/openai/deployments/d",
      "api_version": "2024-10-21"}, {"OPENAI_API_KEY": KEY},
     "embedding.api_key or AZURE_OPENAI_API_KEY"),
    ({"provider": "openai", "endpoint": "https://openrouter.ai/api/v1"}, {},
     "embedding.api_key or OPENROUTER_API_KEY"),
    ({"timeout": 0}, {}, "embedding.timeout"),
    ({"provider": "openai", "endpoint": "ftp://x"}, {}, "embedding.endpoint"),
    ({"model": "./no/such/dir"}, {}, "embedding.model"),
    ({"dimensions": 4096}, {}, "embedding.dimensions"),
])
async def test_configuration_errors_exit_2_naming_the_setting(config: dict, env: dict,
                                                              fix: str) -> None:
    d = await diagnose(config, env=env)
    assert not d.ok and d.exit_code == EXIT_CONFIG, d
    assert d.fix == fix and d.error
    no_key_in(d)


# --------------------------------------------------------------------------- command


def test_doctor_text_and_json_for_the_local_model() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["doctor"])
    assert res.exit_code == 0, res.output
    assert "ok: the probe text was embedded" in res.output
    assert "local:all-MiniLM-L6-v2" in res.output and "model.onnx" in res.output
    res = runner.invoke(main, ["doctor", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["ok"] and data["dimensions"] == 384 and data["exit_code"] == 0


def test_doctor_reads_the_key_from_the_environment_and_never_prints_it(tmp_path: Path
                                                                       ) -> None:
    runner = CliRunner()
    with FakeOpenAI(key=KEY) as fake:
        cfg = toml(tmp_path / "c.toml", fake.url)
        res = runner.invoke(main, ["doctor", "--config", cfg], env={"OPENAI_API_KEY": KEY})
        assert res.exit_code == 0, res.output
        assert "openai:fake-embed" in res.output
        assert "from OPENAI_API_KEY" in res.output and KEY not in res.output
        # the same with a wrong key: exit 2, the fix, and still no key
        res = runner.invoke(main, ["doctor", "--config", cfg, "--json"],
                            env={"OPENAI_API_KEY": KEY + "-wrong"})
    assert res.exit_code == 2, res.output
    data = json.loads(res.output)
    assert data["status"] == 401 and data["fix"].startswith("embedding.api_key")
    assert KEY not in res.output


def test_doctor_options_override_the_configuration(tmp_path: Path) -> None:
    runner = CliRunner()
    with FakeOpenAI() as fake:
        res = runner.invoke(main, ["doctor", "--provider", "openai", "--endpoint", fake.url,
                                   "--model", "my-model", "--json"], env={"OPENAI_API_KEY": ""})
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["model_id"] == "openai:my-model"
    assert fake.requests[0][2]["model"] == "my-model"


def test_doctor_reports_a_bad_configuration_file_as_json(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.toml"
    bad.write_text("[embedding]\ntimeout = -1\n", encoding="utf-8")
    for args in (["--config", str(bad)], ["--config", str(tmp_path / "missing.toml")]):
        res = runner.invoke(main, ["doctor", *args, "--json"])
        assert res.exit_code == 2, res.output
        data = json.loads(res.output)
        assert data["ok"] is False and data["decision"] == "config" and data["error"]


def test_doctor_as_a_user_runs_it_against_a_failing_provider(tmp_path: Path) -> None:
    with FakeOpenAI(key=KEY) as fake:
        fake.fail_status = 500
        cfg = toml(tmp_path / "c.toml", fake.url, max_retries=0)
        env = {**os.environ, "OPENAI_API_KEY": KEY}
        proc = subprocess.run([sys.executable, "-m", "chatmem", "doctor", "--config", cfg,
                               "--json"], capture_output=True, text=True, timeout=120, env=env)
        text = subprocess.run([sys.executable, "-m", "chatmem", "doctor", "--config", cfg],
                              capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)  # one JSON object, nothing else on stdout
    assert (data["status"], data["decision"], data["exit_code"]) == (500, "defer", 1)
    assert data["url"] == f"{fake.url}/embeddings"
    assert text.returncode == 1
    assert "FAILED (exit 1: the provider is unavailable)" in text.stdout
    assert "http status  500" in text.stdout and "fix" in text.stdout
    for out in (proc.stdout, proc.stderr, text.stdout, text.stderr):
        assert KEY not in out


# --------------------------------------------------------------------------- the edge


def test_cli_commands_take_api_keys_from_the_environment(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "env.db")
    with FakeOpenAI(key=KEY) as fake:
        cfg = toml(tmp_path / "c.toml", fake.url)
        env = {"OPENAI_API_KEY": KEY}
        for text in ("My sister lives in Oslo", "The printer is out of toner"):
            res = runner.invoke(main, ["add", "--db", db, "--config", cfg, "--session", "s",
                                       text], env=env)
            assert res.exit_code == 0, res.output
        res = runner.invoke(main, ["recall", "--db", db, "--config", cfg, "--session", "s",
                                   "--window", "0", "--json", "where does my sister live?"],
                            env=env)
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["hits"][0]["message"]["content"] == \
            "My sister lives in Oslo"
        res = runner.invoke(main, ["stats", "--db", db, "--config", cfg, "--json"], env=env)
        assert json.loads(res.output)["vectors_by_model"] == \
            {"openai:fake-embed": 2}
        assert "where does my sister live?" in fake.texts


@pytest.mark.parametrize("command", [["add", "--session", "s", "hello"], ["serve"], ["mcp"]])
def test_a_missing_key_is_one_line_and_exit_2(tmp_path: Path, command: list[str]) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[embedding]\nprovider = "openai"\n', encoding="utf-8")
    res = CliRunner().invoke(main, [command[0], "--db", str(tmp_path / "k.db"), "--config",
                                    str(cfg), *command[1:]], env={"OPENAI_API_KEY": ""})
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: openai: no API key"), res.output
    assert "OPENAI_API_KEY" in lines[0]


def test_the_http_server_takes_the_key_from_the_env_it_is_given(tmp_path: Path) -> None:
    with FakeOpenAI(key=KEY) as fake:
        cfg = Config.load({"embedding": {"provider": "openai", "endpoint": fake.url,
                                         "model": "fake-embed"}})
        app = create_app(url=f"sqlite:///{tmp_path}/srv.db", config=cfg,
                         env={"OPENAI_API_KEY": KEY})
        with running(app) as base, httpx.Client(base_url=base, timeout=30) as c:
            r = c.post("/v1/messages", json={"messages": [
                {"session_id": "s", "content": "the boiler is serviced on Thursday"}]})
            assert r.status_code == 200, r.text
            deadline = time.monotonic() + 30
            while c.get("/v1/stats").json()["indexed"] < 1:
                assert time.monotonic() < deadline, "indexing did not finish"
                time.sleep(0.05)
        assert fake.requests and all(h["authorization"] == f"Bearer {KEY}"
                                     for _, h, _ in fake.requests)


async def test_an_https_endpoint_of_a_plain_http_service_is_a_setting_to_fix() -> None:
    # https:// given for a service on plain HTTP (an Ollama, a vLLM on its port): the TLS
    # handshake fails the same at every attempt, yet it was retried as a network error,
    # and doctor said exit 1, "is the service running and reachable at that address?",
    # which it is: the scheme was the fix
    with FakeOpenAI() as fake:
        url = fake.url.replace("http://", "https://", 1)
        d = await diagnose({"provider": "openai", "endpoint": url, "max_retries": 2},
                           env={})
    assert not d.ok and d.exit_code == EXIT_CONFIG and d.decision == "fail", d
    assert "TLS" in (d.error or "") and "http://" in (d.error or ""), d.error
    assert d.fix is not None and d.fix.startswith("embedding.endpoint"), d.fix
    assert "gave up after" not in (d.error or "")  # not retried


@pytest.mark.parametrize("path", ["/api/embeddings", "/api/embed", "/api/embeddings/"])
async def test_an_ollama_endpoint_copied_with_its_api_path_is_taken_as_the_server(
        path: str) -> None:
    # an endpoint copied from Ollama's documentation (…/api/embeddings) was joined as
    # …/api/embeddings/api/embed, which Ollama answers 404; doctor's url showed it
    with fresh_service() as service:
        d = await diagnose(service.config("ollama", key=None, path=path), env={})
        assert {r.path for r in service.requests} == {"/api/embed"}, service.requests
    assert d.ok and d.exit_code == EXIT_OK, d
    assert d.endpoint == service.url
    assert d.endpoint_note is not None and path.rstrip("/") in d.endpoint_note
    assert f"{service.url}/api/embed" in d.endpoint_note
    assert any(line.split() == ["note", *d.endpoint_note.split()] for line in d.lines())


def test_doctor_takes_an_ollama_endpoint_with_its_api_path_from_the_command_line() -> None:
    with fresh_service() as service:
        out = CliRunner().invoke(main, ["doctor", "--provider", "ollama", "--endpoint",
                                        f"{service.url}/api/embeddings", "--json"],
                                 env={"CHATMEM_CONFIG": None})
        assert {r.path for r in service.requests} == {"/api/embed"}
    assert out.exit_code == EXIT_OK, out.output
    report = json.loads(out.output)
    assert report["endpoint"] == service.url and "/api/embeddings" in report["endpoint_note"]


@pytest.mark.parametrize("body, fix", [
    ({"error": "\"llama3\" does not support embeddings"}, "is not an embedding model"),
    ({"error": "model \"llama3\" not found, try pulling it first"}, "ollama pull llama3"),
])
async def test_a_chat_model_answered_with_500_is_a_setting_to_fix(body: dict, fix: str
                                                                  ) -> None:
    # Ollama answers a chat model named as embedding model with HTTP 500: doctor said
    # exit 1, "none: the service failed (HTTP 500); try later"
    with fresh_service() as service:
        service.default = Step(status=500, body=body)
        d = await diagnose(service.config("ollama", key=None, model="llama3"), env={})
        assert len(service.requests) == 1
    assert not d.ok and d.exit_code == EXIT_CONFIG and d.decision == "fail", d
    assert d.status == 500 and body["error"].split('"')[1] in (d.error or "")
    assert d.fix is not None and d.fix.startswith("embedding.model") and fix in d.fix, d.fix
    assert any(line.startswith("  fix          embedding.model") for line in d.lines())
