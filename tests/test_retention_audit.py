"""Retention audit (I8): settings keys that cannot collide, a setting's parts checked
against its layer, the retention reported being the one the sweep applies, and a sweep
over many sessions erasing in few transactions, on every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from backends import BACKENDS
from chatmem import Config, InvalidInput, Memory
from chatmem.embedding import Embedder
from chatmem.retention import DAY_MS, RETENTION_NAMESPACE, SWEEP_SESSIONS
from providers import RecordingProvider
from servers import running
from test_http import ALICE, client
from test_http_forget import create_app_for

OWNER = {"id": "admin", "role": "owner"}
NOW = 1_700_000_000_000


def old(mid: str, session: str, age_days: float, **extra: object) -> dict[str, object]:
    return {"id": mid, "session_id": session, "ts": NOW - int(age_days * DAY_MS),
            "content": f"note {mid} about the garden shed", **extra}


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_a_slash_in_a_platform_or_group_never_reaches_another_groups_setting(
        backend: str, tmp_path: Path) -> None:
    """Platform ``tg`` with group ``x/y`` and platform ``tg/x`` with group ``y`` had one
    key (``group:tg/x/y``): one group's retention (and scope) decided for the other."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        cfg = Config.load(retention={"days": 0, "sweep_interval_s": 0})
        mem = Memory(store, index, Embedder(RecordingProvider()), cfg)
        try:
            await mem.upsert_session({"id": "inner", "origin_platform": "tg",
                                      "chat_type": "a/b", "group_id": "x/y"})
            await mem.upsert_session({"id": "outer", "origin_platform": "tg/x",
                                      "chat_type": "b", "group_id": "y"})
            await mem.set_retention(3, actor=OWNER, layer="group", platform="tg",
                                    group_id="x/y")
            await mem.set_retention(5, actor=OWNER, layer="chat_type", platform="tg/x",
                                    chat_type="b")
            await mem.set_scope("all", actor=OWNER, layer="group", platform="tg",
                                group_id="x/y")
            inner = await mem.effective_retention("inner")
            outer = await mem.effective_retention("outer")
            assert (inner.days, inner.layer) == (3, "group")
            assert (outer.days, outer.layer) == (5, "chat_type")
            assert (await mem.effective_scope("outer")).layer == "config"
            await mem.add([old("in-old", "inner", 4), old("out-old", "outer", 4)])
            await mem.sweep_retention(now=NOW)
            assert list(await mem.get(["in-old", "out-old"])) == ["out-old"]
            # a platform without '/' or '%' keeps the key it always had (stored settings)
            await mem.set_retention(2, actor=OWNER, layer="group", platform="tg",
                                    group_id="team")
            keys = {k for ns, k, _ in await store.meta_items() if ns == RETENTION_NAMESPACE}
            assert "group:tg/team" in keys
        finally:
            await mem.close()


async def test_a_part_the_layer_does_not_read_is_refused_and_nothing_is_set(
        tmp_path: Path) -> None:
    """``layer="platform"`` with a ``chat_type`` set the whole platform's retention (1 day
    for every telegram chat where the private ones' was meant); a session layer given a
    group_id, or a group layer a session, dropped the part silently."""
    async with await Memory.open(f"sqlite:///{tmp_path / 'r.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        for kw in ({"layer": "platform", "platform": "tg", "chat_type": "private"},
                   {"layer": "session", "session": "vip", "group_id": "team"},
                   {"layer": "group", "platform": "tg", "group_id": "team",
                    "session": "vip"},
                   {"layer": "session", "session": "vip", "platform": "tg"}):
            with pytest.raises(InvalidInput, match="-level setting takes"):
                await mem.set_retention(1, actor=OWNER, **kw)  # type: ignore[arg-type]
            with pytest.raises(InvalidInput, match="-level setting takes"):
                await mem.set_scope("all", actor=OWNER, **kw)  # type: ignore[arg-type]
        assert not await mem.retention.any_layer()
        assert not [k for ns, k, _ in await mem.store.meta_items() if "settings" in ns]


def test_put_retention_with_two_layers_parts_is_a_400(tmp_path: Path) -> None:
    with running(create_app_for(tmp_path)) as base, client(base, ALICE) as c:
        r = c.put("/v1/retention", json={"days": 1, "session": "room1",
                                         "group_id": "team"})
        assert r.status_code == 400 and "group_id" in r.json()["error"]["message"], r.text
        r = c.put("/v1/retention", json={"days": 1, "layer": "platform", "platform": "tg",
                                         "chat_type": "private"})
        assert r.status_code == 400 and "chat_type" in r.json()["error"]["message"], r.text
        assert c.get("/v1/retention", params={"session": "room1"}).json()["layer"] \
            == "config"


async def test_the_retention_reported_is_the_one_the_sweep_applies(tmp_path: Path) -> None:
    """An entry platform named a platform layer the sweep (which has no turn) never
    applies: ``effective_retention("u", "tg")`` said 7 days while a 30-day-old message
    of the session was kept."""
    async with await Memory.open(f"sqlite:///{tmp_path / 'e.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.set_retention(7, actor=OWNER, layer="platform", platform="tg")
        await mem.add([old("m1", "u", 30, platform="tg")])
        eff = await mem.effective_retention("u", "tg")
        assert (eff.days, eff.layer) == (0, "config")
        assert (await mem.sweep_retention(now=NOW)).messages == 0
        # registered on the platform: reported and applied alike
        await mem.upsert_session({"id": "u", "origin_platform": "tg"})
        assert (await mem.effective_retention("u")).layer == "platform"
        assert (await mem.sweep_retention(now=NOW)).messages == 1


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_sweep_erases_the_expired_messages_of_many_sessions_together(
        backend: str, tmp_path: Path) -> None:
    """One erase (a full-text merge and a log checkpoint on SQLite) per session made a
    sweep of 50,000 one-message sessions take half an hour; sessions are read a page at
    a time and their expired messages erased ERASE_CHUNK at a time."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        cfg = Config.load(retention={"days": 1, "sweep_interval_s": 0})
        mem = Memory(store, index, Embedder(RecordingProvider()), cfg)
        try:
            n = SWEEP_SESSIONS + 20  # more than a page of sessions
            await mem.add([old(f"m{i}", f"s{i:04}", 2) for i in range(n)]
                          + [old("fresh", "s0000", 0.5), old("kept", "keep", 9)])
            await mem.set_retention(0, actor=OWNER, session="keep")
            calls: list[int] = []
            erase = store.erase_messages

            async def counting(ids: list[str]) -> object:
                calls.append(len(ids))
                return await erase(ids)

            store.erase_messages = counting  # type: ignore[method-assign]
            erased = await mem.sweep_retention(now=NOW)
            assert erased.messages == n and calls == [n]
            left = sorted(m.id or "" for m in (await mem.list(limit=100)).messages)
            assert left == ["fresh", "kept"]
        finally:
            await mem.close()
