"""The web console (README § Console) in a real browser: Playwright driving Debian's
Chromium against a real server on 127.0.0.1. Sign-in with user and owner keys, a scope
change, a forget with its counts first, the recall inspector against Memory.context(),
live health, and a message holding HTML shown as text. Every page is captured at
1280×800 and 390×844 under artifacts/console/ (CI keeps the folder).

Without Chromium or Playwright these tests skip, unless CHATMEM_REQUIRE_BROWSER=1 (as
.ci/run sets it): then they fail."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder
from fake_embedding_service import Step, fresh_service
from providers import RecordingProvider
from servers import running
from test_http import ALICE, ALICE_BOT, ALICE_DM, client, keys, wait_indexed

CHROMIUM = os.environ.get("CHATMEM_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("CHATMEM_CONSOLE_ARTIFACTS",
                                Path(__file__).resolve().parent.parent / "artifacts" / "console"))
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
XSS = "<img src=x onerror=alert(1)><script>alert(2)</script>"
DAY = 86_400_000
T0 = 1_767_225_600_000  # 2026-01-01T00:00Z: fixed, so recency is the same for every caller


def _config() -> Config:
    # retries every second at most: a provider that recovers is seen within a few
    return Config.load(context_expand={"window": 1},
                       indexing={"retry_initial_s": 0.2, "retry_max_s": 1.0})


def _browser_or_skip() -> Any:
    required = os.environ.get("CHATMEM_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("playwright is not installed but CHATMEM_REQUIRE_BROWSER=1")
        pytest.skip("no playwright: pip install playwright")
    if not Path(CHROMIUM).exists():
        if required:
            pytest.fail(f"{CHROMIUM} is missing but CHATMEM_REQUIRE_BROWSER=1 "
                        "(apt-get install chromium)")
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    return sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _browser_or_skip()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@dataclass
class Server:
    base: str
    url: str  # the storage URL of namespace "alice"
    stop: Callable[[], None] = field(repr=False)
    provider: RecordingProvider = field(repr=False)  # fail_with/recover: an outage on cue


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    from chatmem.server.http import create_app

    provider = RecordingProvider()
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     config=_config(), embedder=Embedder(provider))
    ctx = running(app)
    base = ctx.__enter__()
    stopped = False

    def stop() -> None:
        nonlocal stopped
        if not stopped:
            stopped = True
            ctx.__exit__(None, None, None)

    try:
        yield Server(base, f"sqlite:///{tmp_path}/alice.db", stop, provider)
    finally:
        stop()


def seed(base: str) -> None:
    """Three conversations of namespace alice, indexed."""
    with client(base, ALICE) as c:
        r = c.put("/v1/sessions/hiking", json={"origin_platform": "telegram",
                                               "chat_type": "group", "group_id": "g1",
                                               "group_name": "Hiking club"})
        assert r.status_code == 200, r.text
        names = {"alice": "Alice", "bob": "Bob", "ops": "Operator", None: None}
        msgs = [  # (session, speaker: None for the assistant, content)
            ("hiking", "alice", "Are we still doing the ridge trail on Saturday?"),
            ("hiking", "bob", "Yes, meet at the car park at 7, bring two litres of water"),
            ("hiking", None, "Noted: ridge trail Saturday, 7:00 at the car park."),
            ("hiking", "alice", "My knee is still sore, I will take the short loop"),
            ("dm-alice", "alice", "Remind me that my sister's birthday is on 14 March"),
            ("dm-alice", None, "I will remember: your sister's birthday is 14 March."),
            ("dm-alice", "alice", "I prefer oat milk in my coffee"),
            ("cli", "ops", "boiler service booked for Thursday morning"),
        ]
        body = [{"session_id": s, "speaker_id": sp, "speaker_name": names[sp],
                 "role": "assistant" if sp is None else "user",
                 "content": text, "ts": T0 + i * 60_000, "id": f"m{i}",
                 "platform": "telegram" if s == "hiking" else "cli"}
                for i, (s, sp, text) in enumerate(msgs)]
        r = c.post("/v1/messages", json={"messages": body})
        assert r.status_code == 200, r.text
        wait_indexed(c, 8)


@dataclass
class Tab:
    page: Any
    dialogs: list[str]
    errors: list[str]


def open_console(browser: Any, base: str, key: str, *, session: str = "",
                 size: str = "desktop") -> Tab:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    dialogs: list[str] = []
    errors: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    # CSP violations, failed loads and script errors all land here
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/console")
    page.fill("#signin-key", key)
    page.fill("#signin-session", session)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#who:not(:empty)")
    page.wait_for_selector("#page-sessions:not([hidden])")
    return Tab(page, dialogs, errors)


def shot(page: Any, name: str, size: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=False)


def visible_count(page: Any, selector: str) -> int:
    return int(page.eval_on_selector_all(
        selector, "els => els.filter(e => e.offsetParent !== null).length"))


def forged(page: Any, method: str, path: str, body: dict[str, Any]) -> int:
    """The status of a request made from the page with the signed-in key."""
    return int(page.evaluate(
        """([method, path, body]) => fetch(path, {method, body: JSON.stringify(body),
            headers: {Authorization: 'Bearer ' + sessionStorage.getItem('chatmem.key'),
                      'Content-Type': 'application/json'}}).then(r => r.status)""",
        [method, path, body]))


def show_timeline(page: Any, base: str, session: str) -> None:
    """Open the Timeline page and show ``session`` (its list, or its empty state)."""
    page.goto(base + "/console#timeline")
    page.fill("#timeline-session", session)
    page.click("#timeline-form button[type=submit]")
    page.wait_for_selector("#timeline-list .message, #timeline-empty:not([hidden])")


def inspect(page: Any, base: str, session: str, turn: str) -> None:
    """Open the Recall inspector and inspect ``turn`` as ``session``."""
    page.goto(base + "/console#inspector")
    page.fill("#inspector-session", session)
    page.fill("#inspector-turn", turn)
    page.click("#inspector-form button[type=submit]")
    page.wait_for_selector("#inspector-out:not([hidden])")


def count_forget(page: Any, base: str, kind: str, value: str) -> str:
    """Open the Forget page and count what erasing ``kind`` (speaker_id, session,
    message) ``value`` would erase: the counts shown, before any confirmation."""
    page.goto(base + "/console#forget")
    page.select_option("#forget-kind", kind)
    page.fill("#forget-value", value)
    page.click("#forget-form button[type=submit]")
    page.wait_for_selector("#forget-confirm:not([hidden])")
    return page.text_content("#forget-counts") or ""


def confirm_forget(page: Any) -> str:
    """Confirm the erase counted: what the page says was erased."""
    page.click("#forget-go")
    page.wait_for_selector("#forget-done:not([hidden])")
    return page.text_content("#forget-done") or ""


def test_console_is_public_with_a_strict_csp_and_the_api_is_not(server: Server) -> None:
    for path in ("/console", "/console/console.js", "/console/console.css"):
        r = httpx.get(server.base + path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "set-cookie" not in r.headers
    script = httpx.get(server.base + "/console/console.js").text
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script, sink
    assert httpx.get(server.base + "/v1/whoami").status_code == 401


def test_the_console_answers_head_as_get_without_a_body(server: Server) -> None:
    # HEAD /console was 405 (only GET was routed): a link checker or a load balancer's
    # probe of the console read it as down, as /health's HEAD once was
    for path in ("/console", "/console/console.js", "/console/console.css",
                 "/console/favicon.svg"):
        got, head = httpx.get(server.base + path), httpx.head(server.base + path)
        assert head.status_code == 200 and head.content == b"", path
        for name in ("content-type", "content-security-policy", "cache-control"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)


def test_the_console_reads_no_file_a_request_names(server: Server) -> None:
    """The console's files are fixed: a query string cannot name another. Its first
    version bound each file name as a default argument of the endpoint, which FastAPI
    reads from the request: `GET /console?name=../../../etc/passwd` answered the file,
    without a key."""
    for path in ("/console", "/console/console.js", "/console/console.css",
                 "/console/favicon.svg"):
        own = httpx.get(server.base + path)
        assert own.status_code == 200, path
        for query in ("name=../../../../../../../../../etc/passwd",
                      "name=__init__.py&media_type=text/plain", "media_type=text/html"):
            r = httpx.get(f"{server.base}{path}?{query}")
            assert r.status_code == 200, (path, query)
            assert r.content == own.content and b"root:" not in r.content, (path, query)
            assert r.headers["content-type"] == own.headers["content-type"]


def test_no_route_outside_the_api_schema_reads_the_request(tmp_path: Path) -> None:
    """A route left out of the OpenAPI schema (the console's, the docs') takes nothing
    from the request: no query, path, header, cookie or body parameter, which nobody
    would see documented or checked (the console's file name was one)."""
    from fastapi.routing import APIRoute

    from chatmem.server.http import create_app

    def walk(routes: Any, seen: set[int]) -> Any:
        for route in routes:
            if id(route) in seen:
                continue
            seen.add(id(route))
            if isinstance(route, APIRoute):
                yield route
            inner = getattr(route, "original_router", None)  # an included router
            if inner is not None:
                yield from walk(inner.routes, seen)

    def params(dep: Any) -> list[str]:
        own = [p.name for kind in ("query_params", "path_params", "header_params",
                                   "cookie_params", "body_params")
               for p in getattr(dep, kind)]
        return own + [n for sub in dep.dependencies for n in params(sub)]

    app = create_app(url=f"sqlite:///{tmp_path}/routes.db").app
    routes = list(walk(app.routes, set()))
    assert "/v1/recall" in {r.path for r in routes}  # the included API router is walked
    hidden = [r for r in routes if not r.include_in_schema]
    assert {r.path for r in hidden} >= {"/console", "/console/console.js"}
    for route in hidden:
        assert params(route.dependant) == [], route.path


def test_user_key_sees_its_conversation_and_no_owner_controls(browser: Any, server: Server
                                                              ) -> None:
    seed(server.base)
    tab = open_console(browser, server.base, ALICE_BOT, session="dm-alice")
    page = tab.page
    page.wait_for_selector("#sessions-list .card")
    assert page.locator("#sessions-list .card").evaluate_all(
        "cards => cards.map(c => c.dataset.session)") == ["dm-alice"]
    assert visible_count(page, ".owner-only") == 0
    assert visible_count(page, "select, input[type=number]") == 0
    assert "user" in page.text_content("#who")
    page.goto(server.base + "/console#forget")  # no Forget page for a user key
    page.wait_for_selector("#page-sessions:not([hidden])")
    assert page.is_hidden("#page-forget")
    show_timeline(page, server.base, "dm-alice")
    assert page.locator("#timeline-list .message").count() == 3
    # what the console does not offer, the API refuses to this key
    assert forged(page, "PUT", "/v1/settings", {"scope": "all", "session": "dm-alice"}) == 403
    assert forged(page, "POST", "/v1/forget", {"speaker_id": "alice"}) == 403
    assert forged(page, "POST", "/v1/forget", {"speaker_id": "alice", "dry_run": True}) == 403
    with client(server.base, ALICE) as c:
        assert len(c.get("/v1/messages").json()["messages"]) == 8
        assert c.get("/v1/settings", params={"session": "dm-alice"}).json()["layer"] \
            == "config"
    assert tab.dialogs == []


def test_a_user_key_has_no_health_page_and_reads_no_namespace_counts(
        browser: Any, server: Server) -> None:
    """The Health page showed a user key the namespace's counts (/v1/stats: messages,
    sessions and vectors of every conversation, whoever spoke), though it sees only what
    its conversation may see. A user key now gets no Health page (nor the counts from
    the API: 403); its own conversation's counts stay on its Sessions card."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE_BOT, session="dm-alice")
    page = tab.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    card = page.locator("#sessions-list .card[data-session=dm-alice]")
    card.wait_for()
    assert "3 (" in card.text_content()  # its own conversation's messages, counted
    assert visible_count(page, "nav a[data-page=health]") == 0
    page.goto(server.base + "/console#health")
    page.wait_for_selector("#page-sessions:not([hidden])")
    assert page.is_hidden("#page-health")
    page.wait_for_timeout(2500)  # a live page would have asked for the counts by now
    assert [u for u in asked if "/v1/stats" in u] == []
    assert page.locator("#health-counts .count").count() == 0
    assert tab.dialogs == [] and tab.errors == []
    status = page.evaluate("""() => fetch('/v1/stats', {headers: {Authorization: 'Bearer '
        + sessionStorage.getItem('chatmem.key')}}).then(r => r.status)""")
    assert status == 403  # what the console does not offer, the API refuses too
    owner = open_console(browser, server.base, ALICE)  # an owner keeps the whole view
    assert visible_count(owner.page, "nav a[data-page=health]") == 1
    owner.page.click("nav a[data-page=health]")
    owner.page.wait_for_selector("#health-counts .count")
    assert owner.errors == []


def test_a_key_bound_to_one_session_is_refused_at_sign_in_with_another(
        browser: Any, server: Server) -> None:
    """A user key bound to session s1 (keys.<name>.sessions) that signed in with another
    session typed got in, and then every page answered 403. Sign-in now refuses it with
    an error naming the session the key acts for, and keeps nothing of the key."""
    seed(server.base)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.base + "/console")
    for typed in ("dm-alice", ""):
        page.fill("#signin-key", ALICE_DM)
        page.fill("#signin-session", typed)
        page.click("#signin-form button[type=submit]")
        # the click stores the key, the refusal drops it: waited for, as the previous
        # round's error is still shown while this one's whoami is on its way
        page.wait_for_function("() => sessionStorage.getItem('chatmem.key') === null")
        page.wait_for_selector("#error:not([hidden])")
        error = page.text_content("#error") or ""
        assert "acts only for" in error and 'session "s1"' in error, error
        assert "alice-dm" in error and (typed == "" or f'"{typed}"' in error), error
        assert page.is_visible("#page-signin") and page.is_hidden("#nav")
        assert page.evaluate("() => sessionStorage.getItem('chatmem.key')") is None
        assert page.text_content("#who") == ""
    page.fill("#signin-key", ALICE_DM)  # its own session: in, and its pages answer
    page.fill("#signin-session", "s1")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#who:not(:empty)")
    assert (page.text_content("#who") or "").endswith("as s1")
    show_timeline(page, server.base, "s1")
    page.wait_for_timeout(300)
    assert page.is_hidden("#error"), page.text_content("#error")
    assert errors == []
    context.close()


def test_forget_by_message_id_counts_messages_and_vectors_as_the_others_do(
        browser: Any, server: Server) -> None:
    """Forget by speaker or session said how many messages and vectors would go, and
    went; by message id it said only "1 message will be erased" and "Erased 1
    message(s)." Now each kind shows the same counts."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    assert count_forget(page, server.base, "message", "m1") == (
        "1 message(s) and 1 vector(s) will be erased everywhere (message m1).")
    with client(server.base, ALICE) as c:  # counting erased nothing
        assert len(c.post("/v1/messages/get", json={"ids": ["m1"]}).json()["messages"]) == 1
    done = confirm_forget(page)
    assert done.startswith("Erased 1 messages, 1 vectors, 1 lexical"), done
    assert "deleted" not in done and "not_found" not in done and done.endswith("cache."), done
    with client(server.base, ALICE) as c:
        assert c.post("/v1/messages/get", json={"ids": ["m1"]}).json()["messages"] == []
    page.fill("#forget-value", "m1")  # gone: nothing to erase, no button to do it
    page.click("#forget-form button[type=submit]")
    page.wait_for_function("""() => document.getElementById('forget-counts').textContent
        .startsWith('0 message(s)')""")
    assert page.text_content("#forget-counts") == (
        "0 message(s) and 0 vector(s) will be erased everywhere (message m1).")
    assert page.is_hidden("#forget-go")
    assert tab.dialogs == [] and tab.errors == []


def test_owner_changes_a_scope_and_forgets_a_speaker_after_seeing_counts(
        browser: Any, server: Server) -> None:
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    card = page.locator("#sessions-list .card[data-session=hiking]")
    card.wait_for()
    assert visible_count(page, ".owner-only") >= 2  # the Forget link, the card controls
    card.locator("select.scope-select").select_option("session")
    card.locator("input.days").fill("30")
    card.locator("button.save-scope").click()
    page.wait_for_function("""() => document.querySelector(
        '.card[data-session=hiking] .scope').textContent === 'session (from session)'""")
    assert "30 days (from session)" in card.locator(".retention").text_content()
    with client(server.base, ALICE) as c:
        assert c.get("/v1/settings", params={"session": "hiking"}).json()["scope"] \
            == "session"
        assert c.get("/v1/retention", params={"session": "hiking"}).json()["days"] == 30

    assert count_forget(page, server.base, "speaker_id", "alice") == (
        "4 message(s) and 4 vector(s) will be erased everywhere (speaker alice).")
    with client(server.base, ALICE) as c:  # counting erased nothing
        assert len(c.get("/v1/messages", params={"speaker_id": "alice"}).json()["messages"]) == 4
    assert confirm_forget(page).startswith("Erased 4 messages, 4 vectors")
    page.click("nav a[data-page=timeline]")
    page.fill("#timeline-session", "dm-alice")
    page.click("#timeline-form button[type=submit]")
    page.wait_for_selector("#timeline-list .message")
    speakers = page.locator("#timeline-list .speaker").all_text_contents()
    assert speakers == ["assistant"]  # Alice's two messages are gone, the reply stays
    page.fill("#timeline-text", "alice")  # nothing of hers is found by text either
    page.fill("#timeline-session", "hiking")
    page.click("#timeline-form button[type=submit]")
    page.wait_for_selector("#timeline-empty:not([hidden])")
    assert page.locator("#timeline-list .message").count() == 0
    with client(server.base, ALICE) as c:
        assert c.get("/v1/messages", params={"speaker_id": "alice"}).json()["messages"] == []
    assert tab.dialogs == [] and tab.errors == []


def test_a_session_without_a_row_is_marked_with_its_repair(browser: Any, server: Server
                                                           ) -> None:
    """A session whose row was removed by hand (DELETE FROM sessions …) is listed with
    its messages and no labels, a card like a bare session's: nothing said it has no
    row, nor that no platform, chat-type or group setting reaches it. Its card now says
    so, with the repair README § Retention names (chatmem session set …, or PUT
    /v1/sessions/{id}), to an owner and to the user key of that conversation; the
    others have no mark."""
    import sqlite3

    seed(server.base)
    conn = sqlite3.connect(server.url[len("sqlite:///"):])
    with conn:
        assert conn.execute("DELETE FROM sessions WHERE id = 'dm-alice'").rowcount == 1
    conn.close()
    for key, session, cards in ((ALICE, "", ["cli", "dm-alice", "hiking"]),
                                (ALICE_BOT, "dm-alice", ["dm-alice"])):
        tab = open_console(browser, server.base, key, session=session)
        page = tab.page
        page.wait_for_selector("#sessions-list .card")
        assert page.locator("#sessions-list .card").evaluate_all(
            "cards => cards.map(c => c.dataset.session)") == cards
        marks = page.locator("#sessions-list .card .unregistered")
        assert marks.count() == 1
        card = page.locator("#sessions-list .card[data-session=dm-alice]")
        said = card.locator(".unregistered").text_content() or ""
        assert said.startswith("No session row — messages only: its row was removed "
                               "outside chatmem"), said
        assert "chatmem session set --origin-platform P [--chat-type T] [--group-id G] " \
            "dm-alice, or PUT /v1/sessions/dm-alice (owner keys)." in said, said
        assert "3 (" in (card.locator("dd").first.text_content() or "")  # its messages
        assert tab.dialogs == [] and tab.errors == []
        page.context.close()


def test_the_repair_of_a_session_named_like_an_option_ends_the_options(
        browser: Any, server: Server) -> None:
    """A session whose id starts with "-" and whose row was removed by hand: the
    repair its card suggests ended with the id alone (``… [--group-id G] -x``), which
    chatmem session set reads as an option (``No such option: -x``). It now puts
    ``--`` before the id, and the command runs as shown."""
    import sqlite3

    with client(server.base, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "-x", "role": "user", "content": "a note kept in -x",
             "ts": T0, "id": "dash-1", "platform": "cli"}]})
        assert r.status_code == 200, r.text
    conn = sqlite3.connect(server.url[len("sqlite:///"):])
    with conn:
        assert conn.execute("DELETE FROM sessions WHERE id = '-x'").rowcount == 1
    conn.close()
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    page.wait_for_selector("#sessions-list .card[data-session='-x']")
    said = page.locator("#sessions-list .card[data-session='-x'] .unregistered") \
        .text_content() or ""
    assert "chatmem session set --origin-platform P [--chat-type T] [--group-id G] " \
        "-- -x, or PUT /v1/sessions/-x (owner keys)." in said, said
    assert tab.dialogs == [] and tab.errors == []
    page.context.close()


def test_inspector_shows_exactly_what_context_injects(browser: Any, server: Server) -> None:
    seed(server.base)
    turn = "what did Bob say about water for the ridge trail"
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    inspect(page, server.base, "dm-alice", turn)
    shown = page.locator("#inspector-context pre").all_text_contents()
    hits = page.locator("#inspector-hits .message.hit")
    assert hits.count() >= 1
    assert "semantic" in hits.first.text_content() and "boost" in hits.first.text_content()
    assert page.locator("#inspector-hits .message.neighbour").count() >= 1
    excluded = page.locator("#inspector-excluded dt").all_text_contents()
    assert excluded[:4] == ["other model", "min score", "role", "in context"]
    assert tab.errors == []
    server.stop()  # the store file to ourselves: Memory.context() for the same turn

    async def context() -> list[dict[str, str]]:
        async with await Memory.open(server.url, embedder=Embedder(RecordingProvider()),
                                     config=_config()) as mem:
            return await mem.context(turn, session="dm-alice")

    # Playwright's sync API keeps its event loop in this thread: run ours in another
    with ThreadPoolExecutor(1) as pool:
        expected = pool.submit(asyncio.run, context()).result()
    assert expected[0]["role"] == "system" and "car park" in expected[0]["content"]
    assert shown == [m["content"] for m in expected]  # byte for byte, every message


def test_health_is_live(browser: Any, server: Server) -> None:
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    page.click("nav a[data-page=health]")

    def count(label: str) -> str:
        return str(page.evaluate("""label => [...document.querySelectorAll(
            '#health-counts .count')].find(c => c.querySelector('dt').textContent === label)
            ?.querySelector('dd').textContent""", label))

    page.wait_for_function("() => document.querySelector('#health-counts .count')")
    assert count("messages") == "8" and count("indexed") == "8"
    assert count("store size").endswith(("KB", "MB"))
    assert "test:bow" in page.text_content("#health-models")
    with client(server.base, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "cli", "content": f"note number {i}"} for i in range(12)]})
        assert r.status_code == 200
    deadline = time.monotonic() + 30  # the page refreshes itself every 2 s
    while count("indexed") != "20":
        assert time.monotonic() < deadline, count("indexed")
        time.sleep(0.2)
    assert count("messages") == "20"
    page.wait_for_function("() => document.querySelectorAll('#health-chart .bar').length == 30")
    assert page.text_content("#health-chart .rate").startswith("20 indexed, 0 failed")
    assert tab.errors == []


def test_health_says_why_messages_wait_and_clears_when_indexing_recovers(
        browser: Any, server: Server) -> None:
    """The Health page showed the failed count and the embedder's last error, not the
    indexer's state from /v1/stats: an owner watching messages wait could not tell an
    outage (retries paused for the provider) from vectors refused for their width
    (which only `chatmem reindex` ends) from nothing wrong. Each now has a sentence,
    with the indexer's last error (whatever the provider answered: shown as text)."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    page.click("nav a[data-page=health]")
    status = page.locator("#health-indexer")

    def shown(state: str) -> str:
        page.wait_for_selector(f"#health-indexer[data-state={state}]", timeout=30_000)
        return status.text_content() or ""

    assert shown("ok") == "Indexing normally: no message waits for a retry."
    provider_said = "upstream said: <img src=x onerror=alert(1)>"
    server.provider.fail_with(ConnectionError(provider_said))
    with client(server.base, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "cli", "content": "the gutter needs clearing", "id": "late"}]})
        assert r.status_code == 200, r.text
    text = shown("provider")
    assert text.startswith("Embedding provider failing since "), text
    assert " ago): test: ConnectionError: " + provider_said in text, text
    assert "1 message(s) wait for a retry of their embedding" in text, text
    assert "{" not in text and "null" not in text and "provider\"" not in text  # no JSON
    assert status.locator(".last-error").text_content() == \
        "test: ConnectionError: " + provider_said
    page.wait_for_timeout(500)  # an onerror would have fired by now
    assert page.locator("main img, main script").count() == 0
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, "health-failing", size)
    page.set_viewport_size({"width": 1280, "height": 800})
    # the provider answers again, with vectors of another width than the store's
    server.provider.recover()
    server.provider.dim = 32
    text = shown("width")
    assert text.startswith("Vectors refused for their width since "), text
    assert status.locator("code").text_content() == "chatmem reindex"
    assert "vectors of 32 numbers" in (status.locator(".last-error").text_content() or "")
    assert "1 message(s) wait" in text, text
    server.provider.dim = 64  # the model of the store's vectors again: all clear
    assert shown("ok") == "Indexing normally: no message waits for a retry."
    assert status.locator(".last-error").count() == 0
    # nor under Embedder: the provider answered since (it shows when it failed only)
    assert provider_said not in (page.text_content("#page-health") or "")
    with client(server.base, ALICE) as c:
        assert c.get("/v1/stats").json()["indexer"]["retries_paused_since"] is None
    assert tab.dialogs == [] and tab.errors == []


def test_the_embedder_card_shows_the_last_error_only_while_it_is_current(
        browser: Any, tmp_path: Path) -> None:
    """The Embedder card showed the provider's last error for good: /v1/stats keeps it
    after a success (E10) and the card read it alone, so once a real HTTP provider had
    recovered the page still said *last error: … 503 …* under *Indexing normally*. It
    now shows the error, with when, while it is current; then when it failed and when
    it recovered, without the error (as the Health sentence drops it)."""
    from chatmem.server.http import create_app

    said = "upstream <b>overloaded</b>, try later"
    with fresh_service(dims=16) as service:
        config = Config.load(
            embedding=service.config("openai", model="bow", max_retries=0, timeout=2.0,
                                     cache={"enabled": False}),
            indexing={"retry_initial_s": 0.2, "retry_max_s": 1.0})
        app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                         config=config)
        with running(app) as base:
            seed(base)
            tab = open_console(browser, base, ALICE)
            page = tab.page
            page.click("nav a[data-page=health]")

            def last_error() -> str:
                return str(page.evaluate("""() => [...document.querySelectorAll(
                    '#health-embedder .count')].find(c => c.querySelector('dt')
                    .textContent === 'last error')?.querySelector('dd').textContent"""))

            def wait_for(check: Callable[[str], bool]) -> str:
                deadline = time.monotonic() + 30  # the page refreshes itself every 2 s
                while not check(last_error()):
                    assert time.monotonic() < deadline, last_error()
                    time.sleep(0.2)
                return last_error()

            assert wait_for(lambda t: t != "None") == "none"
            service.default = Step(status=503, body={"error": {"message": said}})
            with client(base, ALICE) as c:
                r = c.post("/v1/messages", json={"messages": [
                    {"session_id": "cli", "content": "the gutter needs clearing"}]})
                assert r.status_code == 200, r.text
            failing = wait_for(lambda t: said in t)
            assert "503" in failing and "recovered" not in failing
            page.wait_for_selector("#health-indexer[data-state=provider]", timeout=30_000)
            service.default = Step()  # the provider answers again
            page.wait_for_selector("#health-indexer[data-state=ok]", timeout=30_000)
            recovered = wait_for(lambda t: t.startswith("none since "))
            assert ": recovered from a failure at " in recovered, recovered
            assert failing.endswith(" ago)") and " UTC, " in failing  # when it failed
            assert said not in (page.text_content("#page-health") or "")
            with client(base, ALICE) as c:  # /v1/stats keeps it (E10), with both times
                e = c.get("/v1/stats").json()["embedder"]
            assert said in e["last_error"] and e["last_ok_at"] >= e["last_error_at"] > 0
            assert tab.dialogs == [] and tab.errors == []


def test_html_in_a_message_is_shown_as_text_and_runs_nothing(browser: Any, server: Server
                                                             ) -> None:
    seed(server.base)
    with client(server.base, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "dm-alice", "speaker_id": "mallory", "speaker_name": XSS,
             "content": XSS, "id": "evil", "ts": T0 + DAY}]})
        assert r.status_code == 200
        wait_indexed(c, 9)
    for size in SIZES:
        tab = open_console(browser, server.base, ALICE, size=size)
        page = tab.page
        show_timeline(page, server.base, "dm-alice")
        item = page.locator("#timeline-list .message[data-id=evil]")
        assert item.locator(".content").text_content() == XSS
        assert item.locator(".speaker").text_content() == XSS
        inspect(page, server.base, "dm-alice", "img src onerror alert script")
        assert XSS in page.locator("#inspector-context pre").first.text_content()
        page.wait_for_timeout(500)  # an onerror would have fired by now
        assert page.locator("main img, main script").count() == 0
        assert tab.dialogs == [] and tab.errors == []


def test_screenshots_of_every_page(browser: Any, server: Server) -> None:
    """Each page at both sizes, saved under artifacts/console/ (README § Console)."""
    seed(server.base)
    for size in SIZES:
        tab = open_console(browser, server.base, ALICE, size=size)
        page = tab.page
        page.wait_for_selector("#sessions-list .card")
        shot(page, "sessions", size)
        show_timeline(page, server.base, "hiking")
        shot(page, "timeline", size)
        inspect(page, server.base, "dm-alice", "what time do we meet for the ridge trail")
        shot(page, "inspector", size)
        count_forget(page, server.base, "speaker_id", "bob")
        shot(page, "forget", size)
        page.goto(server.base + "/console#health")
        page.wait_for_selector("#health-chart .bar")
        shot(page, "health", size)
        assert tab.errors == [] and tab.dialogs == []
        page.context.close()
    for name in ("sessions", "timeline", "inspector", "forget", "health"):
        for size in SIZES:
            assert (ARTIFACTS / f"{name}-{size}.png").stat().st_size > 0


def test_sign_out_leaves_nothing_of_the_last_keys_data_in_the_page(
        browser: Any, server: Server) -> None:
    """An owner inspects a recall and reads a timeline, then signs out; a user key signs
    in in the same tab. Before, the owner's timeline, inspector output and health counts
    stayed in the page (only hidden): the user key saw them by opening those pages, and
    a request of its own that failed left them there."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    show_timeline(page, server.base, "hiking")
    inspect(page, server.base, "hiking", "what did Bob say about water")
    page.goto(server.base + "/console#health")
    page.wait_for_selector("#health-counts .count")
    page.click("#signout")
    page.wait_for_selector("#page-signin:not([hidden])")
    secret = "car park"
    assert secret not in (page.text_content("main") or "")
    page.fill("#signin-key", ALICE_BOT)
    page.fill("#signin-session", "dm-alice")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#who:not(:empty)")
    for name in ("timeline", "inspector", "health"):
        page.goto(server.base + f"/console#{name}")
        # no Health page for a user key: the Sessions page instead
        shown = "sessions" if name == "health" else name
        page.wait_for_selector(f"#page-{shown}:not([hidden])")
        page.wait_for_timeout(300)
        assert secret not in (page.text_content(f"#page-{name}") or ""), name
        assert page.is_hidden("#inspector-out")
    assert page.locator("#health-counts .count").count() == 0  # the owner's, emptied
    assert tab.dialogs == []


def test_labels_and_errors_that_hold_html_are_shown_as_text(
        browser: Any, server: Server) -> None:
    seed(server.base)
    label = "<img src=x onerror=alert(3)>"  # a session id (no "/": it is in the path)
    with client(server.base, ALICE) as c:
        r = c.put(f"/v1/sessions/{label}", json={
            "origin_platform": XSS, "chat_type": XSS, "group_id": XSS, "group_name": XSS,
            "resource_id": XSS, "metadata": {XSS: XSS}})
        assert r.status_code == 200, r.text
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": label, "speaker_id": XSS, "speaker_name": XSS, "platform": XSS,
             "content": XSS, "metadata": {XSS: XSS}, "id": "evil"}]})
        assert r.status_code == 200, r.text
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    page.wait_for_selector("#sessions-list .card")
    assert XSS in (page.text_content("#sessions-list") or "")
    show_timeline(page, server.base, label)
    assert page.locator("#timeline-list .message .content").first.text_content() == XSS
    inspect(page, server.base, label, XSS)
    assert XSS in count_forget(page, server.base, "speaker_id", XSS)
    show_timeline(page, server.base, label + "\u0000")  # an error repeating the input
    page.wait_for_timeout(500)
    assert page.locator("main img, main script").count() == 0
    assert tab.dialogs == []
    assert [e for e in tab.errors if "400" not in e and "404" not in e] == []


def test_a_user_key_inspects_recall_only_as_its_own_conversation(
        browser: Any, server: Server) -> None:
    """A user key signed in as dm-alice sees what dm-alice may see (README § Console).
    The Timeline asked with visible_from=dm-alice, but the Recall page ran context() as
    whatever session was typed in it: with dm-alice confined to itself (scope session),
    the key read the hiking group's messages there ('car park') that its Timeline
    refused to list. The inspector of a user key now runs as the signed-in session."""
    seed(server.base)
    with client(server.base, ALICE) as c:
        r = c.put("/v1/settings", json={"scope": "session", "layer": "session",
                                        "session": "dm-alice"})
        assert r.status_code == 200, r.text
    tab = open_console(browser, server.base, ALICE_BOT, session="dm-alice")
    page = tab.page
    page.goto(server.base + "/console#timeline")
    page.wait_for_selector("#timeline-list .message")  # its own conversation, shown first
    page.fill("#timeline-session", "hiking")  # what dm-alice may see of hiking: nothing
    page.click("#timeline-form button[type=submit]")
    page.wait_for_selector("#timeline-empty:not([hidden])")
    assert page.locator("#timeline-list .message").count() == 0
    page.goto(server.base + "/console#inspector")
    page.wait_for_selector("#page-inspector:not([hidden])")
    assert page.input_value("#inspector-session") == "dm-alice"
    assert page.get_attribute("#inspector-session", "readonly") is not None
    # a value put in the field anyway (devtools, a stale form) is not who asks
    page.evaluate("() => { document.getElementById('inspector-session').value = 'hiking'; }")
    page.fill("#inspector-turn", "where do we meet for the ridge trail, the car park?")
    page.click("#inspector-form button[type=submit]")
    page.wait_for_selector("#inspector-out:not([hidden])")
    shown = page.text_content("#inspector-out") or ""
    assert "meet at the car park at 7" not in shown
    assert "ridge trail Saturday" not in shown
    assert page.text_content("#inspector-summary").startswith("scope session")
    # an owner still inspects any session
    owner = open_console(browser, server.base, ALICE)
    inspect(owner.page, server.base, "hiking", "where do we meet, the car park?")
    assert "meet at the car park at 7" in (owner.page.text_content("#inspector-out") or "")
    assert tab.dialogs == [] and tab.errors == [] and owner.errors == []


def test_a_session_save_refused_in_part_changes_nothing(browser: Any, server: Server
                                                        ) -> None:
    """An owner's Save on a session card sends the scope, then the retention. Keep days
    of 1.5 (or 40000) were refused by PUT /v1/retention (422) after PUT /v1/settings had
    already changed the scope: the session's scope was 'session' on the server while the
    card still said 'all (from config)'. Now the days are checked before anything is
    sent: the error names them and nothing is changed."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    card = page.locator("#sessions-list .card[data-session=hiking]")
    card.wait_for()
    for days in ("1.5", "40000", "-1"):
        card.locator("select.scope-select").select_option("session")
        card.locator("input.days").fill(days)
        card.locator("button.save-scope").click()
        page.wait_for_selector("#error:not([hidden])")
        assert "Keep days" in (page.text_content("#error") or ""), days
        page.wait_for_timeout(300)  # a second request, if one was sent, has landed
        with client(server.base, ALICE) as c:
            assert c.get("/v1/settings", params={"session": "hiking"}).json() == {
                "scope": "all", "layer": "config", "broken": False}, days
            assert c.get("/v1/retention", params={"session": "hiking"}).json()["layer"] \
                == "config", days
        assert card.locator(".scope").text_content() == "all (from config)"
        page.evaluate("() => { document.getElementById('error').hidden = true; }")
    card.locator("input.days").fill("30")  # a good value still saves both
    card.locator("button.save-scope").click()
    page.wait_for_function("""() => document.querySelector(
        '.card[data-session=hiking] .scope').textContent === 'session (from session)'""")
    assert "30 days (from session)" in card.locator(".retention").text_content()
    assert tab.dialogs == []


def test_older_pages_continue_the_timeline_shown(browser: Any, server: Server) -> None:
    """'Older pages: load more' read the Session and Search fields as they were at the
    click, with the cursor of the list shown: after showing a session of 60 messages and
    typing another session's id (not yet shown), the click appended that other
    session's messages after the first's 50th, in one list. The button now continues
    the list shown, with the query that listed it."""
    seed(server.base)
    with client(server.base, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "bulk", "content": f"bulk note {i}", "id": f"b{i:02d}",
             "ts": T0 - DAY + i * 1_000} for i in range(60)]})
        assert r.status_code == 200, r.text
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    show_timeline(page, server.base, "bulk")
    assert page.locator("#timeline-list .message").count() == 50
    page.fill("#timeline-session", "dm-alice")
    page.fill("#timeline-text", "birthday")
    page.click("#timeline-more")
    page.wait_for_function(
        "() => document.querySelectorAll('#timeline-list .message').length !== 50")
    page.wait_for_timeout(300)
    ids = page.locator("#timeline-list .message").evaluate_all(
        "items => items.map(i => i.dataset.id)")
    assert ids == [f"b{i:02d}" for i in range(60)]
    assert page.is_hidden("#timeline-more")
    assert tab.dialogs == [] and tab.errors == []


#: In the page: the requests whose URL or body holds this text leave 800 ms late (a slow
#: answer).
SLOW_FETCH = """slow => { const fetch0 = window.fetch;
  window.fetch = (url, options) => (String(url) + String(options.body)).includes(slow)
    ? new Promise(done => setTimeout(done, 800)).then(() => fetch0(url, options))
    : fetch0(url, options); }"""


def test_a_late_answer_never_replaces_what_was_asked_after_it(
        browser: Any, server: Server) -> None:
    """Each list drew whichever answer came last, not the one asked last: an operator
    who showed hiking's Timeline, then dm-alice's, while hiking's answer was slow, was
    left with hiking's messages under the field saying dm-alice; the Recall page
    likewise showed an earlier turn's recall under the later turn. Now an answer to a
    request that a newer one of the same page replaced is dropped."""
    seed(server.base)
    tab = open_console(browser, server.base, ALICE)
    page = tab.page
    page.evaluate(SLOW_FETCH, "session=hiking")
    page.goto(server.base + "/console#timeline")  # a hash change: the script stays
    page.wait_for_selector("#page-timeline:not([hidden])")
    page.fill("#timeline-session", "hiking")
    page.click("#timeline-form button[type=submit]")
    page.fill("#timeline-session", "dm-alice")
    page.click("#timeline-form button[type=submit]")
    page.wait_for_selector("#timeline-list .message")
    page.wait_for_timeout(1500)  # hiking's answer has come by now
    ids = page.locator("#timeline-list .message").evaluate_all(
        "items => items.map(i => i.dataset.id)")
    assert ids == ["m4", "m5", "m6"]  # dm-alice's, as asked last
    page.evaluate(SLOW_FETCH, "about water")  # the first turn's answer only
    page.goto(server.base + "/console#inspector")
    page.fill("#inspector-session", "hiking")
    page.fill("#inspector-turn", "what did Bob say about water")
    page.click("#inspector-form button[type=submit]")
    page.wait_for_timeout(100)  # the first one has been asked (and waits)
    page.fill("#inspector-session", "cli")
    page.fill("#inspector-turn", "when is the boiler service")
    page.click("#inspector-form button[type=submit]")
    page.wait_for_timeout(1500)  # both answers have come, the first one last
    best = page.locator("#inspector-hits .message.hit .content").first.text_content()
    assert best == "boiler service booked for Thursday morning"  # the turn asked last
    assert tab.dialogs == [] and tab.errors == []
