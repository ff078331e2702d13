"""Qdrant vector index (S3): the vectors live in Qdrant, the messages elsewhere.

URLs (see :func:`parse_url`)::

    qdrant://host:6333                  a server over HTTP (REST)
    qdrant://host:6333?https=1&api_key=KEY&prefix=/qdrant&timeout=10&exact=1
    qdrant+http://host:6333             the same as qdrant://
    qdrant+https://host                 HTTPS (port 6333 unless given)
    qdrant+local:///abs/folder          Qdrant's local mode, persisted in a folder
    qdrant+local://:memory:             local mode in memory

The server and the local mode go through the same code: one
``AsyncQdrantClient`` and the same calls, so what the tests run in local mode
is what runs against a cluster.

Layout:

* One collection per (owner, model id, dimension), cosine distance, named
  ``chatmem-<owner>_<slug of the model id>_<dimension>_<hash>`` (vectors
  without a model id go to ``…_legacy_<dimension>_<hash>``); created on the
  first upsert, with keyword payload indexes on the fields recall filters on
  and an integer index on ``ts``. The owner is a store's id (the store keeps
  it), so stores sharing one Qdrant never see each other's points; an index
  opened without one uses the shared names ``chatmem_…`` (stores that recorded
  their index before owners existed). Other collections are ignored.
* A point's id is ``uuid5(message id)``; its payload holds every
  :class:`~chatmem.models.VectorEntry` field, the session metadata under
  ``meta`` and the message metadata under ``message``, so the filter fields
  ``meta.x`` / ``message.x`` are payload paths.
* A query searches every collection of the query's dimension (other models'
  vectors of that size compete for the pool as in SQLite; recall drops them
  afterwards) with the filter pushed down, then merges by score (exact ties by
  newer ``ts``, then message id, as every backend and the recall pool break them).
  Each collection is asked for the k best and every point tied with the k-th, up to
  ``max(4k, k + TIE_CAP)`` points; when more tie (a message said thousands of times
  has one vector), the newest ties are found by searches restricted to ``ts >= t``
  and, past that many at one ``ts``, by paging their ids: the same hits as SQLite's,
  with no answer larger than that cap (``QdrantIndex._ties``).

Known differences from :class:`~chatmem.store.sqlite.SqliteStore`: the index
cannot see the message store, so an upsert for a message deleted meanwhile is
kept (recall drops it as "gone"), and clearing vectors does not touch the
messages' index state (:meth:`chatmem.Memory.clear` moves it). A session change reaches
the points through :meth:`QdrantIndex.update_session_snapshot` (``set_payload``).
Qdrant stores vectors L2-normalised (cosine), so ``scan_vectors`` gives them back
normalised. Deletes count first and then
delete; with other writers on the same collections at the same moment the
count can be off.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import heapq
import inspect
import json
import logging
import math
import os
import re
import secrets
import shutil
import uuid
import warnings
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

import numpy as np
import numpy.typing as npt

from ..config import SECRET_QUERY_PARAMS
from ..errors import ChatmemError, ConfigError, InvalidInput, StoreClosed, StoreError
from ..extras import install_hint
from ..logwindow import LogWindow
from ..models import MIN_TS, ScoredId, VectorEntry, filter_document
from ..refusals import as_given, describe
from .base import (
    OneWidth,
    SessionSnapshot,
    WidthConflict,
    chunks,
    missing_folders,
    sound_vector,
    widths_of,
)
from .columns import ENTRY_COLUMNS, Column, entry_fields, entry_values, read_rows
from .filters import compile_qdrant, matcher
from .where import check_fields, named_ids

if TYPE_CHECKING:
    from qdrant_client import AsyncQdrantClient
    from qdrant_client import models as qmodels

__all__ = ["QdrantIndex", "QdrantTarget", "collection_name", "collection_prefix",
           "entry_payload", "mask_url", "new_owner", "parse_url", "point_id"]

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Seconds within which a point a search left out again (its vector not finite numbers:
#: :meth:`QdrantIndex._finite`) is logged at DEBUG, not WARNING.
LEFT_OUT_WINDOW_S = 60.0

DEFAULT_PORT = 6333
#: Namespace of the point ids: ``uuid5(POINT_NAMESPACE, message_id)``.
POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "chatmem:message")
#: Payload fields with a payload index, and their schema (``keyword`` / ``integer``).
PAYLOAD_INDEXES: tuple[tuple[str, str], ...] = (
    ("session_id", "keyword"), ("resource_id", "keyword"), ("platform", "keyword"),
    ("origin_platform", "keyword"), ("role", "keyword"), ("model_id", "keyword"),
    ("ts", "integer"),
)
_SCORED_FIELDS = ["message_id", "session_id", "ts", "role", "model_id"]
#: A search asks a collection for the k best and every point tied with the k-th, up to
#: ``max(4 * k, k + TIE_CAP)`` points; more ties than that are gathered by ``ts``
#: (``QdrantIndex._ties``), one answer of at most that many points at a time.
TIE_CAP = 1024
#: The collections of an index opened without an owner: the names every such index
#: shares (one store's, before stores had collections of their own).
SHARED_PREFIX = "chatmem"
#: A store's own collections are ``chatmem-<owner>_…``; an owner is what
#: :func:`new_owner` makes (the store keeps it: ``chatmem.store.storage``).
_OWNER_RE = re.compile(r"[0-9a-f]{12}")
_BATCH = 256
_SCAN_PAGE = 1024
_OPTIONS = ("api_key", "https", "prefix", "timeout", "exact")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_LOCAL_INDEX_WARNING = "Payload indexes have no effect in the local Qdrant"
#: The user info of a URL (``scheme://user:password@``), hidden in errors.
_USERINFO_RE = re.compile(r"^([^:/?#]*://)[^/?#]*@")
#: One ``name=value`` pair of a URL's query (a key's value runs to ``&``: ``#`` may be in it).
_QUERY_PAIR_RE = re.compile(r"([?&])([^=&#]*)=([^&]*)")


# --------------------------------------------------------------------------- URLs


@dataclass(frozen=True)
class QdrantTarget:
    """What a qdrant URL names: the ``AsyncQdrantClient`` arguments and chatmem's options."""

    client_kwargs: Mapping[str, Any]
    #: The URL without secrets, for error messages.
    display: str
    local: bool
    #: Exact (full-scan) search instead of HNSW on a server; local mode is always exact.
    exact: bool = False


def _flag(url: str, name: str, value: str) -> bool:
    low = value.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ConfigError(f"vector URL {shown_url(url)}: {name} must be a flag ({name}=1 or "
                      f"{name}=0), got {describe(value)}")


def shown_url(url: str) -> str:
    """``url`` as a refusal shows it: as JSON, as every value (``"qdrant://h?x=1"``), its
    secrets hidden (:func:`mask_url`), cut only past 200 characters."""
    return as_given(mask_url(url), 200)


def mask_url(url: str) -> str:
    """``url`` as errors show it: user info and the values of key-like query options
    (however their names are spelled or escaped: ``API_KEY``, ``api%5Fkey``) as ``***``."""
    shown = _USERINFO_RE.sub(r"\1***@", url)

    def hide(match: re.Match[str]) -> str:
        name = unquote_plus(match.group(2)).strip().lower()
        return f"{match.group(1)}{match.group(2)}=***" if name in SECRET_QUERY_PARAMS \
            else match.group(0)

    return _QUERY_PAIR_RE.sub(hide, shown)


def parse_url(url: str) -> QdrantTarget:
    """Parse a qdrant URL without connecting; a bad URL raises :class:`ConfigError`
    naming the fix."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ConfigError(f"vector URL {shown_url(url)}: expected qdrant://host:6333 or "
                          "qdrant+local:///abs/folder")
    if scheme == "qdrant+local":
        return _parse_local(url, rest)
    if scheme in ("qdrant", "qdrant+http", "qdrant+https"):
        return _parse_server(url, scheme)
    raise ConfigError(f"vector URL {shown_url(url)}: unknown scheme {describe(scheme)}; use "
                      "qdrant://, qdrant+http://, qdrant+https:// or qdrant+local://")


def _parse_local(url: str, rest: str) -> QdrantTarget:
    fix = ("use qdrant+local:///absolute/folder (three slashes) or qdrant+local://:memory:")
    if "?" in rest or "#" in rest:
        raise ConfigError(f"vector URL {shown_url(url)}: qdrant+local takes no options; {fix}")
    if rest == ":memory:":
        return QdrantTarget({"location": ":memory:"}, url, local=True)
    path = unquote(rest)
    if not path.startswith("/"):
        what = "no folder" if not path else f"{as_given(path, 200)} is not an absolute folder"
        raise ConfigError(f"vector URL {shown_url(url)}: {what}; {fix}")
    if "\x00" in path:
        raise ConfigError(f"vector URL {shown_url(url)}: the folder contains NUL; {fix}")
    return QdrantTarget({"path": path}, url, local=True)


def _parse_server(url: str, scheme: str) -> QdrantTarget:
    shown = shown_url(url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"vector URL {shown}: {exc}; e.g. qdrant://localhost:6333") from None
    if parts.username is not None or parts.password is not None:
        raise ConfigError(f"vector URL {shown}: credentials in the host part are not "
                          "supported; pass the API key as ?api_key=KEY")
    host = parts.hostname
    if not host:
        raise ConfigError(f"vector URL {shown}: no host; e.g. qdrant://localhost:6333")
    if port == 0:
        raise ConfigError(f"vector URL {shown}: port 0; e.g. qdrant://{host}:6333")
    if parts.path not in ("", "/"):
        raise ConfigError(f"vector URL {shown}: unexpected path {describe(parts.path)}; a path "
                          f"prefix goes in the query, e.g. ?prefix={parts.path}")
    if parts.fragment:
        # not shown: a '#' in an API key makes the key's tail a fragment
        raise ConfigError(f"vector URL {shown}: unexpected fragment (#…); a '#' in the "
                          "API key or another option is written %23")
    options: dict[str, str] = {}
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        raise ConfigError(f"vector URL {shown}: malformed query; use "
                          "?api_key=KEY&https=1&prefix=/path") from None
    for key, value in pairs:
        if key not in _OPTIONS:
            raise ConfigError(f"vector URL {shown}: unknown option {describe(key)}; known: "
                              f"{', '.join(_OPTIONS)}")
        if key in options:
            raise ConfigError(f"vector URL {shown}: option {describe(key)} is given twice")
        options[key] = value
    https = scheme == "qdrant+https"
    if "https" in options:
        flag = _flag(url, "https", options["https"])
        if scheme != "qdrant" and flag != https:
            raise ConfigError(f"vector URL {shown}: https={options['https']} contradicts "
                              f"{scheme}://; drop one of them")
        https = flag
    kwargs: dict[str, Any] = {"check_compatibility": False}
    netloc = f"[{host}]" if ":" in host else host
    kwargs["url"] = f"{'https' if https else 'http'}://{netloc}:{port or DEFAULT_PORT}"
    if "api_key" in options:
        if not options["api_key"]:
            raise ConfigError(f"vector URL {shown}: api_key is empty")
        kwargs["api_key"] = options["api_key"]
    prefix = options.get("prefix", "").strip()
    if prefix:
        kwargs["prefix"] = prefix if prefix.startswith("/") else "/" + prefix
    if "timeout" in options:
        try:
            timeout = float(options["timeout"])
        except ValueError:
            timeout = math.nan
        if not (math.isfinite(timeout) and timeout > 0):
            raise ConfigError(f"vector URL {shown}: timeout must be a positive number of "
                              f"seconds, got {describe(options['timeout'])}")
        kwargs["timeout"] = max(1, math.ceil(timeout))
    exact = _flag(url, "exact", options["exact"]) if "exact" in options else False
    display = kwargs["url"] + kwargs.get("prefix", "")
    return QdrantTarget(kwargs, display, local=False, exact=exact)


def _reason(target: QdrantTarget, exc: BaseException) -> str:
    """Why a driver call failed, and for a server the likely fix."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if target.local:
        return text
    import httpx
    import pydantic
    from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

    source = exc.source if isinstance(exc, ResponseHandlingException) else exc
    why = " ".join(str(source).split())[:200] or type(source).__name__
    server = f"a Qdrant server at {target.display}"
    if isinstance(exc, UnexpectedResponse):
        if exc.status_code in (401, 403):
            return (f"{server} refused the request (HTTP {exc.status_code}): check the "
                    "api_key=… option of the vector URL")
        if exc.status_code == 404:
            return f"{text}: check that the URL names {server} (and its prefix= option)"
        return text
    if isinstance(source, httpx.TimeoutException):
        limit = target.client_kwargs.get("timeout", 5)
        return (f"no answer within {limit} s ({type(source).__name__}): check that {server} "
                "is up and reachable, or allow more time with ?timeout=SECONDS")
    if isinstance(source, (httpx.TransportError, OSError)):
        return (f"cannot reach {server} ({why}): check that it runs and that the host, port "
                "and https= option of the vector URL are right")
    if isinstance(source, (json.JSONDecodeError, pydantic.ValidationError)):
        return (f"the answer is not Qdrant's ({why}): check that the URL names {server} "
                "(its port, https= and prefix= options)")
    return text


def _store_error(target: QdrantTarget, what: str, exc: BaseException) -> StoreError:
    """The :class:`StoreError` of a failed driver call, naming the fix; the API key is
    hidden (a server or proxy may echo it in an error body)."""
    text = f"qdrant ({target.display}): {what}: {_reason(target, exc)}"
    secret = target.client_kwargs.get("api_key")
    return StoreError(text.replace(secret, "***") if secret else text)


def _cause(target: QdrantTarget, exc: BaseException) -> BaseException | None:
    """The driver's exception, to chain as ``__cause__``; ``None`` when its text (or its
    causes') holds the API key, as a logged traceback would show it."""
    secret = target.client_kwargs.get("api_key")
    seen: set[int] = set()
    node: BaseException | None = exc
    while secret and node is not None and id(node) not in seen:
        seen.add(id(node))
        source = getattr(node, "source", None)
        if secret in f"{node!r} {node} {source!r} {source}":
            return None
        node = node.__cause__ or node.__context__
    return exc


#: What Qdrant's local mode keeps in its folder.
LOCAL_ENTRIES = frozenset({".lock", "meta.json", "collection"})


def _remove_local(made: list[str]) -> None:
    """Remove the local-mode folder ``made[-1]`` and the folders above it that were made
    for it (``made``, outermost first), when it holds nothing but local mode's own files
    and no collection; a folder above only when empty."""
    if not made:
        return
    folder = made[-1]
    with contextlib.suppress(OSError):
        if os.path.lexists(folder):
            if os.path.islink(folder) or not set(os.listdir(folder)) <= LOCAL_ENTRIES:
                return
            collections = os.path.join(folder, "collection")
            if os.path.isdir(collections) and os.listdir(collections):
                return
            shutil.rmtree(folder)
        for parent in reversed(made[:-1]):
            os.rmdir(parent)  # only when empty


def missing_local_index(url: str) -> str | None:
    """Why the Qdrant local-mode folder of ``url`` is no index to open without creating
    one (``no vector index at "/data/vectors" (no such folder)``, ``… (an empty
    folder)``), or ``None``: it holds local mode's files, or ``url`` names no such
    folder (another scheme, ``:memory:``, a URL the open refuses itself). Opening it
    would make the folder, or write local mode's files into the empty one: an empty
    index, and a mistyped path read as one."""
    try:
        target = parse_url(url)
    except ChatmemError:
        return None
    folder = target.client_kwargs.get("path")
    if not target.local or not folder:
        return None
    if not os.path.lexists(folder):
        why = "no such folder"
    elif not os.path.isdir(folder) or os.path.lexists(os.path.join(folder, "meta.json")):
        return None  # a file is refused by the open; meta.json: an index
    else:
        try:
            entries = set(os.listdir(folder))
        except OSError:
            return None  # refused by the open, naming the folder
        if not entries <= LOCAL_ENTRIES:
            return None  # another's files: refused by the open (_check_local_folder)
        why = "an empty folder" if not entries else "no meta.json in it"
    return f"no vector index at {as_given(folder, 200)} ({why})"


def _check_local_folder(target: QdrantTarget, folder: str) -> None:
    """Refuse a local-mode folder that holds anything local mode does not write (a home
    folder, a project, ``/``): it would write its files among the user's."""
    try:
        others = sorted(set(os.listdir(folder)) - LOCAL_ENTRIES)
    except (FileNotFoundError, NotADirectoryError):
        return  # made by local mode / refused as a file by the open
    except OSError as exc:
        raise StoreError(f"qdrant ({target.display}): cannot read the folder "
                         f"{as_given(folder, 200)} ({exc.strerror or exc})") from exc
    if others:
        shown = ", ".join(as_given(name) for name in others[:3])
        raise StoreError(
            f"qdrant ({target.display}): {as_given(folder, 200)} holds files that are not "
            "Qdrant's "
            f"({shown}{', …' if len(others) > 3 else ''}); local mode keeps the vectors "
            "in a folder of their own and it is left as it is: name a new or empty folder")


# --------------------------------------------------------------------------- layout


def new_owner() -> str:
    """A fresh owner id for a store's collections (48 random bits, as hex)."""
    return secrets.token_hex(6)


def collection_prefix(owner: str | None) -> str:
    """The first part of the names of ``owner``'s collections (``None``: the shared
    names). A malformed owner is refused: it comes from a store's metadata area."""
    if owner is None:
        return SHARED_PREFIX
    if not isinstance(owner, str) or not _OWNER_RE.fullmatch(owner):
        raise StoreError(f"the store's vector owner id {describe(owner)} is not 12 hex digits; "
                         "the store's metadata area was changed by hand: restore it, or "
                         "copy the store with chatmem migrate")
    return f"{SHARED_PREFIX}-{owner}"


def collection_name(model_id: str | None, dim: int, prefix: str = SHARED_PREFIX) -> str:
    """The collection of ``model_id``'s vectors of size ``dim`` (among those whose names
    start with ``prefix``): a readable slug plus a hash of the exact model id, so
    distinct ids never share a collection."""
    if model_id is None:
        slug, key = "legacy", "\x00legacy"
    else:
        slug = re.sub(r"[^a-z0-9]+", "-", model_id.lower())[:48].strip("-") or "model"
        key = "model:" + model_id
    digest = hashlib.sha256(f"{key}\x00{dim}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{prefix}_{slug}_{dim}_{digest[:10]}"


def _query_filter(where: Mapping[str, Any]) -> Any:
    """The Qdrant filter of a query's ``where``. A top-level ``message_id`` list of
    strings (recall measuring given candidates) selects the points by id, which
    Qdrant answers directly; ``message_id`` has no payload index."""
    from qdrant_client import models as m

    ids, rest = named_ids(where)
    if ids is None:
        return compile_qdrant(where)
    must: list[Any] = [m.HasIdCondition(has_id=[point_id(mid) for mid in ids])]
    if rest:
        must.append(compile_qdrant(rest))
    return m.Filter(must=must)


def _scored(points: Sequence[Any]) -> list[ScoredId]:
    """The hits of a search's points (one without a message id is not chatmem's: left out)."""
    out = []
    for p in points:
        payload = p.payload or {}
        if "message_id" in payload:
            out.append(ScoredId(
                message_id=str(payload["message_id"]), score=float(p.score),
                model_id=payload.get("model_id"), role=payload.get("role"),
                session_id=str(payload.get("session_id")), ts=int(payload.get("ts") or 0)))
    return out


def _tie_key(s: ScoredId) -> tuple[int, str]:
    """The order of hits of one score: newer first, then message id (code point order)."""
    return (-s.ts, s.message_id)


def _below(score: float) -> float:
    """The largest float32 below ``score``: a ``score_threshold`` that keeps the points
    scoring ``score`` whether the engine keeps scores above it (local mode) or at least
    it. Scores are float32, so nothing scores in between."""
    return float(np.nextafter(np.float32(score), np.float32(-np.inf)))


def _and(flt: Any, condition: Any) -> Any:
    """``flt`` (``None``: every point) and ``condition`` as one Qdrant filter."""
    from qdrant_client import models as m

    return m.Filter(must=[condition] if flt is None else [flt, condition])


def point_id(message_id: str) -> str:
    """The Qdrant point id of a message (Qdrant ids are integers or UUIDs)."""
    return str(uuid.uuid5(POINT_NAMESPACE, message_id))


def _json(value: Mapping[str, Any], what: str, message_id: str) -> dict[str, Any]:
    try:
        out = json.loads(json.dumps(dict(value), ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"vector entry {describe(message_id)}: {what} is not JSON: "
                           f"{exc}") from None
    assert isinstance(out, dict)
    return out


def entry_payload(e: VectorEntry) -> dict[str, Any]:
    """The payload of an entry's point: every field (:data:`ENTRY_COLUMNS`, by payload
    key), metadata as nested objects, and the embedded text."""
    def dump(value: Any, column: Column) -> Any:
        if column.kind == "json_object":
            return _json(value, column.field, e.message_id)
        return value

    values = entry_values(e, dump)
    payload = {c.key: v for c, v in zip(ENTRY_COLUMNS, values)}
    payload["text"] = e.text
    return payload


def _point_id(point: Any) -> str:
    """The message id of a point's payload (a point read by ``retrieve``)."""
    return str((point.payload or {}).get("message_id"))


def _entry(payload: Mapping[str, Any], vector: Any) -> VectorEntry:
    return VectorEntry(**entry_fields(payload, by="key"), text=payload.get("text"),
                       vector=np.asarray(vector, dtype=np.float32))


@dataclass
class _ScanSnapshot:
    """Sorted message ids of every point, reused while an export pages through them."""

    ids: list[str]
    where: dict[str, str]  # message id -> collection
    last: str | None = None


# --------------------------------------------------------------------------- index


class QdrantIndex:
    """The :class:`~chatmem.store.base.VectorIndex` over a Qdrant server or local mode."""

    supports_delete_by_filter = True

    def __init__(self, client: AsyncQdrantClient, *, display: str = "qdrant",
                 exact: bool = False, target: QdrantTarget | None = None,
                 owner: str | None = None) -> None:
        self._client = client
        #: Whose collections these are: a store's own (``owner``, so that stores sharing
        #: one Qdrant never read, count or drop each other's points) or the shared names.
        self._prefix = collection_prefix(owner)
        self._name_re = re.compile(
            re.escape(self._prefix) + r"_([a-z0-9-]+)_([1-9][0-9]*)_([0-9a-f]{10})")
        self.display = display
        self._exact = exact
        #: What the URL named: a server's errors name the fix and hide its API key.
        self._target = target
        self._closed = False
        self._write_lock = asyncio.Lock()
        self._dims: dict[str, int] = {}  # our collections (as last listed) -> dimension
        self._models: dict[str, str | None] = {}  # collection -> model id, once known
        self._ready: set[str] = set()  # collections this instance created or checked
        self._scan: _ScanSnapshot | None = None
        #: The points a search left out, each warned of once a window (:meth:`_finite`).
        self._left_out = LogWindow(LEFT_OUT_WINDOW_S)
        #: The folders that opening this local-mode index made (:meth:`remove_made`).
        self.made: list[str] = []

    # ---------------------------------------------------------------- plumbing

    @classmethod
    async def open(cls, url: str, *, owner: str | None = None) -> QdrantIndex:
        """Open the index named by a qdrant URL (see the module docstring); ``owner``
        picks the collections (:func:`collection_prefix`)."""
        collection_prefix(owner)  # a malformed owner is refused before anything opens
        target = parse_url(url)
        try:
            from qdrant_client import AsyncQdrantClient
        except ImportError:
            raise ConfigError(
                f"vector URL {as_given(target.display, 200)} needs the Qdrant client: "
                f"{install_hint('qdrant')}"
            ) from None
        folder = target.client_kwargs.get("path")
        made: list[str] = []  # the folders local mode is about to make, outermost first
        if folder:
            _check_local_folder(target, folder)
            made = missing_folders(os.path.abspath(folder))
        kwargs = dict(target.client_kwargs)
        if "check_compatibility" not in inspect.signature(AsyncQdrantClient).parameters:
            kwargs.pop("check_compatibility", None)  # clients before 1.12 never check
        try:
            client = AsyncQdrantClient(**kwargs)
        except Exception as exc:
            _remove_local(made)
            if target.local and "already accessed" in str(exc):
                raise StoreError(
                    f"qdrant ({target.display}): the folder is open in another process (or "
                    "another index of this one); "
                    "Qdrant's local mode has one user at a time: close the other one, or run "
                    "a Qdrant server and use qdrant://host:6333"
                ) from exc
            if folder and isinstance(exc, (FileExistsError, NotADirectoryError)):
                raise StoreError(
                    f"qdrant ({target.display}): {as_given(folder, 200)} (or a folder above "
                    "it) is a file, not a folder; local mode keeps the vectors in a folder "
                    "of their own: name a new or empty folder") from exc
            if folder and not isinstance(exc, OSError) and os.path.isfile(
                    os.path.join(folder, "meta.json")):
                raise StoreError(
                    f"qdrant ({target.display}): {as_given(folder, 200)} is not a Qdrant "
                    "local-mode folder "
                    f"(its meta.json is not Qdrant's: {type(exc).__name__}: {exc}); it is left "
                    "as it is: name a new or empty folder for the vectors") from exc
            raise _store_error(target, "open", exc) from _cause(target, exc)
        index = cls(client, display=target.display, exact=target.exact, target=target,
                    owner=owner)
        index.made = made
        try:
            await index._refresh()
        except BaseException:
            await index.close()
            index.remove_made()
            raise
        return index

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the qdrant index is closed")

    async def _call(self, what: str, fn: Callable[..., Awaitable[T]], /, *args: Any,
                    **kwargs: Any) -> T:
        self._check_open()
        try:
            return await fn(*args, **kwargs)
        except ChatmemError:
            raise
        except Exception as exc:
            if self._closed:
                raise StoreClosed("the qdrant index is closed") from exc
            if self._target is None:
                raise StoreError(f"qdrant ({self.display}): {what}: {exc}") from exc
            raise _store_error(self._target, what, exc) from _cause(self._target, exc)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            await self._client.close()

    def remove_made(self) -> None:
        """After :meth:`close`: remove the local-mode folder its open made (and the
        folders made above it) when nothing was written to it (:func:`_remove_local`):
        a command that failed leaves no folder of its own behind."""
        if self._closed:
            made, self.made = self.made, []
            _remove_local(made)

    async def _refresh(self) -> dict[str, int]:
        """Our collections and their dimensions, as the server has them now (another
        process may have created or dropped some)."""
        resp = await self._call("list collections", self._client.get_collections)
        dims: dict[str, int] = {}
        for c in resp.collections:
            match = self._name_re.fullmatch(c.name)
            if match:
                dims[c.name] = int(match.group(2))
        self._dims = dims
        self._ready &= set(dims)
        return dict(sorted(dims.items()))

    async def _ensure(self, model_id: str | None, dim: int) -> str:
        """The collection for ``(model_id, dim)``, created with its payload indexes."""
        from qdrant_client import models as m

        name = collection_name(model_id, dim, self._prefix)
        self._models[name] = model_id
        if name in self._ready:
            return name
        if not await self._call("check collection", self._client.collection_exists, name):
            try:
                await self._call(
                    f"create collection {name}", self._client.create_collection, name,
                    vectors_config=m.VectorParams(size=dim, distance=m.Distance.COSINE),
                )
            except StoreError:  # lost a race with another writer?
                if not await self._call("check collection", self._client.collection_exists,
                                        name):
                    raise
                await self._check_size(name, dim, "nothing was written to it")
        else:  # made by another process, or outside chatmem: its size is looked at once
            await self._check_size(name, dim, "nothing was written to it")
        schemas = {"keyword": m.PayloadSchemaType.KEYWORD,
                   "integer": m.PayloadSchemaType.INTEGER}
        for key, schema in PAYLOAD_INDEXES:  # idempotent: also heals a half-made collection
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=_LOCAL_INDEX_WARNING)
                await self._call(f"index {name}.{key}", self._client.create_payload_index,
                                 name, key, field_schema=schemas[schema])
        self._ready.add(name)
        self._dims[name] = dim
        return name

    async def _check_size(self, name: str, dim: int, what: str,
                          refused: StoreError | None = None) -> None:
        """Raise when collection ``name`` does not hold vectors of ``dim`` numbers, the
        size its name says: made again outside chatmem under chatmem's name with another
        size (chatmem names a collection by its vectors' size, so it never makes one so).
        Qdrant refuses a write or a search of another size, in words of its own (local
        mode's search in NumPy's: ``shapes (0,8) and (4,) not aligned``): a
        :class:`StoreError` that says what happened and the fix instead. ``refused``: the
        error Qdrant gave, raised as it was when the size is right (or the collection is
        gone: the caller decides); the size is looked at when a collection is first used
        and again after each refusal, so one made again after that first look is caught
        by its first refused write or search, nothing of which is stored."""
        try:
            info = await self._call(f"read collection {name}", self._client.get_collection,
                                    name)
            vectors = info.config.params.vectors
        except StoreError:
            if refused is not None:
                raise refused  # noqa: B904  # Qdrant's own refusal, with its cause
            raise
        size = getattr(vectors, "size", None)
        several = getattr(vectors, "multivector_config", None) is not None
        if size == dim and not several:
            if refused is not None:
                raise refused
            return
        self._ready.discard(name)
        held = "multivectors (not chatmem's layout)" if several else \
            f"vectors of {size} numbers" if isinstance(size, int) else \
            "named vectors (not chatmem's layout)"
        raise self._not_chatmems(name, f"{held}, not the {dim} its name says: it was made "
                                 "again outside chatmem", what) from refused

    def _not_chatmems(self, name: str, held: str, what: str) -> StoreError:
        """The error of collection ``name`` holding what chatmem never writes there
        (``held``: what, and how it came), with the fix."""
        return StoreError(
            f"qdrant ({self.display}): collection {name} holds {held}; {what}. Run chatmem "
            "clear --target vector, then chatmem reindex: they drop chatmem's collections "
            "and embed the messages again")

    async def _check_vectors(self, name: str, dim: int, points: Sequence[Any],
                             what: str, *, leave_out_not_finite: bool = False) -> list[Any]:
        """Raise when one of chatmem's points (a payload with a message id) among
        ``points``, read with their vectors, does not hold one vector of ``dim`` finite
        numbers, the size the collection's name says, before they are scored or read
        as entries (NumPy's own error otherwise: ``matmul: Input operand 1 has a
        mismatch in its core dimension 0 … (size 8 is different from 2)``). Qdrant
        writes no other into a collection made with that size: it was made again outside
        chatmem with another layout (:meth:`_check_size` says which), or its points were
        written there by another program. With ``leave_out_not_finite`` (a recall
        measuring its candidates), a point of the right size holding a value that is not
        a finite number is returned instead, to be left out as a search leaves it out
        (:meth:`_finite`): one point changed in Qdrant's storage, not a collection of
        another layout, so the recall still answers from the others."""
        ours = [p for p in points if "message_id" in (p.payload or {})]  # others: unread
        if all(isinstance(p.vector, list) and len(p.vector) == dim for p in ours):
            with contextlib.suppress(TypeError, ValueError):  # a value not a number
                if np.isfinite(np.asarray([p.vector for p in ours], dtype=np.float64)).all():
                    return []  # as chatmem wrote them: one look at them all
        not_finite: list[Any] = []
        for p in ours:
            payload = p.payload or {}
            vec = p.vector
            if isinstance(vec, list) and len(vec) == dim:
                try:
                    if np.isfinite(np.asarray(vec, dtype=np.float64)).all():
                        continue
                    if leave_out_not_finite:  # numbers, one of them NaN or infinite
                        not_finite.append(p)
                        continue
                except (TypeError, ValueError):
                    pass
            await self._check_size(name, dim, what)  # made again: says with what
            shown = "is missing" if not isinstance(vec, (list, dict)) else \
                "is named vectors" if isinstance(vec, dict) else \
                f"holds {len(vec)} values" if len(vec) != dim else \
                "holds a value that is not a finite number"
            raise self._not_chatmems(
                name, f"a point of message {describe(str(payload['message_id']))} whose "
                f"vector {shown} (its name says {dim} finite numbers): it was written "
                "outside chatmem", what)
        return not_finite

    async def _model_of(self, name: str) -> str | None:
        if name not in self._models:
            records, _ = await self._call("scroll", self._client.scroll, name, limit=1,
                                          with_payload=["model_id"], with_vectors=False)
            if not records:
                return None
            self._models[name] = (records[0].payload or {}).get("model_id")
        return self._models[name]

    async def _count(self, name: str, flt: qmodels.Filter | None = None) -> int:
        resp = await self._call("count", self._client.count, name, count_filter=flt, exact=True)
        return int(resp.count)

    # ---------------------------------------------------------------- writes

    async def upsert(self, entries: Sequence[VectorEntry], *, current_only: bool = False,
                     one_width: OneWidth | None = None,
                     owner: str | None = None) -> None:
        """Insert or replace by message id, across models and dimensions.
        ``current_only`` and ``owner`` are :class:`~chatmem.store.storage.Storage`'s to
        handle: the points hold no messages, and no leases. ``one_width`` is checked
        under this index's write lock, so for this process's writers only: Qdrant has
        no transaction that could hold a look at one collection and a write to another
        together across processes."""
        from qdrant_client import models as m

        self._check_open()
        latest: dict[str, tuple[VectorEntry, npt.NDArray[np.float32]]] = {}
        for i, e in enumerate(entries):
            vec = sound_vector(e.vector, f"entries[{i}] ({describe(e.message_id)}).vector")
            latest.pop(e.message_id, None)  # the last entry of an id wins
            latest[e.message_id] = (e, vec)
        if not latest:
            return
        groups: dict[tuple[str | None, int], list[m.PointStruct]] = {}
        target: dict[str, tuple[str | None, int]] = {}
        for mid, (e, vec) in latest.items():
            key = (e.model_id, int(vec.shape[0]))
            target[mid] = key
            groups.setdefault(key, []).append(
                m.PointStruct(id=point_id(mid), vector=vec.tolist(), payload=entry_payload(e)))
        widths = widths_of(entries) if one_width is not None else {}
        async with self._write_lock:
            self._scan = None
            await self._refresh()  # forgets collections dropped elsewhere: _ensure remakes them
            for model, width in widths.items():
                if one_width is not None and not one_width.takes(model, width):
                    held = await self._other_width(model, width)
                    if held is not None:
                        raise WidthConflict(model, width, held)
            names = {key: await self._ensure(*key) for key in groups}
            # Take each id out of every other collection first: a crash in between leaves
            # the vector missing (its message is still pending: re-indexed), never doubled.
            for name in sorted(self._dims):
                moved: list[Any] = [point_id(mid) for mid, key in target.items()
                                    if names[key] != name]
                for ids in chunks(moved, _BATCH * 4):
                    await self._call(f"delete from {name}", self._client.delete, name,
                                     points_selector=m.PointIdsList(points=ids))
            for key, points in groups.items():
                for chunk in chunks(points, _BATCH):
                    try:
                        await self._call(f"upsert into {names[key]}", self._client.upsert,
                                         names[key], points=chunk)
                    except StoreClosed:
                        raise
                    except StoreError as exc:
                        await self._check_size(names[key], key[1],
                                               "nothing was written to it", exc)

    async def delete_vectors(self, message_ids: Sequence[str]) -> int:
        from qdrant_client import models as m

        self._check_open()
        ids = list(dict.fromkeys(point_id(mid) for mid in message_ids))
        if not ids:
            return 0
        n = 0
        async with self._write_lock:
            self._scan = None
            for name in await self._refresh():
                for chunk in chunks(ids, _BATCH * 4):
                    found = await self._call("retrieve", self._client.retrieve, name, ids=chunk,
                                             with_payload=False, with_vectors=False)
                    if not found:
                        continue
                    await self._call(f"delete from {name}", self._client.delete, name,
                                     points_selector=m.PointIdsList(points=[r.id for r in found]))
                    n += len(found)
        return n

    async def delete_by_filter(self, where: Mapping[str, Any]) -> int:
        from qdrant_client import models as m

        self._check_open()
        check_fields(where)
        flt = compile_qdrant(where)
        n = 0
        async with self._write_lock:
            self._scan = None
            for name in await self._refresh():
                count = await self._count(name, flt)
                if count:
                    await self._call(f"delete from {name}", self._client.delete, name,
                                     points_selector=m.FilterSelector(filter=flt))
                    n += count
        return n

    async def clear_vectors(self, session_id: str | None = None) -> int:
        """Delete every vector (of one session); returns how many. Clearing everything
        drops chatmem's collections."""
        from qdrant_client import models as m

        self._check_open()
        flt = None if session_id is None else compile_qdrant({"session_id": session_id})
        n = 0
        async with self._write_lock:
            self._scan = None
            for name in await self._refresh():
                count = await self._count(name, flt)
                if flt is None:
                    await self._call(f"drop {name}", self._client.delete_collection, name)
                    self._ready.discard(name)
                    self._dims.pop(name, None)
                elif count:
                    await self._call(f"delete from {name}", self._client.delete, name,
                                     points_selector=m.FilterSelector(filter=flt))
                n += count
        return n

    async def update_session_snapshot(self, snapshots: Sequence[SessionSnapshot]) -> int:
        """Set the session fields of every point of each session (``set_payload`` by a
        filter on ``session_id``, in every collection); no vector is touched."""
        from qdrant_client import models as m

        self._check_open()
        n = 0
        async with self._write_lock:
            self._scan = None
            names = await self._refresh()
            for snap in snapshots:
                payload = {
                    "origin_platform": snap.origin_platform, "resource_id": snap.resource_id,
                    "meta": _json(snap.metadata, "session metadata", snap.session_id),
                }
                flt = m.Filter(must=[m.FieldCondition(
                    key="session_id", match=m.MatchValue(value=snap.session_id))])
                for name in names:
                    count = await self._count(name, flt)
                    if count:
                        await self._call(f"set payload in {name}", self._client.set_payload,
                                         name, payload=payload,
                                         points=m.FilterSelector(filter=flt))
                        n += count
        return n

    # ---------------------------------------------------------------- reads

    async def query(self, vector: npt.NDArray[np.float32], k: int,
                    where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        """The k nearest by cosine among the entries ``where`` selects, over every
        collection of the query's dimension; exact ties by newer ``ts``, then message id."""
        if k <= 0:
            return []
        self._check_open()
        q = sound_vector(vector, "query vector")
        flt = None
        ids: list[str] | None = None
        rest: dict[str, Any] = {}
        if where:
            check_fields(where)
            ids, rest = named_ids(where)
            flt = _query_filter(where)
        dim = int(q.shape[0])
        names = [n for n, d in (await self._refresh()).items() if d == dim]
        hits: dict[str, ScoredId] = {}
        for name in names:
            try:
                found = await (self._measure(name, q, ids, rest) if ids is not None
                               else self._search(name, q.tolist(), k, flt))
            except StoreClosed:
                raise
            except StoreError as exc:
                # dropped since it was listed (a clear in another process): no vectors
                if await self._call("check collection", self._client.collection_exists, name):
                    await self._check_size(name, dim, "it was not searched", exc)
                continue
            for s in found:
                old = hits.get(s.message_id)
                if old is None or s.score > old.score:
                    hits[s.message_id] = s
        return sorted(hits.values(), key=lambda s: (-s.score, -s.ts, s.message_id))[:k]

    async def _measure(self, name: str, q: npt.NDArray[np.float32], ids: list[str],
                       rest: Mapping[str, Any]) -> list[ScoredId]:
        """The cosines of the points of these message ids (recall measuring given
        candidates) that ``rest`` selects: the points read by id and scored here. A
        search restricted to their ids is the same answer, but Qdrant's local mode
        evaluates a filter on every point in Python (hybrid recall over 10,000 vectors:
        55 ms, 4.8x a dense one; ``bench/results/search-qdrant-stop45.json``); ``rest``
        is read by :func:`~chatmem.store.filters.matcher`, the reference semantics the
        compiled filter follows."""
        points = []
        for part in chunks(ids, 1000):
            points += await self._call(
                f"read {name}", self._client.retrieve, name,
                ids=[point_id(mid) for mid in part], with_payload=True, with_vectors=True)
        not_finite = await self._check_vectors(name, int(q.shape[0]), points,
                                               "it was not searched", leave_out_not_finite=True)
        for p in not_finite:
            self._say_left_out(name, p, "")
        left_out = {id(p) for p in not_finite}
        unit = q.astype(np.float64) / max(float(np.linalg.norm(q)), 1e-30)
        out = []
        readable = [p for p in points
                    if "message_id" in (p.payload or {}) and id(p) not in left_out]
        passes = matcher(rest) if rest else None  # parsed once, not once a point
        # a damaged point is left out with a warning (a reindex writes it again)
        for entry in read_rows("vectors", readable, _point_id,
                               lambda p: _entry(p.payload or {}, p.vector), damaged=[],
                               where=f"qdrant ({self.display})"):
            if passes is not None and not passes(filter_document(entry)):
                continue
            vec = entry.vector.astype(np.float64)
            # as Qdrant's cosine: both sides normalised
            score = float(unit @ vec) / max(float(np.linalg.norm(vec)), 1e-30)
            out.append(ScoredId(message_id=entry.message_id, score=score,
                                model_id=entry.model_id, role=entry.role,
                                session_id=entry.session_id, ts=entry.ts))
        return out

    async def _search(self, name: str, q: list[float], k: int,
                      flt: qmodels.Filter | None) -> list[ScoredId]:
        """The k best of one collection, plus every point tied with the k-th (or, when
        more tie than :data:`TIE_CAP` allows, the best of them by :meth:`query`'s key:
        :meth:`_ties`), so that ties are broken by that key, not by the engine's order."""
        cap = max(4 * k, k + TIE_CAP)
        limit = k + 1
        while True:
            found = await self._points(name, q, flt, limit)
            points = self._finite(name, found)
            if len(found) < limit or (len(points) > k
                                      and points[-1].score < points[k - 1].score):
                floor = points[k - 1].score if len(points) >= k else -math.inf
                return [s for s in _scored(points) if s.score >= floor]
            if limit >= cap:
                break
            limit = min(limit * 2, cap)
        if len(points) < k:  # points left out took the places of others, up to the cap
            return _scored(points)
        floor = points[k - 1].score
        hits = _scored(points)
        above = [s for s in hits if s.score > floor]
        tied = [s for s in hits if s.score == floor]
        return above + await self._ties(name, q, flt, floor, k - len(above), cap, tied)

    def _finite(self, name: str, points: Sequence[Any]) -> list[Any]:
        """``points`` (a search's, best first) without those scoring no finite number: a
        vector whose values are not (written outside chatmem: local mode's arrays edited,
        say) scores NaN, which Qdrant's local mode ranks first, and a NaN k-th score
        makes every comparison false, so the hits of a recall went missing in silence
        (none at all for k=1). Each is left out with a WARNING naming the collection and
        the fix, once a :data:`LEFT_OUT_WINDOW_S` per point (DEBUG lines between), so that
        a recall still answers from the other points."""
        kept = []
        for p in points:
            score = float(p.score)
            if math.isfinite(score):
                kept.append(p)
                continue
            self._say_left_out(name, p, f" (it scores {score})")
        return kept

    def _say_left_out(self, name: str, p: Any, scores: str) -> None:
        """The WARNING of a point left out for a vector that is not finite numbers
        (``scores``: what it scored, if it was), once a :data:`LEFT_OUT_WINDOW_S` per
        point, DEBUG lines between."""
        mid = (p.payload or {}).get("message_id")
        said = self._left_out.said((name, str(p.id)))
        again = "" if not said.again else (f" (left out {said.again} more time(s) in "
                                           f"the {self._left_out.window:g} s after "
                                           "its last warning)")
        which = f"of message {describe(str(mid))} " if mid is not None else \
            f"{describe(str(p.id))} "
        error = self._not_chatmems(
            name, f"a point {which}whose vector holds a value that is not a finite "
            f"number{scores}: it was written outside chatmem", "it was left out of the search")
        log.log(logging.WARNING if said.warn else logging.DEBUG, "%s%s", error, again)

    async def _points(self, name: str, q: list[float], flt: qmodels.Filter | None,
                      limit: int, threshold: float | None = None) -> list[Any]:
        """One search of a collection: the ``limit`` best points ``flt`` selects (scoring
        above ``threshold``), with the payload fields a hit needs and no vectors."""
        from qdrant_client import models as m

        resp = await self._call(f"search {name}", self._client.query_points, name, query=q,
                                query_filter=flt, limit=limit, score_threshold=threshold,
                                search_params=m.SearchParams(exact=True) if self._exact
                                else None,
                                with_payload=_SCORED_FIELDS, with_vectors=False)
        return list(resp.points)

    async def _ties(self, name: str, q: list[float], flt: qmodels.Filter | None,
                    floor: float, need: int, cap: int, tied: list[ScoredId]
                    ) -> list[ScoredId]:
        """The ``need`` best by newer ``ts``, then message id, of the points scoring
        exactly ``floor`` (the k-th score), when more of them tie than one search of
        ``cap`` points returns (``tied``: those it did).

        Each step asks for the points scoring at least ``floor`` (``score_threshold``
        just below it) at ``ts >= t`` (a range on the indexed ``ts``): when fewer than
        ``cap`` come back they are all there, and when ``need`` of them tie, they hold the
        answer. ``t`` is found by bisection between the oldest and newest ``ts`` the
        filter selects (:meth:`_ts_bounds`), each step at least halving the range, so at
        most log2 of its span in ms plus one searches of at most ``cap`` points (36 for a
        year); a step goes to the ``ts`` of the ``need``-th newest tie the last search
        returned when that is further on (there are ``need`` ties from it on: often the
        last step). When more than ``cap`` tie at one ``ts`` (:meth:`_ties_at`), their ids
        are read a page at a time. Memory holds one answer and the ``need`` best."""
        from qdrant_client import models as m

        below = _below(floor)
        first, last = await self._ts_bounds(name, flt)
        if last is None:
            return []  # emptied since (another writer)
        # too many tie at ts >= lo (the first search: at any ts); fewer than need at >= hi
        lo, hi = first - 1, last + 1
        upper: list[ScoredId] = []  # every tie at ts >= hi
        while hi - lo > 1:
            newest = sorted((s.ts for s in tied if s.ts > lo), reverse=True)
            hint = newest[need - 1] if len(newest) >= need else lo
            t = min(max(hint, (lo + hi) // 2), hi - 1)
            points = await self._points(name, q, _and(flt, m.FieldCondition(
                key="ts", range=m.Range(gte=t))), cap, below)
            found = [s for s in _scored(points) if s.score == floor]
            if len(points) >= cap:
                lo, tied = t, found
            elif len(found) >= need:
                return sorted(found, key=_tie_key)[:need]
            else:
                hi, upper = t, found
        return upper + await self._ties_at(name, q, flt, floor, lo, need - len(upper))

    async def _ts_bounds(self, name: str, flt: qmodels.Filter | None
                         ) -> tuple[int, int | None]:
        """The oldest and newest ``ts`` of the points ``flt`` selects (a scroll ordered by
        the indexed ``ts``, one point each way); ``(MIN_TS, None)`` when there are none."""
        from qdrant_client import models as m

        ends = []
        for direction in (m.Direction.ASC, m.Direction.DESC):
            records, _ = await self._call(
                f"scroll {name}", self._client.scroll, name, scroll_filter=flt, limit=1,
                order_by=m.OrderBy(key="ts", direction=direction), with_payload=["ts"],
                with_vectors=False)
            ts = (records[0].payload or {}).get("ts") if records else None
            ends.append(ts if isinstance(ts, int) else None)
        return (MIN_TS if ends[0] is None else ends[0]), ends[1]

    async def _ties_at(self, name: str, q: list[float], flt: qmodels.Filter | None,
                       floor: float, ts: int, need: int) -> list[ScoredId]:
        """The ``need`` smallest message ids among the points at ``ts`` scoring exactly
        ``floor``: their ids scrolled a page at a time, each page scored by a search
        restricted to it (Qdrant's own scores: the same as every other search's)."""
        from qdrant_client import models as m

        if need <= 0:
            return []
        at = _and(flt, m.FieldCondition(key="ts", range=m.Range(gte=ts, lte=ts)))
        best: list[ScoredId] = []
        offset: Any = None
        while True:
            records, offset = await self._call(
                f"scroll {name}", self._client.scroll, name, scroll_filter=at,
                limit=_SCAN_PAGE, offset=offset, with_payload=False, with_vectors=False)
            if records:
                page = m.Filter(must=[m.HasIdCondition(has_id=[r.id for r in records])])
                points = await self._points(name, q, page, len(records), _below(floor))
                best = heapq.nsmallest(
                    need, best + [s for s in _scored(points) if s.score == floor],
                    key=lambda s: s.message_id)
            if offset is None:
                return best

    async def count_by_model(self) -> dict[str, int]:
        """Vectors per model id (``""`` for legacy vectors without one)."""
        self._check_open()
        out: dict[str, int] = {}
        for name in await self._refresh():
            count = await self._count(name)
            if not count:
                continue
            key = await self._model_of(name) or ""
            out[key] = out.get(key, 0) + count
        return out

    async def other_width(self, model_id: str, width: int) -> int | None:
        self._check_open()
        await self._refresh()
        return await self._other_width(model_id, width)

    async def _other_width(self, model_id: str, width: int) -> int | None:
        """:meth:`other_width` from the collections :meth:`_refresh` listed: the one of
        ``(model_id, width)`` is named, the model's others are its name's other sizes."""
        own = collection_name(model_id, width, self._prefix)
        if own in self._dims and await self._count(own):
            return None
        for name, dim in sorted(self._dims.items()):
            if name != own and collection_name(model_id, dim, self._prefix) == name \
                    and await self._count(name):
                return dim
        return None

    async def vector_sizes(self) -> dict[str, frozenset[int]]:
        """The sizes of each model's vectors: one collection per (model, size)."""
        self._check_open()
        sizes: dict[str, set[int]] = {}
        for name, dim in (await self._refresh()).items():
            if await self._count(name):
                sizes.setdefault(await self._model_of(name) or "", set()).add(dim)
        return {model: frozenset(dims) for model, dims in sizes.items()}

    async def scan_vectors(self, after: str | None, limit: int, *,
                           damaged: list[str] | None = None) -> list[VectorEntry]:
        """Every entry ordered by message id, after ``after``: export and migration.

        Qdrant cannot order by a string field, so the first page lists the message ids
        of every point; the following pages of the same scan reuse that list (any write
        through this index starts a fresh one)."""
        self._check_open()
        if limit <= 0:
            return []
        snap = self._scan
        if snap is None or after is None or after != snap.last:
            snap = await self._snapshot()
        start = bisect.bisect_right(snap.ids, after) if after is not None else 0
        chosen = snap.ids[start:start + limit]
        by_name: dict[str, list[str]] = {}
        for mid in chosen:
            by_name.setdefault(snap.where[mid], []).append(mid)
        found: dict[str, VectorEntry] = {}
        for name, mids in by_name.items():
            records = await self._call("retrieve", self._client.retrieve, name,
                                       ids=[point_id(mid) for mid in mids], with_payload=True,
                                       with_vectors=True)
            dim = self._name_re.fullmatch(name)
            assert dim is not None  # listed by _refresh, which matched it
            await self._check_vectors(name, int(dim.group(2)), records, "it was not read")
            readable = [r for r in records
                        if r.payload and "message_id" in r.payload and r.vector is not None]
            for e in read_rows("vectors", readable, _point_id,
                               lambda r: _entry(r.payload or {}, r.vector),
                               damaged=damaged, reembedding=True,
                               where=f"qdrant ({self.display})"):
                found[e.message_id] = e
        out = [found[mid] for mid in chosen if mid in found]
        snap.last = chosen[-1] if chosen else after
        self._scan = snap
        return out

    async def _snapshot(self) -> _ScanSnapshot:
        where: dict[str, str] = {}
        for name in await self._refresh():
            offset: Any = None
            while True:
                records, offset = await self._call(
                    "scroll", self._client.scroll, name, limit=_SCAN_PAGE, offset=offset,
                    with_payload=["message_id"], with_vectors=False)
                for r in records:
                    mid = (r.payload or {}).get("message_id")
                    if isinstance(mid, str):
                        where[mid] = name
                if offset is None:
                    break
        return _ScanSnapshot(sorted(where), where)

