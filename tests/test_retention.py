"""Retention (I8): days per platform / chat type / group / session like scopes; the sweep
erases expired messages through the same path as forget, on every backend."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from backends import BACKENDS
from chatmem import Config, InvalidInput, Memory, PermissionDenied
from chatmem.embedding import Embedder
from chatmem.retention import DAY_MS, RETENTION_NAMESPACE
from providers import RecordingProvider

OWNER = {"id": "admin", "role": "owner"}
NOW = 1_700_000_000_000


def message(mid: str, session: str, age_days: float) -> dict[str, object]:
    return {"id": mid, "session_id": session, "ts": NOW - int(age_days * DAY_MS),
            "speaker_id": "u", "content": f"note {mid} about the garden shed"}


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_layers_decide_and_the_sweep_erases_everywhere(backend: str,
                                                             tmp_path: Path) -> None:
    async with BACKENDS[backend](tmp_path) as (store, index):
        cfg = Config.load(retention={"days": 30, "sweep_interval_s": 0})
        mem = Memory(store, index, Embedder(RecordingProvider()), cfg)
        try:
            for sid, group in (("g1", "team"), ("g2", "team"), ("dm", None), ("keep", None)):
                await mem.upsert_session({"id": sid, "origin_platform": "tg",
                                          "chat_type": "group" if group else "private",
                                          "group_id": group})
            await mem.set_retention(7, actor=OWNER, layer="group", platform="tg",
                                    group_id="team")
            await mem.set_retention(1, actor=OWNER, layer="session", session="g2")
            await mem.set_retention(0, actor=OWNER, layer="session", session="keep")
            eff = await mem.effective_retention("g1")
            assert (eff.days, eff.layer) == (7, "group")
            assert (await mem.effective_retention("g2")).days == 1
            assert (await mem.effective_retention("dm")).layer == "config"
            await mem.add([message(f"{sid}-{age}", sid, age)
                           for sid in ("g1", "g2", "dm", "keep") for age in (0.5, 3, 10, 40)])
            await mem.flush()
            erased = await mem.sweep_retention(now=NOW)
            left = sorted(m.id or "" for m in (await mem.list(limit=1000)).messages)
            assert left == ["dm-0.5", "dm-10", "dm-3", "g1-0.5", "g1-3", "g2-0.5",
                            "keep-0.5", "keep-10", "keep-3", "keep-40"]
            assert erased.messages == 6 and erased.vectors == 6
            vectors = {e.message_id for e in await index.scan_vectors(None, 1000)}
            assert vectors == set(left)
            assert await mem.sweep_retention(now=NOW) == type(erased)()  # nothing left
        finally:
            await mem.close()


async def test_bad_or_unauthorised_settings_change_nothing(tmp_path: Path) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path / 'r.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        with pytest.raises(PermissionDenied):
            await mem.set_retention(1, actor={"id": "bot", "role": "user"}, session="s")
        for days in (-1, 36_501, 1.5, True, "7"):
            with pytest.raises(InvalidInput, match="days must be an integer"):
                await mem.set_retention(days, actor=OWNER, session="s")  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match="needs group_id"):
            await mem.set_retention(1, actor=OWNER, layer="group", platform="tg")
        with pytest.raises(InvalidInput, match="layer must be one of"):
            await mem.set_retention(1, actor=OWNER, layer="planet")  # type: ignore[arg-type]
        assert not await mem.retention.any_layer()
        # a broken stored value keeps the messages
        await mem.add([message("old", "s", 400)])
        await mem.store.meta_set(RETENTION_NAMESPACE, "session:s", json.dumps("soon"))
        eff = await mem.effective_retention("s")
        assert eff.broken and eff.days == 0
        assert (await mem.sweep_retention(now=NOW)).messages == 0
        # nested too deep to read (an imported file, another program): broken too, not
        # a RecursionError from the sweep and the sessions listing
        await mem.store.meta_set(RETENTION_NAMESPACE, "session:s", "[" * 100_000)
        assert (await mem.effective_retention("s")).broken
        assert (await mem.sweep_retention(now=NOW)).messages == 0
        assert (await mem.sessions()).sessions[0].retention_days == 0
        await mem.set_retention(None, actor=OWNER, session="s")
        await mem.set_retention(30, actor=OWNER, session="s")
        assert (await mem.sweep_retention(now=NOW)).messages == 1


async def test_the_background_sweep_runs_by_itself(tmp_path: Path) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path / 'b.db'}",
                                 embedder=Embedder(RecordingProvider()),
                                 retention={"days": 1, "sweep_interval_s": 0.05}) as mem:
        await mem.add([{"id": "old", "session_id": "s", "ts": 1_000, "content": "ancient"},
                       {"id": "new", "session_id": "s", "content": "fresh"}])
        for _ in range(200):
            if "old" not in await mem.get(["old"]):
                break
            await asyncio.sleep(0.05)
        assert list(await mem.get(["old", "new"])) == ["new"]
