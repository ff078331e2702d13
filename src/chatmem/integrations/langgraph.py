"""A LangGraph long-term memory store over chatmem: :class:`ChatmemStore`.

``ChatmemStore(memory)`` is a :class:`langgraph.store.base.BaseStore`: give it to
``graph.compile(store=...)`` (or ``create_react_agent(..., store=...)``) and nodes
read and write memories with ``get_store()`` or their ``store`` argument. Items
live in chatmem as messages, so they are persisted, embedded and recalled like
any other, and erased with ``Memory.forget``.

The mapping (README § Integrations, LangGraph):

* **namespace → session.** The namespace ``("memories", "u1")`` is the chatmem
  session ``"langgraph:memories.u1"`` (LangGraph labels never contain ``.``, so
  the id is unique), whose metadata holds the namespace
  (``{"langgraph_namespace": ["memories", "u1"]}``). Its resource id is
  ``namespace_map(namespace)``: by default the second label (``"u1"``, the user
  in LangGraph's usual ``("memories", user_id)``), ``None`` for a one-label
  namespace; pass ``namespace_map=lambda ns: ns[0]`` for ``(user_id, "memories")``.
  ``memory.forget(resource_id="u1")`` then erases that user's items.
* **item → message.** One item is one message with a deterministic id (from the
  namespace and key). Its content is the text to embed: the ``index`` fields of
  the value (``index={"fields": ["text"]}``, as for LangGraph's ``InMemoryStore``;
  default ``["$"]``, the whole value as JSON), joined by newlines. Its metadata
  ``langgraph`` holds the key, the namespace, the whole value and the creation
  time, so ``get`` returns the value intact. An item put with ``index=False``
  (or whose fields hold no text) is stored unembedded (role ``system``): ``get``
  and filtered ``search`` find it, a semantic query does not, as LangGraph's
  ``PostgresStore`` answers (``InMemoryStore`` fills a short answer with it).
* **put** replaces the message (erase, then add; ``created_at`` is kept; the
  item's lock held from its read to its end, a new key's too, in every process
  sharing the store, and the old value kept in the store's metadata until the new
  one is stored), ``delete`` erases it. ``updated_at`` is the message's ``ts``.
* **search** with a ``query`` is ``Memory.recall`` across every session
  (``scope="all"``): hybrid, with recency; ``score`` is the recall score;
  reply-following is off, as items are not turns. A message-metadata filter
  restricts it to the namespace prefix and, where it translates, to the LangGraph
  ``filter`` (``$eq $ne $gt $gte $lt $lte``, nested objects); what does not
  translate (``None``, lists, booleans) is checked on the items under the prefix first
  and the recall reads their keys only; every hit is checked against the filter in
  Python too. Filters are JSON-strict, as chatmem's: a
  boolean is never a number and ranges compare numbers only (where LangGraph's
  ``InMemoryStore`` would convert ``"5"``). Without a query (or without recall) it
  lists the matching items, newest first. Pending writes are indexed before a
  semantic search (``flush_before_search``). The recall ranks 1,000 hits at most: a
  page past them that would come back short of the items matching (``offset + limit``
  past 1,000, or a filter that does not translate matching over 800 items) is refused,
  naming the limit.
* **list_namespaces** lists the namespaces that hold items (prefix/suffix
  conditions with ``*`` wildcards, ``max_depth``, ``limit``, ``offset``).
* **batch** runs as LangGraph's ``InMemoryStore`` and ``PostgresStore`` run it: the
  batch's reads answer the items as they were before it, then the last put (or
  delete) of each namespace and key is applied (a ``get`` after a ``put`` of the same
  key in one batch reads the old value). Its writes are all or nothing: the store
  refusing one undoes those applied before it (each item's message put back as it
  was), as ``PostgresStore``'s one transaction leaves none, and the error names the op.
  A batch (or a put) cancelled part way is undone alike, then raises the cancellation.

TTLs are not supported (``supports_ttl = False``): use chatmem's retention. A ``ttl``
is refused with :class:`TTLNotSupported` (an ``InvalidInput`` that is also the
``NotImplementedError`` ``BaseStore`` raises for it); every other bad argument of a
method is an ``InvalidInput`` naming it, a namespace's :class:`InvalidNamespace` (also
LangGraph's ``InvalidNamespaceError``), raised before any op runs.

Sync and async: ``abatch`` is native. ``memory`` may be a :class:`~chatmem.Memory`
or a :class:`~chatmem.SyncMemory`; the store runs every operation on the event
loop that owns the memory (the SyncMemory's private loop, or the loop the Memory
was first used on), so ``graph.invoke`` (sync, nodes in worker threads) and
``graph.ainvoke`` both work. A blocking call (``store.put``) made on that very
loop's thread would deadlock, so it raises instead: await ``store.aput`` there. That
refusal, a blocking call on a ``Memory`` whose loop no other thread runs, and a call
(blocking, or awaited on another loop) whose memory's loop stops running while it
waits (the call is cancelled), is
:class:`~chatmem.errors.EventLoopMisuse` (an ``InvalidInput``, also ``RuntimeError``),
as is a call (blocking, or awaited on another loop) that the loop's owner cancels
(``asyncio.run`` ending cancels every task it leaves; its writes are undone).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import logging
import math
import re
import sys
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from operator import itemgetter
from typing import Any, Literal, TypeVar

from chatmem.extras import install_hint

try:
    from langgraph.store.base import (
        NOT_PROVIDED,
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        NamespacePath,
        NotProvided,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
    )
    from langgraph.store.base.embed import get_text_at_path, tokenize_path
except ImportError as exc:
    raise ImportError(
        f"chatmem.integrations.langgraph needs LangGraph: {install_hint('langgraph')}"
    ) from exc

from chatmem._aio import run_to_end
from chatmem._sync import cancel_message
from chatmem.config import MAX_TOP_K
from chatmem.errors import ChatmemError, EventLoopMisuse, InvalidInput, StoreError
from chatmem.memory import Memory, SyncMemory
from chatmem.models import (
    MAX_CONTENT_CHARS,
    MAX_JSON_CHARS,
    MAX_LABEL_CHARS,
    Message,
    as_stored_json,
    check_json,
    check_text,
    json_cost,
    validate_message,
)
from chatmem.refusals import as_given, checked_number, describe
from chatmem.store.base import ITEM_ID_PREFIX, REPLACING_NAMESPACE, item_lock_key, replaced_id
from chatmem.store.filters import MAX_INT

__all__ = ["SESSION_PREFIX", "ChatmemStore", "InvalidNamespace", "TTLNotSupported",
           "default_namespace_map", "session_id"]

T = TypeVar("T")
log = logging.getLogger(__name__)

#: Prefix of the chatmem session ids of LangGraph namespaces.
SESSION_PREFIX = "langgraph:"
#: Session-metadata key holding the namespace (a list of labels).
NS_META = "langgraph_namespace"
#: Message-metadata key holding the item.
ITEM_META = "langgraph"

_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
_OPS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"})
_PAGE = 1000
#: The most items a semantic search's filter that does not translate to chatmem's is
#: checked on before the recall ranks them (a filter holds at most 1000 nodes).
_FILTERED_KEYS = 800


class InvalidNamespace(InvalidInput, InvalidNamespaceError):
    """A namespace (a search's prefix, a listing's prefix or suffix) the store cannot
    take, named as the method names it: chatmem's :class:`~chatmem.errors.InvalidInput`,
    and LangGraph's own ``InvalidNamespaceError``, which LangGraph code catches."""


class TTLNotSupported(InvalidInput, NotImplementedError):
    """A ``ttl`` given to a store that does not expire items (``supports_ttl`` is
    False): chatmem's :class:`~chatmem.errors.InvalidInput`, and the
    ``NotImplementedError`` LangGraph's ``BaseStore.put`` raises for it, which LangGraph
    code may catch."""


def default_namespace_map(namespace: tuple[str, ...]) -> str | None:
    """The resource id of a namespace: its second label (``("memories", user_id)``)."""
    return namespace[1] if len(namespace) >= 2 else None


def session_id(namespace: tuple[str, ...]) -> str:
    """The chatmem session of a namespace: ``"langgraph:" + ".".join(namespace)``."""
    return SESSION_PREFIX + ".".join(namespace)


def message_id(namespace: tuple[str, ...], key: str) -> str:
    """The deterministic message id of the item ``key`` in ``namespace``."""
    digest = hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()
    return f"{ITEM_ID_PREFIX}{digest[:40]}"


def _ms_to_dt(ms: int | None) -> datetime:
    return datetime.fromtimestamp((ms or 0) / 1000, tz=timezone.utc)


def _now_ms() -> int:
    return int(datetime.now(timezone.utc).timestamp() * 1000)


# --------------------------------------------------------------------------- filters

def _same(a: Any, b: Any) -> bool:
    """JSON equality: a boolean is never a number (``True != 1``), ``1 == 1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _lg_compare(item_value: Any, filter_value: Any) -> bool:
    """A LangGraph filter condition on one value, as ``InMemoryStore`` reads it (exact
    match, nested objects, lists element by element, ``$eq $ne $gt $gte $lt $lte``)
    but JSON-strict like chatmem's filters: booleans are never numbers and ranges
    compare numbers only."""
    if isinstance(filter_value, dict):
        if any(k.startswith("$") for k in filter_value):
            return all(_lg_operator(item_value, k, v) for k, v in filter_value.items())
        if not isinstance(item_value, dict):
            return False
        return all(_lg_compare(item_value.get(k), v) for k, v in filter_value.items())
    if isinstance(filter_value, (list, tuple)):
        return (isinstance(item_value, (list, tuple)) and len(item_value) == len(filter_value)
                and all(_lg_compare(i, f) for i, f in zip(item_value, filter_value)))
    return _same(item_value, filter_value)


def _lg_operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return _same(value, operand)
    if op == "$ne":
        return not _same(value, operand)
    # _check_filter refused any other operator, and a range operand that is no number
    if not (_number(value) and _number(operand)):
        return False
    return bool({"$gt": value > operand, "$gte": value >= operand,
                 "$lt": value < operand, "$lte": value <= operand}[op])


def _lg_matches(value: Mapping[str, Any], filter_: Mapping[str, Any] | None) -> bool:
    return not filter_ or all(_lg_compare(value.get(k), v) for k, v in filter_.items())


def _safe_operand(v: Any) -> bool:
    """Whether chatmem's filter language compares ``v`` as LangGraph does."""
    if isinstance(v, str):
        return "\x00" not in v
    if isinstance(v, float):
        return math.isfinite(v) and abs(v) <= MAX_INT
    return _number(v) and abs(v) <= MAX_INT


def _translate(filter_: Mapping[str, Any] | None, path: str) -> tuple[list[dict[str, Any]], bool]:
    """The chatmem conditions a LangGraph filter implies (on ``path.<field>``), and
    whether they are exact (else the rest is checked on the hits only)."""
    out: list[dict[str, Any]] = []
    exact = True
    for key, want in (filter_ or {}).items():
        if not isinstance(key, str) or not _SEGMENT.fullmatch(key):
            exact = False
            continue
        field = f"{path}.{key}"
        if isinstance(want, dict) and any(str(k).startswith("$") for k in want):
            ops = {k: v for k, v in want.items() if k in _OPS and _safe_operand(v)
                   and (k in ("$eq", "$ne") or _number(v))}
            exact = exact and len(ops) == len(want)
            if ops:
                out.append({field: ops})
        elif isinstance(want, dict):
            inner, inner_exact = _translate(want, field)
            out += inner
            exact = exact and inner_exact
        elif _safe_operand(want):
            out.append({field: want})
        else:  # None (matches missing too), booleans, lists: checked on the hits
            exact = False
    return out, exact


def _labels(value: object, name: str, *, item: bool = False) -> tuple[str, ...]:
    """``value`` as a namespace path, checked as LangGraph's ``BaseStore`` methods check
    it (labels that would alias another namespace in a session id, ``"a.b"`` being
    ``("a", "b")``, refused), for every method and for ops given to ``batch`` directly,
    but naming the argument (``name``) and as :class:`InvalidNamespace`. ``item``: the
    namespace of an item put, which LangGraph wants non-empty and not under its own
    ``"langgraph"``."""
    if not isinstance(value, (tuple, list)):
        raise InvalidNamespace(f"{name} must be a tuple of namespace labels, got "
                               f"{describe(value)}")
    for label in value:
        if not isinstance(label, str) or not label or "." in label or "\x00" in label:
            raise InvalidNamespace(f'{name} labels must be non-empty strings without "." '
                                   f"or NUL (U+0000), got {describe(label)}")
    if item and not value:
        raise InvalidNamespace(f"{name} must hold at least one label, got none")
    if item and value[0] == "langgraph":
        raise InvalidNamespace(f'{name} must not start with "langgraph" (LangGraph keeps '
                               f"that label for itself), got {describe(list(value))}")
    return tuple(value)


def _key(key: object) -> str:
    """An item's key as LangGraph's methods take it (``str(key)``, as ``InMemoryStore``
    stores it): text, or a number (``1.5`` is the key ``"1.5"``) or UUID written as
    text. ``None`` and booleans (the keys ``"None"``, ``"True"``: a key variable left
    unset), and anything else, whose text is Python's repr, are refused."""
    if isinstance(key, (int, float, uuid.UUID)) and not isinstance(key, bool):
        try:
            return str(key)
        except ValueError:  # an integer past str()'s digits
            pass
    elif isinstance(key, str):
        return key
    raise InvalidInput(f"key must be text, a number or a UUID, got {describe(key)}")


def _path(path: object, name: str) -> tuple[str, ...] | None:
    """A listing's ``prefix`` or ``suffix`` (``None``: none), checked by :func:`_labels`."""
    return None if path is None else _labels(path, name)


def _no_ttl(ttl: object) -> None:
    """Refuse a ``ttl``: this store keeps items until they are deleted or retention
    erases them."""
    if ttl is not None and ttl is not NOT_PROVIDED:
        raise TTLNotSupported(
            f"ttl must be None: ChatmemStore does not expire items (supports_ttl is "
            f"False); chatmem's retention erases old ones (retention.days, "
            f"Memory.set_retention), got {describe(ttl)}")


def _refresh(refresh_ttl: object) -> None:
    if refresh_ttl is not None and not isinstance(refresh_ttl, bool):
        raise InvalidInput(f"refresh_ttl must be true, false or None, got "
                           f"{describe(refresh_ttl)}")


def _check_op(op: Op) -> None:
    """InvalidInput naming the argument of ``op`` (as LangGraph's ``aput``, ``asearch``,
    ``alist_namespaces`` name it) that this store cannot take; LangGraph checks the
    namespace and key itself."""
    if isinstance(op, (PutOp, GetOp)):
        _check_namespace(_labels(op.namespace, "namespace", item=isinstance(op, PutOp)
                                 and op.value is not None), "namespace")
        check_text(op.key, "key")
    if isinstance(op, GetOp):
        _refresh(op.refresh_ttl)
    elif isinstance(op, PutOp):
        if op.value is not None and not isinstance(op.value, Mapping):
            raise InvalidInput(f"value must be a dict (an item's value) or None (to delete "
                               f"it), got {describe(op.value)}")
        if op.index is not None and not isinstance(op.index, bool) and not (
                isinstance(op.index, (list, tuple))
                and all(isinstance(f, str) and f.strip() for f in op.index)):
            raise InvalidInput(f"index must be false, None or a list of JSON paths, got "
                               f"{describe(op.index)}")
        _no_ttl(op.ttl)
        if op.value is not None:
            check_json(op.value, "value")
            # the key and the value are stored together (a number counts one width)
            json_cost(_item_meta(op, dict(op.value), 0), "item (its key, namespace and value)",
                      limit=MAX_JSON_CHARS)
    elif isinstance(op, SearchOp):
        _check_namespace(_labels(op.namespace_prefix, "namespace_prefix"), "namespace_prefix")
        _refresh(op.refresh_ttl)
        if op.query is not None and not isinstance(op.query, str):
            raise InvalidInput(f"query must be a string, got {describe(op.query)}")
        if op.filter is not None and not isinstance(op.filter, Mapping):
            raise InvalidInput(f"filter must be a mapping, got {describe(op.filter)}")
        check_json(op.filter, "filter")  # nested too deep, holding itself, NaN
        _check_filter(op.filter, "filter")
        _check_page(op.limit, op.offset)
    elif not isinstance(op, ListNamespacesOp):  # a ValueError, as LangGraph's stores raise
        raise InvalidInput(f"Unknown operation type: {type(op)} (an op is a GetOp, PutOp, "
                           "SearchOp or ListNamespacesOp)")
    else:
        if op.max_depth is not None:
            checked_number(InvalidInput, "max_depth", op.max_depth, integer=True, least=1)
        for condition in op.match_conditions or ():
            if condition.match_type not in ("prefix", "suffix"):
                raise InvalidInput(f"match_conditions: a match type is prefix or suffix, "
                                   f"got {describe(condition.match_type)}")
            _labels(condition.path, condition.match_type)
        _check_page(op.limit, op.offset)


def _tupled(op: Op) -> Op:
    """``op`` (checked by :func:`_check_op`) with its namespace or prefix a tuple, as
    the store compares them: one given as a list (as JSON gives it, which the checks
    take) never equalled an item's namespace, and a search answered [] silently."""
    if isinstance(op, (GetOp, PutOp)):
        return op._replace(namespace=tuple(op.namespace))
    if isinstance(op, SearchOp):
        return op._replace(namespace_prefix=tuple(op.namespace_prefix))
    return op


def _check_filter(filter_: object, name: str) -> None:
    """Refuse what a LangGraph filter cannot mean, naming where it is: an object with an
    operator key (``$…``) holds operators only, each one of :data:`_OPS`, and a range
    (``$gt $gte $lt $lte``) compares with a number. ``InMemoryStore`` would raise its own
    ``ValueError`` for an unknown operator only once an item is compared (never on an
    empty store), and convert ``"5"``, ``true`` or fail on ``null`` there; chatmem reads
    ranges JSON-strict (a number, never a boolean), so any other operand would match
    nothing without a word."""
    if isinstance(filter_, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in filter_):
            for op, operand in filter_.items():
                if op not in _OPS:
                    raise InvalidInput(
                        f"{name}: {describe(op)} is not a filter operator; LangGraph's "
                        f"filters take {', '.join(sorted(_OPS))}")
                if op not in ("$eq", "$ne") and not _number(operand):
                    raise InvalidInput(f"{name}.{op} must be a number (a range compares "
                                       f"numbers), got {describe(operand)}")
            return
        for key, inner in filter_.items():
            _check_filter(inner, f"{name}.{key}")


def _check_namespace(namespace: tuple[str, ...], name: str) -> None:
    """Labels (:func:`_labels`) whose session id chatmem can store: valid UTF-8, within a
    session id's length."""
    check_text(".".join(namespace), name, max_chars=MAX_LABEL_CHARS - len(SESSION_PREFIX))


def _item_meta(op: PutOp, value: dict[str, Any], created: int) -> dict[str, Any]:
    """The message metadata of the item ``op`` puts."""
    return {ITEM_META: {"key": op.key, "namespace": list(op.namespace),
                        "ns": {f"n{i}": label for i, label in enumerate(op.namespace)},
                        "value": value, "created_at": created}}


def _check_page(limit: object, offset: object) -> None:
    checked_number(InvalidInput, "limit", limit, integer=True, least=0)
    checked_number(InvalidInput, "offset", offset, integer=True, least=0)


def _ns_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path))
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or k == p for k, p in pairs)


def _applied(done: list[tuple[int, PutOp, Message | None, Message | None]], index: int,
             op: PutOp, before: Message | None, written: Message | None) -> None:
    """Note in ``done`` that the batch's op ``index`` was stored: the item's message
    ``before`` it, the one it ``written`` (``None``: none)."""
    done.append((index, op, before, written))


def _place(msg: Message | None) -> tuple[str, int] | None:
    """Where a stored message is (its session and ts): what its rewrite's lock names."""
    return None if msg is None or msg.ts is None else (msg.session_id, msg.ts)


def _same_write(current: Message | None, written: Message | None) -> bool:
    """Whether the item's stored message ``current`` is the one a put wrote (``written``;
    ``None`` both: the key holds none, as a delete left it)."""
    if current is None or written is None:
        return current is written
    return (current.ts == written.ts
            and current.metadata.get(ITEM_META) == written.metadata.get(ITEM_META))


def _batch_error(exc: Exception, index: int, op: PutOp, undone: int,
                 left: Sequence[tuple[int, PutOp]]) -> Exception:
    """``exc`` (the store refusing the write of ``op``, the batch's op ``index``) said
    again naming that op and what became of the ``undone`` writes the batch applied
    before it (``left``: those the store refused to undo too); a ChatmemError of the
    same class where it takes one message, else a StoreError."""
    what = "put" if op.value is not None else "delete"
    said = (f"batch op {index} ({what} of key {as_given(op.key)} in namespace "
            f"{describe(list(op.namespace))}) failed: {exc}; ")
    if not undone:
        said += "nothing of the batch was written"
    elif not left:
        said += (f"the {undone} write(s) of the batch before it were undone: the store "
                 f"holds the items as before the batch")
    else:
        kept = ", ".join(f"op {i} (key {as_given(o.key)})" for i, o in sorted(left))
        said += (f"{undone - len(left)} of the {undone} write(s) of the batch before it "
                 f"were undone; the store refused to undo {kept} too: those keep the "
                 f"batch's value")
    if isinstance(exc, ChatmemError):
        try:
            again = type(exc)(said)
        except TypeError:
            pass
        else:
            if str(again) == said:
                return again
    return StoreError(said)


def _cut_search(op: SearchOp, exact: bool, found: int) -> InvalidInput:
    """The refusal of a semantic search whose page lies past what chatmem's recall ranks
    (its ``MAX_TOP_K`` best hits), ``found`` of them matching: its answer would be short
    of items that exist, silently."""
    wanted = op.offset + op.limit
    listing = "or search without query (which lists every matching item, newest first)"
    if exact or wanted > MAX_TOP_K:
        return InvalidInput(
            f"offset + limit: a search with a query ranks the {MAX_TOP_K:,} items that fit "
            f"it best at most (chatmem's recall top_k), and more match: offset {op.offset} "
            f"+ limit {op.limit} = {wanted} is past them; page within the first "
            f"{MAX_TOP_K:,}, narrow namespace_prefix or filter, {listing}")
    return InvalidInput(
        f"filter: more than {_FILTERED_KEYS} items under the prefix match it, and with a "
        f"query a filter chatmem's cannot say (None, a list, a boolean) is then checked on "
        f"the recall's {MAX_TOP_K:,} best hits, which hold {found} of them, fewer than "
        f"offset + limit = {wanted}; narrow namespace_prefix or filter to {_FILTERED_KEYS} "
        f"items or fewer, filter with what chatmem's filters say ($eq $ne $gt $gte $lt "
        f"$lte on text and numbers), {listing}")


#: How often (seconds) a call over a Memory (blocking, or awaited on another loop) looks
#: whether that memory's loop still runs: asyncio says to nobody when a loop stops.
LOOP_CHECK_S = 0.5


async def _on_loop(work: Coroutine[Any, Any, T], loop: asyncio.AbstractEventLoop,
                   running: asyncio.AbstractEventLoop,
                   submit: Callable[[Coroutine[Any, Any, None]],
                                    concurrent.futures.Future[None]],
                   sync: SyncMemory | None = None) -> T:
    """``work`` run as a task of ``loop`` (the memory's; ``submit`` hands it a coroutine,
    or raises why it cannot), awaited from ``running`` (the caller's). Cancelled, the
    caller cancels that task and waits for it to end (a batch undoing its writes:
    :meth:`ChatmemStore._write_all`), however often it is cancelled again, before the
    cancellation is raised: ``asyncio.wrap_future`` raised it at once, and the caller
    could read the batch's values while they were being undone. The task cancelled on
    ``loop`` without the caller asking, by the close of ``sync`` (the SyncMemory whose
    loop it is: close() cancels the calls still running there), raises the SyncMemory's
    :meth:`~chatmem.SyncMemory.closed_while_running`, as its own calls do: the caller,
    never cancelled, got that CancelledError; by anything else on that loop (a task
    canceller there), its :meth:`~chatmem.SyncMemory.cancelled_on_loop`, alike; a
    Memory's, by that loop's owner
    (``asyncio.run`` ending cancels every task left), raises :func:`_cancelled_on_loop`
    alike, also when the task that was to start ``work`` was cancelled before it ran
    (the caller waited for ever). Once nothing runs ``loop`` (its owner stopped or
    closed it) before the task ended, looked at every :data:`LOOP_CHECK_S` as a blocking
    call looks (:func:`_result`), the task is told to stop (it does, and a batch undoes
    its writes, if the loop runs again) and :func:`_loop_stopped` raised: the caller
    waited for ever, until it was cancelled itself. The caller cancelled once nothing runs
    ``loop`` (closed: the SyncMemory closed, which waited for the task to end, before
    the end reached the caller; or stopped by its owner) raises its cancellation, not
    "Event loop is closed" nor a wait for ever."""
    ended: asyncio.Future[T] = running.create_future()
    tasks: list[asyncio.Task[T]] = []
    stopped: list[bool] = []
    delivered: list[bool] = []  # set on the memory's loop: the end is on its way here

    def deliver(task: asyncio.Task[T] | None) -> None:  # on the memory's loop, as stop()
        # task None: none was made, begin() cancelled before it ran (asyncio.run ending)
        delivered.append(True)
        closed: Exception | None = None
        if (task is None or task.cancelled()) and not stopped:  # not by the caller
            if sync is None:
                closed = _cancelled_on_loop()
            elif sync.closed:
                closed = sync.closed_while_running()
            else:  # by something else on the SyncMemory's loop (a task canceller there)
                closed = sync.cancelled_on_loop(_said(task))

        def settle() -> None:  # on the caller's
            if closed is not None:
                ended.set_exception(closed)
            elif task is None or task.cancelled():
                ended.cancel()
            elif (exc := task.exception()) is not None:
                ended.set_exception(exc)
            else:
                ended.set_result(task.result())
        with contextlib.suppress(RuntimeError):  # the caller's loop is closed: none waits
            running.call_soon_threadsafe(settle)

    async def begin() -> None:  # on the memory's loop, as stop() is: one after the other
        tasks.append(asyncio.ensure_future(work))
        tasks[0].add_done_callback(deliver)
        if stopped:
            tasks[0].cancel()

    def stop() -> None:
        stopped.append(True)
        for task in tasks:
            task.cancel()

    def unbegun(handed: concurrent.futures.Future[None]) -> None:
        # on the memory's loop, begin() never ran: cancelled (a SyncMemory's, by
        # something else than close(), ends with its error instead)
        if not tasks and (handed.cancelled() or handed.exception() is not None):
            work.close()
            deliver(None)

    try:
        handed = submit(begin())
    except BaseException:
        work.close()  # never run
        raise
    handed.add_done_callback(unbegun)
    try:
        while not ended.done():
            await asyncio.wait([ended], timeout=LOOP_CHECK_S)  # never cancels ended
            # in that order: the end delivered before the loop stopped is not lost
            if not loop.is_running() and not delivered and not ended.done():
                ended.add_done_callback(_retrieved)
                with contextlib.suppress(RuntimeError):  # closed: nothing runs there
                    loop.call_soon_threadsafe(stop)  # run if the loop runs again
                raise _loop_stopped()
        return ended.result()
    except asyncio.CancelledError:
        if ended.done():
            _retrieved(ended)  # the caller's cancellation wins over the call's end
            raise
        try:
            loop.call_soon_threadsafe(stop)
        except RuntimeError:
            if not loop.is_closed():
                raise
        while not ended.done():
            if not loop.is_running():
                # nothing runs the memory's loop: closed (a SyncMemory's close() waited
                # for the task to end, and its end is on its way here; a loop closed by
                # its owner runs nothing more) or stopped by its owner (stop() runs if it
                # runs again): the caller's cancellation is raised, not "Event loop is
                # closed", nor a wait for ever that swallows every later cancellation
                ended.add_done_callback(_retrieved)
                raise
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.shield(ended)
        raise


def _said(task: asyncio.Task[Any] | None) -> str | None:
    """The message ``task`` (cancelled) was cancelled with, if any: read before anything
    else reads its outcome (asyncio keeps it for the first reader only)."""
    if task is None:
        return None
    try:
        task.result()
    except asyncio.CancelledError as exc:
        return cancel_message(exc)
    return None


def _retrieved(ended: asyncio.Future[Any]) -> None:
    """Read the outcome of a future nobody awaits any more (no "exception was never
    retrieved" logged for it)."""
    if not ended.cancelled():
        ended.exception()


def _check_running(loop: asyncio.AbstractEventLoop) -> None:
    """Refuse to wait on a loop that runs nothing (it would wait forever)."""
    if not loop.is_running():
        raise EventLoopMisuse(
            "ChatmemStore: the event loop that owns the memory is not running; use a "
            "chatmem SyncMemory for blocking code, or call the store from that loop")


def _cancelled_on_loop() -> EventLoopMisuse:
    """The end of a call over a Memory whose task its loop's owner cancelled, not the
    caller (``asyncio.run`` ending cancels every task it leaves): the raw
    ``CancelledError`` read as the caller's own (a graph run "cancelled" that nobody
    stopped; a blocking call's ``concurrent.futures.CancelledError``)."""
    return EventLoopMisuse(
        "ChatmemStore: the event loop that owns the memory cancelled the call before it "
        "ended (its owner cancelled the loop's tasks, as asyncio.run does as it returns): "
        "its writes were undone; keep that loop running until the store's calls return, "
        "or use a chatmem SyncMemory, whose loop chatmem runs")


def _loop_stopped() -> EventLoopMisuse:
    """The end of a call over a Memory whose loop nothing runs any more (its owner
    stopped or closed it) while the call waited: without it, the call waited for ever."""
    return EventLoopMisuse(
        "ChatmemStore: the event loop that owns the memory stopped before the call ended: "
        "the call is cancelled (a batch undoes its writes if that loop runs again); keep "
        "the loop running until the store's calls return, or use a chatmem SyncMemory, "
        "whose loop chatmem runs")


def _unbound() -> EventLoopMisuse:
    """The refusal of a blocking call over a Memory whose loop is none or closed."""
    return EventLoopMisuse(
        "ChatmemStore: the blocking API needs a chatmem SyncMemory (or a Memory whose "
        "event loop runs in another thread); in async code use the a* methods (aput, "
        "aget, asearch…)")


def _blocking_loop(loop: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop:
    """``loop`` (a Memory's) for a blocking call, or the refusal of a call it cannot
    answer: none bound or closed, the caller's own, or running nothing."""
    if loop is None or loop.is_closed():
        raise _unbound()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        raise EventLoopMisuse(
            "ChatmemStore: a blocking call on the event loop that runs the memory would "
            "deadlock; await the async method instead (aput, aget, asearch…)")
    _check_running(loop)
    return loop


class _LoopClosed(Exception):
    """:func:`_submit`'s loop was closed after it was found running."""


def _submit(work: Coroutine[Any, Any, T], loop: asyncio.AbstractEventLoop
            ) -> concurrent.futures.Future[T]:
    """``asyncio.run_coroutine_threadsafe(work, loop)``, for a loop :func:`_check_running`
    passed: closed since (its owner closed it, a SyncMemory whose memory it runs closed
    in another thread), :class:`_LoopClosed` is raised, ``work`` closed unrun, for the
    caller to refuse or run the call as one made now is (it was a raw ``RuntimeError:
    Event loop is closed``, and a "coroutine was never awaited" warning)."""
    try:
        return asyncio.run_coroutine_threadsafe(work, loop)
    except RuntimeError:
        work.close()
        if not loop.is_closed():
            raise
        raise _LoopClosed from None


def _result(future: concurrent.futures.Future[T], loop: asyncio.AbstractEventLoop) -> T:
    """The result of ``future`` (submitted to ``loop``), waited for from a blocking call:
    once nothing runs ``loop`` (stopped or closed by its owner) with the work not ended,
    the work is cancelled (it runs, and a batch undoes its writes, if the loop runs
    again) and :class:`EventLoopMisuse` raised, as a call made then is refused
    (``future.result()`` waited for ever); looked at every :data:`LOOP_CHECK_S`. The
    wait interrupted (``KeyboardInterrupt``), the work is cancelled too, as a
    SyncMemory's call is. The work cancelled on ``loop`` by its owner (``asyncio.run``
    ending) raises :func:`_cancelled_on_loop`, not a raw ``CancelledError``."""
    try:
        while not concurrent.futures.wait([future], timeout=LOOP_CHECK_S).done:
            if not loop.is_running() and not future.done():  # in that order: no end lost
                raise _loop_stopped()
        if future.cancelled():  # on the loop, by its owner: only the except below cancels
            raise _cancelled_on_loop()
        return future.result()
    except BaseException:
        if not loop.is_closed():  # a closed loop runs nothing: nothing to cancel there
            future.cancel()
        raise


# --------------------------------------------------------------------------- the store

class ChatmemStore(BaseStore):
    """A LangGraph :class:`~langgraph.store.base.BaseStore` over a chatmem memory
    (the mapping is in the module docstring).

    ``index``: LangGraph's index configuration; only ``fields`` is read (the JSON
    paths whose text is embedded; default ``["$"]``): chatmem's own embedder
    embeds, so ``dims`` and ``embed`` are ignored. ``namespace_map``: the resource
    id of a namespace. ``flush_before_search``: index pending writes before a
    semantic search, so that a search sees the puts before it.
    """

    supports_ttl = False

    def __init__(self, memory: Memory | SyncMemory, *,
                 namespace_map: Callable[[tuple[str, ...]], str | None] = default_namespace_map,
                 index: Mapping[str, Any] | None = None,
                 flush_before_search: bool = True) -> None:
        #: The SyncMemory given, whose own refusals (closed, forked) a blocking call gets.
        self._sync: SyncMemory | None = None
        if isinstance(memory, SyncMemory):
            self.memory: Memory = memory.memory
            self._loop: asyncio.AbstractEventLoop | None = memory.loop
            self._sync = memory
        elif isinstance(memory, Memory):
            self.memory = memory
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:
                self._loop = None  # bound on first use
        else:
            raise InvalidInput(f"ChatmemStore memory must be a chatmem Memory or SyncMemory, "
                               f"got {type(memory).__name__}")
        if not callable(namespace_map):
            raise InvalidInput(f"ChatmemStore namespace_map must be a function of a namespace, "
                               f"got {describe(namespace_map)}")
        if index is not None and not isinstance(index, Mapping):
            raise InvalidInput(f"ChatmemStore index must be a mapping (LangGraph's index "
                               f"configuration), got {describe(index)}")
        fields = (index or {}).get("fields") or ["$"]
        if not isinstance(fields, (list, tuple)) \
                or not all(isinstance(f, str) and f.strip() for f in fields):
            raise InvalidInput(f"ChatmemStore index.fields must be a list of JSON paths, got "
                               f"{describe(fields)}")
        if not isinstance(flush_before_search, bool):
            raise InvalidInput(f"ChatmemStore flush_before_search must be true or false, got "
                               f"{describe(flush_before_search)}")
        self.namespace_map = namespace_map
        self.index_fields: list[tuple[str, list[str]]] = [
            (f, tokenize_path(f)) for f in fields]
        self.flush_before_search = flush_before_search
        self._sessions: set[str] = set()
        self._write_lock: asyncio.Lock | None = None
        self._bind_lock = threading.Lock()
        #: The last write's time: writes within one millisecond still list newest first.
        self._last_write_ms = 0
        #: Whether the replacements a killed process left part way were looked at.
        self._healed = False

    # ------------------------------------------------------------------ LangGraph's methods

    # BaseStore's methods check their arguments before they make an op, in LangGraph's
    # words (InvalidNamespaceError, TypeError, NotImplementedError for a ttl): each is
    # checked here first, naming the argument, as a ChatmemError (InvalidNamespace and
    # TTLNotSupported are LangGraph's errors too); the rest is checked with the op.

    def get(self, namespace: tuple[str, ...], key: str, *,
            refresh_ttl: bool | None = None) -> Item | None:
        _refresh(refresh_ttl)
        return super().get(_labels(namespace, "namespace"), _key(key),
                           refresh_ttl=refresh_ttl)

    async def aget(self, namespace: tuple[str, ...], key: str, *,
                   refresh_ttl: bool | None = None) -> Item | None:
        _refresh(refresh_ttl)
        return await super().aget(_labels(namespace, "namespace"), _key(key),
                                  refresh_ttl=refresh_ttl)

    def search(self, namespace_prefix: tuple[str, ...], /, *, query: str | None = None,
               filter: dict[str, Any] | None = None, limit: int = 10, offset: int = 0,
               refresh_ttl: bool | None = None) -> list[SearchItem]:
        _refresh(refresh_ttl)
        return super().search(_labels(namespace_prefix, "namespace_prefix"), query=query,
                              filter=filter, limit=limit, offset=offset,
                              refresh_ttl=refresh_ttl)

    async def asearch(self, namespace_prefix: tuple[str, ...], /, *,
                      query: str | None = None, filter: dict[str, Any] | None = None,
                      limit: int = 10, offset: int = 0,
                      refresh_ttl: bool | None = None) -> list[SearchItem]:
        _refresh(refresh_ttl)
        return await super().asearch(_labels(namespace_prefix, "namespace_prefix"),
                                     query=query, filter=filter, limit=limit, offset=offset,
                                     refresh_ttl=refresh_ttl)

    def put(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any],
            index: Literal[False] | list[str] | None = None, *,
            ttl: float | NotProvided | None = NOT_PROVIDED) -> None:
        _no_ttl(ttl)
        super().put(_labels(namespace, "namespace", item=True), _key(key),
                    value, index)

    async def aput(self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any],
                   index: Literal[False] | list[str] | None = None, *,
                   ttl: float | NotProvided | None = NOT_PROVIDED) -> None:
        _no_ttl(ttl)
        await super().aput(_labels(namespace, "namespace", item=True),
                           _key(key), value, index)

    def delete(self, namespace: tuple[str, ...], key: str) -> None:
        super().delete(_labels(namespace, "namespace"), _key(key))

    async def adelete(self, namespace: tuple[str, ...], key: str) -> None:
        await super().adelete(_labels(namespace, "namespace"), _key(key))

    def list_namespaces(self, *, prefix: NamespacePath | None = None,
                        suffix: NamespacePath | None = None, max_depth: int | None = None,
                        limit: int = 100, offset: int = 0) -> list[tuple[str, ...]]:
        return super().list_namespaces(
            prefix=_path(prefix, "prefix"), suffix=_path(suffix, "suffix"),
            max_depth=max_depth, limit=limit, offset=offset)

    async def alist_namespaces(self, *, prefix: NamespacePath | None = None,
                               suffix: NamespacePath | None = None,
                               max_depth: int | None = None, limit: int = 100,
                               offset: int = 0) -> list[tuple[str, ...]]:
        return await super().alist_namespaces(
            prefix=_path(prefix, "prefix"), suffix=_path(suffix, "suffix"),
            max_depth=max_depth, limit=limit, offset=offset)

    # ------------------------------------------------------------------ sync over async

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` on the memory's event loop and wait (never on that loop's thread)."""
        if self._sync is not None:
            return self._blocking(self._sync, list(ops))
        loop = _blocking_loop(self._loop)
        try:
            future = _submit(self._abatch(list(ops)), loop)
        except _LoopClosed:
            raise _unbound() from None  # closed since: refused as a call made now is
        return _result(future, loop)

    def _blocking(self, sync: SyncMemory, ops: list[Op]) -> list[Result]:
        """``ops`` run by the SyncMemory the store was given, as its own calls run: one
        closed, used in a forked process (whose loop thread did not survive the fork: the
        call waited for ever) or from its own loop thread is refused in its words
        (``this SyncMemory is closed: open another one``), where the store said it
        needed a SyncMemory; a wait interrupted (KeyboardInterrupt) cancels the batch,
        which undoes its writes."""
        return sync.wait(sync.start(self._abatch(ops)))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` as LangGraph's stores run a batch (on the memory's own loop when
        called from another): see :meth:`_abatch`."""
        running = asyncio.get_running_loop()
        ops = list(ops)
        sync = self._sync
        if sync is not None:  # never bound to another loop: its memory runs on its own
            if sync.loop is running:
                return await self._abatch(ops)
            # submitted as its own calls are: refused in its words once it is closed or
            # in a forked process (the call waited for ever there), and ended in its
            # words when it is closed while the batch runs
            return await _on_loop(self._abatch(ops), sync.loop, running, sync.start, sync)
        with self._bind_lock:
            if self._loop is None or self._loop.is_closed():
                self._loop = running
            loop = self._loop
        if loop is running:
            return await self._abatch(ops)
        _check_running(loop)
        try:
            return await _on_loop(self._abatch(ops), loop, running,
                                  functools.partial(_submit, loop=loop))
        except _LoopClosed:
            # closed since it was found running: run as a call made now runs, on this loop
            # (a closed memory's refusal, StoreClosed, included)
            return await self.abatch(ops)

    async def _abatch(self, ops: Sequence[Op]) -> list[Result]:
        """Run a batch as LangGraph's ``InMemoryStore`` and ``PostgresStore`` run one:
        its reads (``get``, ``search``, ``list_namespaces``) answer the items as they
        were before the batch, and then the last put (or delete) of each namespace and
        key is applied, in the order of each key's first put; an earlier put of a key
        in the batch is not applied."""
        for op in ops:  # every op before any runs: a bad one runs none of them
            _check_op(op)
            if isinstance(op, PutOp) and op.value is not None:
                self._check_text(op)
        ops = [_tupled(op) for op in ops]
        if not self._healed:
            await self._heal()
        results: list[Result] = [None] * len(ops)
        puts: dict[tuple[tuple[str, ...], str], tuple[int, PutOp]] = {}
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                results[i] = await self._get(op)
            elif isinstance(op, PutOp):
                puts[(op.namespace, op.key)] = (i, op)
            elif isinstance(op, SearchOp):
                results[i] = await self._search(op)
            else:
                results[i] = await self._list_namespaces(op)
        await self._write_all(list(puts.values()))
        return results

    async def _write_all(self, puts: Sequence[tuple[int, PutOp]]) -> None:
        """Apply a batch's puts and deletes (``(op index, op)``), all or none: the store
        refusing one (a full disk, a trigger, a lost connection) undoes those applied
        before it, newest first (:meth:`_undo`), and the error names the op that failed
        and what was undone. chatmem writes an item as separate transactions (its old
        value kept, erased, the new one added: :meth:`_replace`), so the batch cannot be
        one transaction as in LangGraph's ``PostgresStore``; the undo puts back each
        item's message as it was before the batch (its value, times and vector). A
        batch cancelled part way (a graph run stopped, ``asyncio.wait_for``) undoes its
        stored writes alike, the write under way once it has ended, then ends with the
        cancellation; a cancellation during that undo waits for it too."""
        done: list[tuple[int, PutOp, Message | None, Message | None]] = []
        for i, op in puts:
            try:
                await self._put(op, functools.partial(_applied, done, i, op))
            except asyncio.CancelledError:
                # a graph run stopped, a timeout (asyncio.wait_for): the writes stored
                # (the one under way too, which ends first) are undone, to their end
                # however often the task is cancelled meanwhile, and then it ends
                if done:
                    left = await run_to_end(self._undo_all(done))
                    if left:
                        log.warning("langgraph: a cancelled batch kept the value of op(s) "
                                    "%s: the store refused to undo them",
                                    ", ".join(str(j) for j, _ in sorted(left)))
                raise
            except Exception as exc:
                if len(puts) == 1:  # one put or delete: the caller knows which
                    raise
                # this op's own write too, when it was stored and a step after it failed
                left = await self._undo_all(done)
                before = [d for d in done if d[0] != i]
                raise _batch_error(exc, i, op, len(before),
                                   [k for k in left if k[0] != i]) from exc

    async def _undo_all(self, done: Sequence[tuple[int, PutOp, Message | None, Message | None]]
                        ) -> list[tuple[int, PutOp]]:
        """Undo the applied writes ``done``, the last first; the ops that could not be
        undone (the store refusing that write too) are returned."""
        left: list[tuple[int, PutOp]] = []
        for i, op, before, written in reversed(done):
            try:
                await run_to_end(self._undo(message_id(op.namespace, op.key), before,
                                            written))
            except Exception as exc:
                log.warning("langgraph: a failed batch's op %d (key %s) is not undone: %s",
                            i, as_given(op.key, sys.maxsize), exc)
                left.append((i, op))
        return left

    async def _undo(self, mid: str, before: Message | None, written: Message | None) -> None:
        """Put the item ``mid`` back as it was before a batch (``before``: its message
        then, ``None``: none) where it is still as the batch left it (``written``; a
        write of the key made since, by another caller, is kept)."""
        async with self._writing(), self._held_item(mid) as current:
            if not _same_write(current, written):
                return
            if before is None:
                if current is not None:
                    await self.memory.erase_held([mid])
            elif current is None:
                await self.memory.add(before)
                await self._drop_replacement(mid)
            else:
                await self._replace(current, before)

    # ------------------------------------------------------------------ operations

    @staticmethod
    def _fields(msg: Message) -> dict[str, Any]:
        """The Item fields of an item's message."""
        meta = msg.metadata[ITEM_META]
        return {"namespace": tuple(meta["namespace"]), "key": meta["key"],
                "value": dict(meta["value"]),
                "created_at": _ms_to_dt(meta.get("created_at", msg.ts)),
                "updated_at": _ms_to_dt(msg.ts)}

    def _item(self, msg: Message) -> Item:
        return Item(**self._fields(msg))

    def _search_item(self, msg: Message, score: float | None) -> SearchItem:
        return SearchItem(**self._fields(msg), score=score)

    @staticmethod
    def _is_item(msg: Message) -> bool:
        """Whether ``msg`` is an item this store wrote: its metadata names a namespace and
        key whose session and message id are ``msg``'s own. A message added otherwise (in
        any session, over HTTP with a user key) may carry the same metadata, but it is not
        an item of that namespace and must not be read as one."""
        meta = msg.metadata.get(ITEM_META)
        if not isinstance(meta, Mapping) or not isinstance(meta.get("value"), Mapping):
            return False
        key, labels = meta.get("key"), meta.get("namespace")
        if not isinstance(key, str) or not isinstance(labels, list) \
                or not all(isinstance(label, str) for label in labels):
            return False
        namespace = tuple(labels)
        return msg.session_id == session_id(namespace) and msg.id == message_id(namespace, key)

    async def _get(self, op: GetOp) -> Item | None:
        found = (await self.memory.get([message_id(op.namespace, op.key)])).values()
        msg = next(iter(found), None)
        return self._item(msg) if msg is not None and self._is_item(msg) else None

    def _check_text(self, op: PutOp) -> None:
        """Refuse a put whose indexed text is longer than a message holds (``index``
        naming a long field many times), before any op of its batch is written."""
        assert op.value is not None
        size = len(self._text(dict(op.value), op.index))
        if size > MAX_CONTENT_CHARS:
            raise InvalidInput(f"index: the value's indexed text has {size} characters; "
                               f"the limit is {MAX_CONTENT_CHARS} (index fewer or shorter "
                               "fields)")

    def _text(self, value: Mapping[str, Any], index: Sequence[str] | bool | None) -> str:
        if index is False:
            return ""
        paths = self.index_fields if index is None or index is True else \
            [(f, tokenize_path(f)) for f in index]
        texts: list[str] = []
        for path, tokens in paths:
            if path == "$":
                texts.append(json.dumps(value, ensure_ascii=False, default=str))
            else:
                texts += [t for t in get_text_at_path(value, tokens) if t and t.strip()]
        return "\n".join(texts)

    async def _ensure_session(self, namespace: tuple[str, ...]) -> str:
        sid = session_id(namespace)
        if sid not in self._sessions:
            await self.memory.upsert_session({
                "id": sid, "resource_id": self.namespace_map(namespace),
                "metadata": {NS_META: list(namespace)}})
            self._sessions.add(sid)
        return sid

    async def _put(self, op: PutOp,
                   applied: Callable[[Message | None, Message | None], None]) -> None:
        """Apply ``op``, and tell ``applied`` (the item's message before, the one written;
        ``None``: none) once it is stored: a cancellation while it is written is raised
        after that, so the caller knows what to undo."""
        mid = message_id(op.namespace, op.key)
        async with self._writing():
            if op.value is None:
                async with self._held_item(mid) as old:
                    await run_to_end(self._delete(mid, old, applied))
                return
            # the value was checked before anything was written (_check_op): a bad value
            # registers no session either
            sid = await self._ensure_session(op.namespace)
            # a key with no item yet too: two puts reading none at once both added
            async with self._held_item(mid) as old:
                msg = self._message(op, sid, old)
                await run_to_end(self._replace(old, msg, applied))

    async def _delete(self, mid: str, old: Message | None,
                      applied: Callable[[Message | None, Message | None], None]) -> None:
        """Erase the item ``mid`` (its message ``old``; the caller holds its lock)."""
        if old is not None:  # its records too, under the lock held
            await self.memory.erase_held([mid])
        else:
            await self._drop_replacement(mid)
        applied(old, None)

    def _message(self, op: PutOp, sid: str, old: Message | None) -> Message:
        """The message of the item ``op`` puts, ``old`` its message before (if any); a
        bad value raises, and leaves the old item in place."""
        assert op.value is not None
        # strictly increasing per store: "newest first" is the order of the writes
        written = self._last_write_ms = max(_now_ms(), self._last_write_ms + 1)
        created = written
        if old is not None and self._is_item(old):
            created = int(old.metadata[ITEM_META].get("created_at", old.ts or created))
        value = dict(op.value)
        text = self._text(value, op.index)
        # a tuple in the value as the list JSON reads back, as PostgresStore stores it
        # (a message's own metadata refuses one: it would not be read back as given)
        meta = _item_meta(op, as_stored_json(value), created)
        msg = Message(session_id=sid, id=message_id(op.namespace, op.key),
                      role="user" if text else "system",
                      content=text or json.dumps(value, ensure_ascii=False, default=str),
                      ts=written, metadata=meta)
        validate_message(msg, path="item")
        return msg

    @contextlib.asynccontextmanager
    async def _item_lock(self, mid: str) -> AsyncIterator[None]:
        """Held by a put from its read of the item ``mid`` to its end (its record kept,
        the erase, the add; or the add of a key that had no item; with its message's
        lock, :meth:`_held_item`), and by :meth:`_heal` while it looks at a record of
        ``mid``: the item's lock, in this process
        (``Memory``'s, shared by its stores) and in every process sharing the store
        (``MessageStore.key_lock``: on PostgreSQL a transaction's advisory lock, freed
        when a killed process's connection ends). Puts of one key so apply one after
        the other, a new key's included, and a heal never takes a replacement a live put
        is making for a killed one's. On PostgreSQL it holds a connection while the
        put's writes take others (the message's lock is taken on that one)."""
        async with self.memory.item_lock(mid), self.memory.store.key_lock(item_lock_key(mid)):
            yield

    @contextlib.asynccontextmanager
    async def _held_item(self, mid: str) -> AsyncIterator[Message | None]:
        """The item ``mid``'s message (``None``: the key has none), read under the
        item's lock (:meth:`_item_lock`) and the lock :meth:`Memory.rewrite` of that
        message takes (the memory's of its session and ts, ``MessageStore.message_lock``),
        both held until the end, so that a rewrite aimed at the item's message applies
        wholly before the put's erase, or finds it moved after the add. In one order:
        the memory's locks first (the item's, then the message's: a rewrite takes the
        latter alone), then the store's (the item's, then the message's, on one
        connection). The message's ts is read before its lock is taken, so it is read
        again under it: moved meanwhile (another process's put), the locks are taken
        again for where it is now."""
        name = item_lock_key(mid)
        async with self.memory.item_lock(mid):
            while True:
                seen = (await self.memory.get([mid])).get(mid)
                async with contextlib.AsyncExitStack() as locks:
                    at = _place(seen)
                    if at is not None:
                        await locks.enter_async_context(self.memory.rewrite_lock(*at))
                    await locks.enter_async_context(self.memory.store.key_lock(name))
                    if at is not None:
                        await locks.enter_async_context(self.memory.store.message_lock(*at))
                    current = (await self.memory.get([mid])).get(mid)
                    if _place(current) == at:
                        yield current
                        return

    async def _replace(self, old: Message | None, msg: Message,
                       applied: Callable[[Message | None, Message | None], None] | None = None
                       ) -> None:
        """``old`` (the item's message, if any) erased and ``msg`` stored in its place;
        when ``msg`` cannot be stored, ``old`` is stored again: the key never ends up
        without an item because its new value failed. The two are separate writes, so
        ``old`` is first kept in the store's metadata until the key holds an item again:
        a process killed between them (``kill -9``) left the key with none, its value
        acknowledged by an earlier put lost; the next store's first call puts it back
        (:meth:`_heal`). The caller holds :meth:`_held_item` of ``msg``. ``applied`` is
        told (``old``, ``msg``) once ``msg`` is stored."""
        if old is None:
            await self.memory.add(msg)
            if applied is not None:
                applied(old, msg)
            # a killed replacement's record (the key left without an item) is older than
            # this value: the heal must not put its value back over this one
            await self._drop_replacement(msg.id or "")
            return
        store = self.memory.store
        # one record per item, named by its message id: puts of a key apply one at a
        # time (the item's lock), and a record left by a killed one holds an older value
        # than ``old``, replaced here (the heal then has one value to put back, the last)
        record = old.id or ""
        await store.meta_set(REPLACING_NAMESPACE, record, json.dumps(old.to_dict()))
        # the old item erased, its record kept (Memory.delete would drop it), under the
        # item's lock this put holds (Memory.delete would take it again)
        await self.memory.erase_held([old.id or ""], keep_replacements=True)
        try:
            await self.memory.add(msg)
        except ChatmemError:
            try:
                await self.memory.add(old)
            except ChatmemError as exc:
                self._healed = False  # this process's next call tries again
                log.warning("langgraph: the item %s has lost its old value for now (put "
                            "back by the next call that finds the store writable): %s",
                            as_given(old.id, sys.maxsize), exc)
            else:
                await self._drop_replacement(record)
            raise
        if applied is not None:
            applied(old, msg)
        await self._drop_replacement(record)

    async def _drop_replacement(self, mid: str) -> None:
        """Drop the records of a replacement of the item ``mid`` a killed (or failing) put
        left, once a later write of the key is stored (the caller holds the item's lock,
        so no live put is making one): their values are older than that write's, and the
        heal put them back over it (a delete of the key undone, or the value of the put
        before the last one restored). An earlier chatmem's records of the item (its id
        and a random suffix, :func:`~chatmem.store.base.replaced_id`) go too."""
        store = self.memory.store
        for _, record, _ in await store.meta_items(REPLACING_NAMESPACE):
            if replaced_id(record) == mid:
                await store.meta_delete(REPLACING_NAMESPACE, record)

    async def _heal(self) -> None:
        """Put back the old value of each item whose replacement stopped after its erase
        (the process killed, the store failing): the key holds no item then. One the
        new value reached is left as it is. A replacement still under way (a put of
        another process, or of another store of this memory) holds the item's lock
        (:meth:`_item_lock`): the heal waits for it to end, and its record is gone
        then, unless the put could store neither value. Every put of the key takes that
        lock too: one that finds the key without an item (a killed replacement's, not
        healed yet) stores its value and drops the record, and the heal then leaves it.

        The heal takes the item's lock alone, not the rewrite lock of the item's message
        that a put takes after it (:meth:`_held_item`), and cannot race a rewrite or a
        put of that message for it. It writes only when the key holds no item: then a
        put of the key takes the item's lock alone too (no message, no message lock:
        the same locks in the same order), and a rewrite has no message to be in the
        middle of; :meth:`Memory.rewrite` finds none before the heal's add (NotFound,
        nothing written) or rewrites the value put back after it, as with any add, its
        vector version-checked by the indexer. The add is one atomic write; when the key
        holds an item the heal only drops its record. A put that read the key before the
        heal's add reads it again under the lock and takes the message's lock then
        (:meth:`_held_item`). tests/test_integration_langgraph.py
        test_a_heal_and_a_rewrite_or_put_of_its_item_at_once_keep_one_value pins it.

        An erase of the item's message (``Memory.erase``, ``forget``, the retention
        sweep) takes the item's lock too (``Memory._erase``): one that dropped the record
        the heal had read waits for the heal's add and erases the value put back
        (test_an_erase_while_a_heal_puts_its_item_back_wins)."""
        async with self._writing():
            if self._healed:
                return
            store = self.memory.store
            left = False
            for _, record, seen in await store.meta_items(REPLACING_NAMESPACE):
                mid = Message.from_dict(json.loads(seen)).id or ""
                async with self._item_lock(mid):
                    # read again under the lock: the put that kept it has ended (gone),
                    # or a later put of the key kept its own old value under that name
                    value = await store.meta_get(REPLACING_NAMESPACE, record)
                    if value is None:
                        continue
                    old = Message.from_dict(json.loads(value))
                    left = not await self._put_back(old, record) or left
            self._healed = not left

    async def _put_back(self, old: Message, record: str) -> bool:
        """Store ``old`` again when its key holds no item, and drop its ``record``;
        ``False`` when the store refuses the write (the record is kept for a retry)."""
        store = self.memory.store
        if not await self.memory.get([old.id or ""]):
            try:
                await self.memory.add(old)
            except ChatmemError as exc:
                if not await self.memory.get([old.id or ""]):
                    # kept for the next try: the store refuses writes now
                    log.warning("langgraph: the old value of item %s is not put back "
                                "yet: %s", as_given(old.id, sys.maxsize), exc)
                    return False
                # a new value was stored meanwhile: it stays
        await store.meta_delete(REPLACING_NAMESPACE, record)
        return True

    def _writing(self) -> asyncio.Lock:
        if self._write_lock is None:
            self._write_lock = asyncio.Lock()
        return self._write_lock

    def _prefix_filter(self, prefix: tuple[str, ...]) -> dict[str, Any]:
        conds: list[dict[str, Any]] = [{f"message.{ITEM_META}.key": {"$exists": True}}]
        conds += [{f"message.{ITEM_META}.ns.n{i}": label} for i, label in enumerate(prefix)]
        return {"$and": conds}

    def _recall_enabled(self) -> bool:
        m = self.memory
        return (m.index is not None and m.embedder is not None
                and m.config.semantic_recall_enabled)

    async def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit <= 0:
            return []
        if op.query and op.query.strip() and self._recall_enabled():
            return await self._semantic(op)  # a blank query is none: recall refuses it
        return await self._listed(op)

    async def _semantic(self, op: SearchOp) -> list[SearchItem]:
        if self.flush_before_search:
            await self.memory.flush()
        where = self._prefix_filter(op.namespace_prefix)
        conds, exact = _translate(op.filter, f"message.{ITEM_META}.value")
        where["$and"] += conds
        if not exact:
            # what does not translate is checked on every item under the prefix first
            # (up to _FILTERED_KEYS of them): the recall then reads only their keys, not
            # the best hits of every item, which may hold none of those it matches
            # (an item of another namespace under the prefix with one of these keys is
            # still checked on the hits)
            matching = await self._listed(op._replace(offset=0, limit=_FILTERED_KEYS + 1))
            if not matching:
                return []
            if len(matching) <= _FILTERED_KEYS:
                where["$and"].append({f"message.{ITEM_META}.key": {
                    "$in": sorted({i.key for i in matching})}})
        wanted = op.offset + op.limit
        top_k = min(MAX_TOP_K, wanted if exact else max(wanted * 4, 100))
        while True:
            # items are documents, not turns: none inherits the score of the one put
            # before it (search.reply_share, README § Ranking)
            result = await self.memory.recall(op.query or "", scope="all", top_k=top_k,
                                              min_score=0.0, window=0, filter=where,
                                              follow_replies=False)
            out: list[SearchItem] = []
            seen: set[str] = set()
            for hit in result.hits:
                msg = hit.message
                if msg.id in seen or not self._is_item(msg):
                    continue
                meta = msg.metadata[ITEM_META]
                if tuple(meta["namespace"])[:len(op.namespace_prefix)] \
                        != op.namespace_prefix or not _lg_matches(meta["value"], op.filter):
                    continue
                seen.add(msg.id or "")
                out.append(self._search_item(msg, float(hit.score)))
            # fewer hits than asked: the recall ranked every item it could, the page is
            # whole; else more may match beyond its top_k, and a short page would be a
            # silent cut
            if len(out) >= wanted or len(result.hits) < top_k:
                return out[op.offset:wanted]
            if top_k == MAX_TOP_K:
                raise _cut_search(op, exact, len(out))
            top_k = MAX_TOP_K

    async def _namespaces(self) -> list[tuple[str, tuple[str, ...]]]:
        """(session id, namespace) of every LangGraph namespace with a session."""
        out: list[tuple[str, tuple[str, ...]]] = []
        # ids order byte-wise: this store's sessions are those from the prefix on that
        # start with it, read a page at a time (not every session of a chat store)
        after = SESSION_PREFIX
        while page := await self.memory.store.sessions_after(after, _PAGE):
            for s in page:
                if not s.id.startswith(SESSION_PREFIX):
                    return out
                ns = s.metadata.get(NS_META)
                if isinstance(ns, list) and all(isinstance(x, str) for x in ns):
                    out.append((s.id, tuple(ns)))
            after = page[-1].id
        return out

    async def _listed(self, op: SearchOp) -> list[SearchItem]:
        """The items under the prefix newest first, ``offset + limit`` of them kept: each
        namespace is read newest first and left once its next message is older than
        the last one kept (a namespace of 50,000 items was read whole, and held, for
        ``limit=10``)."""
        n = len(op.namespace_prefix)
        wanted = op.offset + op.limit
        # the newest `wanted` found so far, newest first, by (-ts, id): sorting the kept
        # run with a page appended merges two runs, linear in their length
        best: list[tuple[tuple[int, str], Message]] = []
        for sid, ns in await self._namespaces():
            if ns[:n] != op.namespace_prefix:
                continue
            cursor: str | None = None
            size = min(_PAGE, max(wanted, 16))  # pages grow: most namespaces end early
            while True:
                page = await self.memory.list_messages(session=sid, limit=size, cursor=cursor,
                                                       newest_first=True)
                size = min(_PAGE, size * 4)
                best += [((-(m.ts or 0), m.id or ""), m) for m in page.messages
                         if self._is_item(m)
                         and _lg_matches(m.metadata[ITEM_META]["value"], op.filter)]
                if len(best) >= wanted:  # fewer: nothing to cut, no namespace to leave
                    best.sort(key=itemgetter(0))
                    del best[wanted:]
                cursor = page.next_cursor
                # strictly older only: an item of the same time may still sort first by id
                if cursor is None or (len(best) == wanted and page.messages
                                      and -(page.messages[-1].ts or 0) > best[-1][0][0]):
                    break
        best.sort(key=itemgetter(0))
        return [self._search_item(m, None) for _, m in best[op.offset:]]

    async def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        names = []
        for sid, ns in await self._namespaces():
            if op.match_conditions and not all(_ns_matches(c, ns)
                                               for c in op.match_conditions):
                continue
            if (await self.memory.list_messages(session=sid, limit=1)).messages:
                names.append(ns)
        if op.max_depth is not None:
            names = list({ns[:op.max_depth] for ns in names})
        return sorted(set(names))[op.offset:op.offset + op.limit]
