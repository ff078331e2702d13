"""The ``chatmem`` command: a thin layer over :class:`chatmem.Memory`.

Each command parses its options, calls one library method, maps errors to a
message and exit code 2, and shows an example in its help. The environment is
read here (``CHATMEM_DB``, ``CHATMEM_CONFIG``) and nowhere in the library.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from .config import Config
from .errors import ChatmemError
from .memory import Memory
from .models import Message, now_ms

T = TypeVar("T")


def default_db() -> str:
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("chatmem")) / "chatmem.db")


def load_config(path: str | None) -> Config:
    """Read a TOML or YAML configuration file (I6)."""
    if not path:
        return Config.load()
    p = Path(path)
    if not p.is_file():
        raise click.BadParameter(f"{path} does not exist", param_hint="--config")
    text = p.read_text(encoding="utf-8")
    data: Any
    if p.suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise click.BadParameter("YAML configuration needs PyYAML: pip install pyyaml",
                                     param_hint="--config") from None
        data = yaml.safe_load(text) or {}
    else:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            try:
                import tomli as tomllib
            except ImportError:
                raise click.BadParameter("TOML configuration on Python 3.10 needs tomli: "
                                         "pip install tomli", param_hint="--config") from None
        data = tomllib.loads(text)
    if not isinstance(data, dict):
        raise click.BadParameter(f"{path} must hold a table of options", param_hint="--config")
    return Config.load(data)


def run(coro_fn: Callable[..., Coroutine[Any, Any, T]]) -> Callable[..., T]:
    """Run an async command body; map chatmem errors to a one-line message, exit 2."""

    @wraps(coro_fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return asyncio.run(coro_fn(*args, **kwargs))
        except ChatmemError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper


def db_option(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--config", "config_path", envvar="CHATMEM_CONFIG", default=None,
                     help="TOML or YAML configuration file [env CHATMEM_CONFIG].")(f)
    return click.option("--db", envvar="CHATMEM_DB", default=None,
                        help="Store URL or SQLite file [env CHATMEM_DB; default: the user "
                             "data directory's chatmem.db].")(f)


def _store_url(db: str | None) -> str:
    return db or default_db()


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group()
@click.version_option(package_name="chatmem")
def main() -> None:
    """chatmem: semantic long-term memory for chat agents.

    \b
    Example:
      chatmem demo
      chatmem add --db chat.db --session s1 --speaker-name Alex "The deadline is Friday"
      chatmem recall --db chat.db --session s1 "when is the deadline?"
    """


@main.command()
@click.option("--db", default=None, help="Keep the demo store in this file (default: memory).")
@click.option("--json", "as_json", is_flag=True, help="Print the injected messages as JSON.")
@run
async def demo(db: str | None, as_json: bool) -> None:
    """Replay a conversation that drifts across topics, then ask about the first topic,
    and print what chatmem would inject before the model call. Offline.

    \b
    Example:
      chatmem demo
    """
    from .demo import DEMO_QUESTION, DEMO_SESSION, DEMO_USER, demo_messages

    start = now_ms() - 3 * 86_400_000
    async with await Memory.open(db or "memory://") as mem:
        await mem.add(demo_messages(start))
        question = Message(session_id=DEMO_SESSION, content=DEMO_QUESTION, role="user",
                           speaker_id=DEMO_USER[0], speaker_name=DEMO_USER[1], platform="cli")
        [stored] = await mem.add(question)
        await mem.flush()
        injected = await mem.context([stored], session=DEMO_SESSION)
    if as_json:
        _echo_json(injected)
        return
    click.echo(f"User asks: {DEMO_QUESTION}\n")
    click.echo("Injected before the model call:\n")
    for m in injected:
        click.echo(f"--- {m['role']} ---\n{m['content']}\n")


@main.command()
@db_option
@click.option("--session", required=True, help="Session (conversation) id.")
@click.option("--role", default="user", show_default=True,
              type=click.Choice(["user", "assistant", "system", "tool", "notice"]))
@click.option("--speaker-id", default=None, help="Who spoke (user id).")
@click.option("--speaker-name", default=None, help="Sender label shown in recalls.")
@click.option("--platform", default=None, help="Entry platform of this message.")
@click.option("--ts", type=int, default=None, help="Time in ms since the epoch (default: now).")
@click.option("--no-wait", is_flag=True, help="Do not wait for indexing before exiting.")
@click.option("--json", "as_json", is_flag=True, help="Print the stored message as JSON.")
@click.argument("text")
@run
async def add(db: str | None, config_path: str | None, session: str, role: str,
              speaker_id: str | None, speaker_name: str | None, platform: str | None,
              ts: int | None, no_wait: bool, as_json: bool, text: str) -> None:
    """Store one message (and index it).

    \b
    Example:
      chatmem add --db chat.db --session s1 --speaker-name Alex "The deadline is Friday"
    """
    cfg = load_config(config_path)
    async with await Memory.open(_store_url(db), config=cfg) as mem:
        [msg] = await mem.add(Message(session_id=session, content=text, role=role,  # type: ignore[arg-type]
                                      speaker_id=speaker_id, speaker_name=speaker_name,
                                      platform=platform, ts=ts))
        if not no_wait:
            await mem.flush()
    if as_json:
        _echo_json(msg.to_dict())
    else:
        click.echo(f"stored {msg.id} in {session} at ts={msg.ts}")


@main.command()
@db_option
@click.option("--session", default=None, help="The current session (needed by scope=session).")
@click.option("--scope", default=None,
              type=click.Choice(["all", "user", "platform", "resource", "session", "thread"]),
              help="Visibility scope (default: from configuration, 'all').")
@click.option("--top-k", type=int, default=None, help="Hits to return (default 5).")
@click.option("--window", type=int, default=None, help="Neighbours each side (default 2).")
@click.option("--min-score", type=float, default=None, help="Semantic floor 0..1 (default 0).")
@click.option("--json", "as_json", is_flag=True, help="Structured hits as JSON.")
@click.argument("query")
@run
async def recall(db: str | None, config_path: str | None, session: str | None,
                 scope: str | None, top_k: int | None, window: int | None,
                 min_score: float | None, as_json: bool, query: str) -> None:
    """Recall past messages relevant to QUERY and print the rendered memory.

    \b
    Example:
      chatmem recall --db chat.db --session s1 --scope session "when is the deadline?"
    """
    cfg = load_config(config_path)
    async with await Memory.open(_store_url(db), config=cfg) as mem:
        result = await mem.recall(query, session=session, scope=scope, top_k=top_k,
                                  window=window, min_score=min_score)
    if as_json:
        _echo_json(result.to_dict())
    else:
        click.echo(result.text or "(nothing recalled)")


@main.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@run
async def stats(db: str | None, config_path: str | None, as_json: bool) -> None:
    """Counts of messages, indexed, pending and failed, and vectors per model.

    \b
    Example:
      chatmem stats --db chat.db --json
    """
    cfg = load_config(config_path)
    async with await Memory.open(_store_url(db), config=cfg) as mem:
        data = await mem.stats()
    if as_json:
        _echo_json(data)
    else:
        for key in ("messages", "sessions", "indexed", "pending", "failed", "skipped"):
            click.echo(f"{key:>10}: {data[key]}")
        for model, n in data["vectors_by_model"].items():
            click.echo(f"   vectors: {n} ({model or 'no model id'})")


if __name__ == "__main__":  # pragma: no cover
    main()
