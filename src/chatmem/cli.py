"""The ``chatmem`` command: a thin layer over :class:`chatmem.Memory`.

Each command parses its options, calls one library method, maps errors to a
message and exit code 2, and shows an example in its help. The environment is
read here (``CHATMEM_DB``, ``CHATMEM_CONFIG``, the options' ``CHATMEM_<SECTION>__<FIELD>``
variables, a ``.env`` file, and the providers' API key variables such as
``OPENAI_API_KEY``, passed on as ``env``) and nowhere in the library.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import getpass
import io
import json
import logging
import math
import os
import re
import shlex
import shutil
import stat
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Sequence
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

import click

from .config import MAX_LAST_MESSAGES, PROVIDERS, Config, read_small_text
from .embedding.auto import ENGLISH_MODEL
from .errors import ChatmemError, ConfigError, DamagedRow, InvalidInput, NotFound
from .memory import Memory
from .models import (
    MAX_CONTENT_CHARS,
    SESSION_TEXT_FIELDS,
    Message,
    blank_labels_as_none,
    check_label,
    now_ms,
    validate_message,
)
from .refusals import as_given, describe
from .scopes import LAYER_PARTS, PART_LAYER

if TYPE_CHECKING:  # the transfer module is imported by the commands that use it
    from .transfer import CheckedExport, FileLines, TransferCounts

T = TypeVar("T")


def default_db() -> str:
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("chatmem")) / "chatmem.db")


#: Largest configuration or key file read (a table of options is a few KB; a larger one
#: is a mistake or an attack: parsing a 6 MB YAML list took 720 MB).
MAX_TABLE_BYTES = 1024 * 1024


def read_table(path: str, hint: str) -> dict[str, Any]:
    """A TOML or YAML file holding one table (``hint`` names the option in errors); every
    way it can be wrong is a :class:`ConfigError` naming the file. ``~`` is the home
    folder, as in ``--db`` (a quoted path, ``CHATMEM_CONFIG`` in a ``.env`` file or a
    service's environment, is not expanded by a shell)."""
    p = Path(path).expanduser()
    where = f"{hint} {path}"
    text = read_small_text(p, where, MAX_TABLE_BYTES, "a TOML or YAML file")
    data: Any
    try:
        if p.suffix in (".yaml", ".yml"):
            try:
                import yaml
            except ImportError:
                raise ConfigError(f"{where}: YAML files need PyYAML: pip install pyyaml"
                                  ) from None
            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem_mark", None)
                at = f" at line {mark.line + 1}" if mark is not None else ""
                problem = getattr(exc, "problem", None) or type(exc).__name__
                raise ConfigError(f"{where}: not valid YAML{at} ({problem}; only plain "
                                  "tables, lists and values, no tags)") from None
            if data is None:  # an empty file
                data = {}
        else:
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - Python 3.10
                try:
                    import tomli as tomllib
                except ImportError:
                    raise ConfigError(f"{where}: TOML files on Python 3.10 need tomli: "
                                      "pip install tomli") from None
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply") from None
    except ChatmemError:
        raise
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise ConfigError(f"{where}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must hold a table of options, got "
                          f"{type(data).__name__}")
    return data


def env_file_variables() -> dict[str, str]:
    """The variables of the ``.env`` file: ``CHATMEM_ENV_FILE`` names it (empty: none),
    else ``.env`` in the working directory when there is one."""
    from .config import read_env_file

    path = os.environ.get("CHATMEM_ENV_FILE")
    if path is None and Path(".env").is_file():
        path = ".env"
    return read_env_file(path) if path else {}


def environment() -> dict[str, str]:
    """The process environment over the variables of the ``.env`` file (README §
    Environment variables). The one place the CLI and the servers read the environment;
    the library gets it as ``env``."""
    return {**env_file_variables(), **os.environ}


def load_config(path: str | None, **overrides: Any) -> Config:
    """The configuration (I6): ``overrides`` > ``CHATMEM_*`` variables (and ``.env``) >
    the TOML or YAML file ``path`` > the defaults."""
    return Config.load(read_table(path, "--config") if path else None, env=environment(),
                       data_source=f"--config {path}" if path else None, **overrides)


def open_memory(url: str, **kwargs: Any) -> Coroutine[Any, Any, Memory]:
    """:meth:`Memory.open` with the environment as the source of API keys
    (``OPENAI_API_KEY``, …): the CLI is the edge where it is read."""
    return Memory.open(url, env=environment(), **kwargs)


def open_existing(db: str | None, config_path: str | None, vector: str | None,
                  **overrides: Any) -> Coroutine[Any, Any, Memory]:
    """The store of a command that only reads or cleans one up (``--db``, ``--config``,
    ``--vector``, and options that override the configuration's: ``overrides``): one
    that does not exist is an error naming it, not a new store."""
    cfg = load_config(config_path, **overrides)
    return open_memory(_store_url(db), vector=vector, config=cfg, create=False)


def open_to_read(db: str | None, config_path: str | None, vector: str | None,
                 **overrides: Any) -> Coroutine[Any, Any, Memory]:
    """:func:`open_existing` for a command that only reads (``recall``, ``list``,
    ``stats``, …): its ``--vector`` index must exist too (:func:`existing_index`)."""
    existing_index("--vector", vector)
    return open_existing(db, config_path, vector, **overrides)


def existing_index(option: str, value: str | None) -> None:
    """Refuse a Qdrant local-mode folder (``value`` of ``option``) that is missing or
    empty, for a command that only reads its index: opening it would make it, an empty
    index (a mistyped path read as an empty one), as a missing ``--db`` of such a command
    is refused, not made (:func:`~chatmem.store.qdrant.missing_local_index`)."""
    from .store.qdrant import missing_local_index

    missing = missing_local_index(value) if value else None
    if missing:
        fail(f"{option} {value}: {missing}: check the path, or create the index first "
             "(chatmem add or chatmem import with it); nothing was created")


#: Control characters other than newline and tab (C0, DEL, C1).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with its control characters other than newline and tab written out
    (``\\x1b``), for a terminal: a stored message is anyone's words, and a terminal
    obeys the escape sequences in them (clear the screen, retitle the window, write the
    clipboard; a carriage return hides what came before it). ``--json`` is exact."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def fail(message: str) -> NoReturn:
    """The one way a command fails: one line on stderr, exit code 2."""
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(2)


def selector(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An option that names a session, speaker, resource or platform (or ``list``'s
    ``--text``): ``""`` is refused as the option it was given as (``--platform must not
    be empty``), one line and exit 2, before anything is opened: no stored message or
    session has an empty one, so it would match nothing (or, for a recall's
    ``--session``, mean none; for ``--text``, every message, where the library and the
    HTTP API refuse it)."""
    if value == "":
        name = max(getattr(param, "opts", None) or [f"--{param.name}"], key=len)
        fail(f"{name} must not be empty")
    return value


def one_line_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """Map every error of a command body to one line and exit 2 (README § Command line).

    Click's own errors (usage, --help, aborted prompts) pass through; an error that is
    not a chatmem error is a bug: it still gets one line, and ``CHATMEM_DEBUG=1`` shows
    its traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except ChatmemError as exc:
            fail(_error_text(exc))
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # the reader went away (chatmem list | head): not an error of ours; what is
            # still buffered for it goes nowhere, and the exit code is the shell's 141
            with contextlib.suppress(OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except Exception as exc:
            if os.environ.get("CHATMEM_DEBUG"):
                raise
            fail(_error_text(exc))

    return wrapper


def _error_text(exc: Exception) -> str:
    """The line :func:`one_line_errors` prints for ``exc``, without ``error: ``."""
    if isinstance(exc, InvalidInput):
        return named_as_typed(str(exc), exc.mentions)
    if isinstance(exc, ChatmemError):
        # a ConfigError may name an option as typed (``--client-timeout must be …``)
        return values_as_typed(str(exc))
    return (f"unexpected {type(exc).__name__}: {exc} (set CHATMEM_DEBUG=1 for the "
            "traceback, and please report it)")


class Refused(click.BadParameter):
    """A value the type of an option (or argument) refuses: its message says what the
    option takes and what was given, after the option's name (:func:`usage_line`)."""


#: ``ctx.meta``'s key of the text each :class:`Number` parameter was typed as.
_TYPED = "chatmem.typed"


def typed_repr(text: object, limit: int = 80) -> str:
    """A value as the command line typed it, quoted, for an error: cut to ``limit``
    characters with its length said (``'123456…' (6000 characters)``), so a value pasted
    by mistake (a file's contents, 6,000 digits) does not fill the terminal."""
    typed = str(text)
    if len(typed) <= limit:
        return repr(typed)
    return f"{typed[:limit - 20]!r}… ({len(typed):,} characters)"


#: What ``int()`` reads as a whole number: its refusal of one of more than 4,300 digits
#: (CPython's limit on converting text) is about the length, not about being a number.
_WHOLE_NUMBER = re.compile(r"\s*([+-]?)\d(?:_?\d)*\s*")


def _past_every_bound(typed: str) -> int | float:
    """A whole number typed with more digits than ``int()`` converts, as a stand-in of its
    sign beyond every bound an option has (10**100), so that it is refused as too large
    in the option's words (``--top-k must be an integer from 1 to 1000``), as a number of
    50 digits is, not as not being an integer; any other text is NaN (not a number)."""
    found = _WHOLE_NUMBER.fullmatch(typed)
    if found is None:
        return math.nan
    return -10 ** 100 if found.group(1) == "-" else 10 ** 100


class Number(click.ParamType):  # type: ignore[type-arg]  # (generic in newer click)
    """A whole number (``kind`` int) or a finite decimal (float) within the bounds given:
    ``low`` to ``high`` (each inclusive) or ``above`` (exclusive). A bad value is refused
    as the library refuses one, ``must be an integer from 0 to 65535, got '70000'``; a
    bound the library checks itself is left to it (its error is renamed to the option,
    :func:`named_as_typed`), so that each limit is written once."""

    def __init__(self, kind: type[int] | type[float], low: float | None = None,
                 high: float | None = None, *, above: float | None = None) -> None:
        self.kind, self.low, self.high, self.above = kind, low, high, above
        self.name = "integer" if kind is int else "number"

    def takes(self) -> str:
        what = "an integer" if self.kind is int else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} from {self.low} to {self.high}"
        if self.low is not None:
            return f"{what} of at least {self.low}"
        if self.above is not None:
            return f"{what} of more than {self.above}"
        return what

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, self.kind) and not isinstance(value, bool):
            number: float = value
        else:
            try:
                number = self.kind(str(value))
            except ValueError:
                number = _past_every_bound(str(value)) if self.kind is int else math.nan
        if isinstance(value, str) and ctx is not None and param is not None:
            # the library's error shows the number it got (``int 0``): the CLI shows
            # the text it was typed as (:func:`values_as_typed`)
            ctx.meta.setdefault(_TYPED, {})[param] = value
        if ((isinstance(number, float) and not math.isfinite(number))
                or (self.low is not None and number < self.low)
                or (self.high is not None and number > self.high)
                or (self.above is not None and number <= self.above)):
            raise Refused(f"must be {self.takes()}, got {typed_repr(value)}", ctx=ctx,
                          param=param)
        return number


class OneOf(click.Choice):  # type: ignore[type-arg]  # (generic in newer click)
    """:class:`click.Choice`, refused in the CLI's words: ``must be one of …, got …``."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            raise Refused(f"must be one of {', '.join(map(str, self.choices))}, got "
                          f"{typed_repr(value)}", ctx=ctx, param=param) from None


def shown_name(param: click.Parameter) -> str:
    """A parameter as the command line spells it: ``--limit``, ``-o/--output``, ``DAYS``."""
    if isinstance(param, click.Option):
        return "/".join(param.opts)
    return param.human_readable_name.upper()


def usage_line(exc: click.UsageError) -> str:
    """Click's usage error (a value a type refuses, an option missing or unknown) as the
    one line of :func:`fail`: a refused value after its option's name, anything else
    with the command whose ``--help`` tells more."""
    param = getattr(exc, "param", None)
    if isinstance(exc, Refused) and param is not None:
        return f"{shown_name(param)} {exc.message}"
    text = " ".join(exc.format_message().split())
    return f"{text} (see {exc.ctx.command_path} --help)" if exc.ctx else text


class OneLineUsage(click.UsageError):
    """A usage error shown as every other error of the CLI is: one line, exit code 2."""

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {printable(self.message)}", err=True)


#: Click's usage error that shows the help (a group called without a command): kept.
_HELP_ERRORS = tuple(getattr(click.exceptions, name) for name in ("NoArgsIsHelpError",)
                     if hasattr(click.exceptions, name))


@contextlib.contextmanager
def _one_line_usage() -> Iterator[None]:
    try:
        yield
    except click.UsageError as exc:
        if isinstance(exc, (OneLineUsage, *_HELP_ERRORS)):
            raise
        raise OneLineUsage(usage_line(exc), ctx=exc.ctx) from None


class _KnowsItsCommand(click.Command):
    """A usage error raised while the command line is read names the command whose
    ``--help`` says more: click's parser raises some without it (``Option '--limit'
    requires an argument.``, ``Option '--yes' does not take a value.``). An argument
    more than the command takes is named with the fix (:func:`_extra_arguments`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # click refuses extra arguments as "Got unexpected extra argument ()" (an empty
        # one shows as nothing): they are let through here and refused below
        strict = not ctx.allow_extra_args
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise
        finally:
            ctx.allow_extra_args = not strict
        if strict and rest and not ctx.resilient_parsing:
            raise click.UsageError(_extra_arguments(ctx, rest), ctx=ctx)
        return rest


def _extra_arguments(ctx: click.Context, extra: list[str]) -> str:
    """The one line refusing the arguments ``extra`` that the command ``ctx`` runs does
    not take: each shown, what the command takes, and the fix."""
    # several may be shown in the line: each cut to 40 characters when it is longer than 60
    shown = ", ".join(typed_repr(value, 60) for value in extra)
    what, them, are = (f"an extra argument {shown}", "it", "it is a value") \
        if len(extra) == 1 else (f"extra arguments {shown}", "them", "they are values")
    takes = [p for p in ctx.command.params if isinstance(p, click.Argument)]
    if not takes:
        return (f"{what}: {ctx.command_path} takes options only; remove {them}, or give "
                f"{them} after the option {are} of")
    # every command takes at most one argument (of one value, or of all that are given)
    named = shown_name(takes[0])
    given = _typed(ctx, takes[0], None)
    # a text may be words the shell split (no quotes); a number or a name seldom is
    words = f", or quote words meant as one {named}" if takes[0].type is click.STRING else ""
    return (f"{what} after {named}{'' if given is None else f' {typed_repr(given, 60)}'}: "
            f"{ctx.command_path} takes one {named}; remove {them}{words}")


class Commands(_KnowsItsCommand, click.Group):
    """The ``chatmem`` group: click's own usage errors of every command (``--limit abc``,
    ``--role bogus``, a missing option) are one line and exit code 2 as well, the rule
    of README § Command line, not click's usage text. Its commands, and the commands of
    its groups (``scope``, ``retention``, ``session``), read their command line as
    :class:`_KnowsItsCommand` does."""

    command_class = _KnowsItsCommand
    group_class = type  # a group of the group is a Commands too

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        with _one_line_usage():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line_usage():
            return super().invoke(ctx)


def library_names(**names: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """The names the library's errors give a command's parameters where they are not the
    parameters' own (``session="session_id"``: add's ``--session`` is the message's
    ``session_id``), for :func:`named_as_typed`. Put right under ``@….command()``."""

    def mark(f: Callable[..., T]) -> Callable[..., T]:
        f.library_names = names  # type: ignore[attr-defined]
        return f

    return mark


#: The name an error of the library begins with: ``limit``, ``messages[0].session_id``,
#: ``ids[2]``.
_LEADING_NAME = re.compile(r"(?:\w+(?:\[\d+\])?\.)?(\w+)(\[\d+\])?(?=[\s.:])")

def named_as_typed(message: str, mentions: tuple[tuple[str, str], ...] = ()) -> str:
    """The library's error ``message`` about the running command's parameters, named as
    the command line spells them: ``limit must be …`` → ``--limit must be …``,
    ``messages[0].session_id …`` → ``--session …`` (the library names its own argument,
    which a command-line user never typed), and the other arguments it names with a
    value, its ``mentions`` (:class:`InvalidInput`), as well: ``needs session=<the
    current session id>`` → ``needs --session <the current session id>``, ``with
    newest_first=false`` → ``without --newest-first``, ``use scope="session"`` → ``use
    --scope session`` (a string, which the library writes as JSON, as it is typed).
    Only those are renamed: a value the message quotes (a session id ``"top_k=3"``) is
    shown as it is."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return message
    aliases: dict[str, str] = getattr(ctx.command.callback, "library_names", {})

    def param_of(name: str) -> click.Parameter | None:
        return next((p for p in ctx.command.params
                     if name in (p.name, aliases.get(p.name or ""))), None)

    def option(found: re.Match[str], name: str, value: str) -> str:
        with_ = found.group(1)
        param = param_of(name)
        if not isinstance(param, click.Option):
            return found.group()
        shown = max(param.opts, key=len)
        if param.is_flag and value in ("true", "false"):
            return f"{'with' if value == 'true' else 'without'} {shown}" if with_ \
                else shown if value == "true" else f"no {shown}"
        with contextlib.suppress(ValueError):
            typed = json.loads(value)
            value = shlex.quote(typed) if isinstance(typed, str) else value
        return f"{with_ or ''}{shown} {value}"

    found = _LEADING_NAME.match(message)
    param = param_of(found.group(1)) if found else None
    if found and param:
        rest = _got_as_typed(message[found.end():], _typed(ctx, param, found.group(2)))
        message = f"{_item_of(param, found.group(2), ctx)}{rest}"
    for name, value in mentions:
        message = re.sub(rf"(?<![\w.-])(with )?{re.escape(f'{name}={value}')}",
                         partial(option, name=name, value=value), message)
    return message


#: An option an error begins with, as the command line spells it: ``--client-timeout``.
_LEADING_OPTION = re.compile(r"--[\w-]+(?=[\s:])")


def values_as_typed(message: str) -> str:
    """An error ``message`` that begins with an option of the running command as the
    command line spells it (``--client-timeout must be …, got 0.0``), with the value it
    got as typed: ``got '0'``."""
    ctx = click.get_current_context(silent=True)
    found = _LEADING_OPTION.match(message)
    if ctx is None or found is None:
        return message
    param = next((p for p in ctx.command.params
                  if isinstance(p, click.Option) and found.group() in p.opts), None)
    if param is None:
        return message
    return found.group() + _got_as_typed(message[found.end():], _typed(ctx, param, None))


def _typed(ctx: click.Context, param: click.Parameter, index: str | None) -> str | None:
    """The text ``param`` was given as on the command line (the one of its values at
    the library's ``index``, ``[1]``), or None when it was not text."""
    typed: dict[click.Parameter, str] = ctx.meta.get(_TYPED, {})
    if param in typed:
        return typed[param]
    value = ctx.params.get(param.name or "")
    if index is not None and isinstance(value, (tuple, list)):
        at = int(index[1:-1])
        value = value[at] if at < len(value) else None
    return value if isinstance(value, str) else None


def _got_as_typed(message: str, typed: str | None) -> str:
    """``message`` with the value it says it got (the library's way: ``got 0``, ``got
    0.0``, ``got "galaxy"``, ``got [1]``, as JSON shows what a caller passed,
    :func:`~chatmem.refusals.describe`) shown as the text the command line gave, ``got
    '0'``, ``got 'galaxy'``, as the CLI's own refusals show it (:class:`Number`,
    :class:`OneOf`). Only a value that is ``typed`` read as the command reads it (the
    text, a number, JSON) is replaced, so another value the message names stays."""
    if typed is None or " got " not in message:
        return message
    readings: list[object] = [typed]
    for read in (int, float, json.loads):
        with contextlib.suppress(ValueError, RecursionError):
            readings.append(read(typed))
    if not math.isnan(stand_in := _past_every_bound(typed)):
        readings.append(stand_in)  # the number Number passed on for its digits
    shown = {repr(typed)}  # the text itself is only matched quoted: a bare word is too loose
    for value in readings:
        shown |= {describe(value), repr(value)}
        if not isinstance(value, str):
            shown.add(str(value))
    pattern = "|".join(re.escape(s) for s in sorted(shown, key=len, reverse=True))
    return re.sub(rf"(?<= got )(?:{pattern})(?=$|[;,)])", lambda _: typed_repr(typed),
                  message)


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, …, 21st."""
    last = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if not 10 <= n % 100 <= 20 \
        else "th"
    return f"{n}{last}"


def _item_of(param: click.Parameter, index: str | None, ctx: click.Context) -> str:
    """``param`` as the command line spells it, and which of its values the library
    means by ``index`` (``[1]``, its list's index, never typed): ``IDS (the 2nd of 3)``,
    or ``IDS`` when it was given one value."""
    if index is None:
        return shown_name(param)
    given = ctx.params.get(param.name or "")
    count = len(given) if isinstance(given, (tuple, list)) else 1
    if count <= 1:
        return shown_name(param)
    return f"{shown_name(param)} (the {_ordinal(int(index[1:-1]) + 1)} of {count})"


def counted(counts: dict[str, int]) -> str:
    """What a command did, in words: ``sessions 1, messages 3, vectors 3`` (it printed
    Python's dict, ``{'sessions': 1, …}``)."""
    return ", ".join(f"{kind} {n}" for kind, n in counts.items()) or "nothing"


def run(coro_fn: Callable[..., Coroutine[Any, Any, T]]) -> Callable[..., T]:
    """Run an async command body with :func:`one_line_errors`."""

    @wraps(coro_fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        return asyncio.run(coro_fn(*args, **kwargs))

    return one_line_errors(wrapper)


def db_option(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--config", "config_path", envvar="CHATMEM_CONFIG", default=None,
                     help="TOML or YAML configuration file [env CHATMEM_CONFIG].")(f)
    return click.option("--db", envvar="CHATMEM_DB", default=None,
                        help="SQLite file (chat.db), store URL (sqlite:///relative.db, "
                             "sqlite:////absolute.db, postgresql://…) [env CHATMEM_DB; "
                             "default: the user data directory's chatmem.db].")(f)


def vector_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--vector", envvar="CHATMEM_VECTOR", default=None,
                        callback=vector_folder,
                        help="Separate vector index URL (e.g. qdrant://host:6333), for a "
                             "store whose vectors live there [env CHATMEM_VECTOR].")(f)


def _store_url(db: str | None, option: str = "--db") -> str:
    if db == "-":  # elsewhere standard input or output: never a store file named "-"
        fail(f"{option} -: a store is a file or URL, not standard input or output; give a "
             "file name such as chat.db (./- for a file named -)")
    return db or default_db()


def _new_store_url(db: str | None, option: str = "--db") -> str:
    """The store of a command that creates it when missing (``add``, ``import``,
    ``migrate --to``, ``demo --db``, ``serve``, ``mcp``). The default store's folder (the
    user data directory) is made with it; an explicit path whose folder does not exist
    is refused before anything is made, as a mistyped one (``--db nodir/chat.db``) would
    otherwise give a new empty store in a new folder, as ``export -o`` refuses one. A
    ``{namespace}`` template's folder is the one before the template's first part."""
    from .store.urls import sqlite_path

    url = _store_url(db, option)
    if not db:
        return url
    try:
        path = sqlite_path(url)
    except ChatmemError:
        return url  # PostgreSQL, or a URL the open refuses in its own words
    if path != ":memory:":
        _refuse_missing_folder(option, db, path)
    return url


def _refuse_missing_folder(option: str, given: str, path: str) -> None:
    """Refuse ``path`` (of ``option`` given as ``given``) when the folder it would be
    made in does not exist (:func:`_new_store_url`); with ``{namespace}`` in it, the
    folder before the template's first part."""
    from .store.base import missing_folders

    folder = os.path.dirname(path.partition("{namespace}")[0])
    if folder and missing_folders(folder):
        fail(f"{option} {given}: no folder {as_given(folder, 200)}; create it first "
             f"(mkdir -p {shlex.quote(folder)}) or give another path; nothing was created")


def vector_folder(ctx: click.Context, param: click.Parameter, value: str | None
                  ) -> str | None:
    """A vector index URL given on the command line (``--vector``, ``CHATMEM_VECTOR``,
    ``migrate --from-vector``/``--to-vector``): a Qdrant local-mode folder
    (``qdrant+local:///data/vectors``) is made when missing, as a SQLite store's file
    is, but not the folders it would be in: a missing one is refused before anything is
    opened or made, as :func:`_new_store_url` refuses a store's. A URL that does not
    parse is left to the open, which refuses it in its own words."""
    from .store.qdrant import parse_url

    if value and value.startswith("qdrant+local://"):
        try:
            path = parse_url(value).client_kwargs.get("path")
        except ChatmemError:
            return value
        if path:
            name = max(getattr(param, "opts", None) or [f"--{param.name}"], key=len)
            _refuse_missing_folder(name, value, path.rstrip("/") or "/")
    return value


def _json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON for a terminal: JSON escapes C0 controls itself; DEL and C1
    (U+009B is CSI) are written as ``\\u`` escapes too (see :func:`printable`)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _echo_json(data: Any) -> None:
    click.echo(_json_text(data))


#: Variables of the ``.env`` file that stand for command-line options (those options
#: that read them from the environment).
_ENV_FILE_OPTIONS = ("CHATMEM_DB", "CHATMEM_CONFIG", "CHATMEM_KEYS", "CHATMEM_VECTOR")


@click.group(cls=Commands)
@click.version_option(package_name="chatmem")
@click.pass_context
def main(ctx: click.Context) -> None:
    """chatmem: semantic long-term memory for chat agents.

    \b
    Example:
      chatmem demo
      chatmem add --db chat.db --session s1 --speaker-name Alex "The deadline is Friday"
      chatmem recall --db chat.db --session s1 "when is the deadline?"
    """
    # CHATMEM_DB, CHATMEM_CONFIG, CHATMEM_KEYS and CHATMEM_VECTOR of a .env file count as
    # defaults (the process environment and the command line still win), of the options
    # that read that variable only: demo's --db (a file for the demo's own store) does
    # not, and .env's CHATMEM_DB once made `chatmem demo` write into the user's store.
    # The demo reads no .env file at all (one it cannot read does not stop it either)
    if ctx.invoked_subcommand == "demo":
        return
    try:
        variables = env_file_variables()
    except ChatmemError as exc:
        fail(str(exc))
    defaults = {name: {param.name: variables[param.envvar] for param in command.params
                       if param.name and isinstance(param.envvar, str)
                       and param.envvar in _ENV_FILE_OPTIONS and param.envvar in variables}
                for name, command in main.commands.items()}
    if any(defaults.values()):
        ctx.default_map = {name: own for name, own in defaults.items() if own}


async def _flush_saying(mem: Memory, stored: str) -> None:
    """Wait for indexing; Ctrl-C meanwhile first says what is stored (``stored``): it
    stays stored, and "Aborted!" alone would have it sent again."""
    try:
        await mem.flush()
    except asyncio.CancelledError:
        click.echo(f"{stored}; interrupted before it was all indexed, which the store's "
                   "next open does", err=True)
        raise


@main.command()
@click.option("--db", default=None, help="Keep the demo store in this file (default: memory).")
@click.option("--json", "as_json", is_flag=True, help="Print the injected messages as JSON.")
@run
async def demo(db: str | None, as_json: bool) -> None:
    """Replay a conversation that drifts across topics, then ask about the first topic,
    and print what chatmem would inject before the model call. Offline, on the embedded
    defaults (the local embedding model, no API key): it reads no CHATMEM_* variable,
    .env file or configuration, so a remote provider set there is never called.

    \b
    Example:
      chatmem demo
    """
    from .demo import DEMO_QUESTION, DEMO_SESSION, DEMO_USER, demo_messages

    start = now_ms() - 3 * 86_400_000
    # Memory.open itself, not open_memory: no environment, so the default configuration
    async with await Memory.open(_new_store_url(db) if db else "memory://") as mem:
        if db:
            await _take_demo_store(mem, db)
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


async def _take_demo_store(mem: Memory, db: str) -> None:
    """The demo writes only into a store of its own: a new or empty one (no message,
    session or setting: a store its user has only configured so far is theirs), marked
    as the demo's, or one an earlier demo marked, whose demo conversation it replaces
    (run again, the demo would recall every line twice). A store holding anything else
    (the user's own, given by mistake) is refused before anything is written to it."""
    from .demo import DEMO_SESSION, DEMO_STORE_MARK
    from .transfer import holds_data

    if await mem.store.meta_get(*DEMO_STORE_MARK) is not None:
        await mem.forget(session=DEMO_SESSION)
        return
    if await holds_data(mem.store):
        # a URL is not repeated: it may hold a password
        where = f"--db {db}" if "://" not in db else f"--db ({db.partition(':')[0]} URL)"
        fail(f"{where} holds a chatmem store the demo did not make (messages, sessions "
             "or settings): the demo writes its conversation only into a new file, an "
             "empty store or one an earlier `chatmem demo --db` made; nothing was "
             "written, give another path or URL")
    await mem.store.meta_set(*DEMO_STORE_MARK, "1")


#: The roles ``chatmem add`` stores a TEXT as.
_ADD_ROLES = ("user", "assistant", "system", "tool", "notice")

#: The most bytes ``chatmem add --messages`` reads: the whole file is held in memory and
#: stored in one transaction (``chatmem import`` pages a chatmem export of any size).
MAX_MESSAGES_FILE_BYTES = 64 * 1024 * 1024


def _gunzip_source(file: str) -> str:
    """The start of the pipe that decompresses ``file`` (``-``: standard input) for a
    gzip refusal: ``gunzip -c 'my chat.jsonl.gz'`` or ``… | gunzip -c``."""
    return "… | gunzip -c" if file == "-" else f"gunzip -c {shlex.quote(file)}"


def _messages_file_text(file: str, too_large: str) -> tuple[str, str]:
    """The text of a ``--messages FILE`` (``-``: standard input) and the file as an
    error names it; every way it cannot be read fails naming it (``too_large``: the way
    on for a file over :data:`MAX_MESSAGES_FILE_BYTES`)."""
    shown = "standard input" if file == "-" else file
    try:
        if file == "-":
            raw = sys.stdin.buffer.read(MAX_MESSAGES_FILE_BYTES + 1)
        else:
            with open(file, "rb") as fh:
                raw = fh.read(MAX_MESSAGES_FILE_BYTES + 1)
    except OSError as exc:
        fail(f"{shown}: cannot read it ({exc.strerror or exc})")
    from .transfer import SQLITE_MAGIC

    if raw.startswith(SQLITE_MAGIC):  # a store (of any size), as chatmem import refuses one
        fail(_a_store_given(shown, file, "a file of messages"))
    if len(raw) > MAX_MESSAGES_FILE_BYTES:
        fail(f"{shown}: over {MAX_MESSAGES_FILE_BYTES // (1024 * 1024)} MiB; {too_large}")
    try:
        return shown, raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from .transfer import GZIP_MAGIC

        if raw.startswith(GZIP_MAGIC):
            source = _gunzip_source(file)
            command = click.get_current_context().command_path
            fail(f"{shown} is gzip-compressed: decompress it on the way in ({source} | "
                 f"{command} --messages - with your other options)")
        fail(f"{shown}: not UTF-8 text ({exc.reason} at byte {exc.start})")


def _json_lines(text: str) -> Iterator[tuple[int, Any]]:
    """Each non-blank line of JSON Lines ``text``: its number and its value (a line
    that is not JSON, or names a key twice in one object as the HTTP API refuses:
    :class:`InvalidInput` naming it, ``line 3: not JSON (…)``)."""
    from .transfer import parse_json

    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield n, parse_json(line, f"line {n}", unique_keys=True)


def _messages_of_file(file: str, *, session: str | None, platform: str | None,
                      speaker_id: str | None, speaker_name: str | None) -> list[Message]:
    """The messages of ``chatmem add --messages FILE``, each checked as ``Memory.add``
    checks it (a JSON array's items named ``messages[i]``, JSON Lines' by line), before
    any store is opened; every way the file is wrong fails naming it."""
    from .chat_format import check_defaults, coerce, to_message
    from .transfer import parse_json

    # the options first, named as typed (an empty --session), before the file is read
    check_defaults(session=session, platform=platform, speaker_id=speaker_id,
                   speaker_name=speaker_name)
    shown, text = _messages_file_text(
        file, "split it into several files (or, for a chatmem export, use chatmem import)")
    defaults = {"session": session, "platform": platform, "speaker_id": speaker_id,
                "speaker_name": speaker_name}
    try:
        if text.lstrip().startswith("["):
            batch = coerce(parse_json(text, "the JSON array", unique_keys=True), **defaults)
        else:
            batch = []
            for n, item in _json_lines(text):
                if not isinstance(item, dict):
                    raise InvalidInput(f"line {n}: expected a message object, got "
                                       f"{describe(item)}")
                batch.append(to_message(item, path=f"line {n}: message", **defaults))
            batch = coerce(batch)  # one id twice in the file
    except InvalidInput as exc:
        said = str(exc)
        missing = re.match(r"(.*?\.session_id is required):", said)
        if missing:  # the library's words name its own argument, not the option
            said = (f"{missing.group(1)}: give --session <the conversation id> for the "
                    "whole file, or give each message a session_id")
        fail(f"{shown}: {said}")
    if not batch:
        fail(f"{shown}: holds no message")
    return batch


def _stdin_text() -> str:
    """A TEXT ``-``: one message's text read from standard input, without the line
    breaks it ends with."""
    try:  # one message's worth and a character more: never the whole stream
        text = sys.stdin.read(MAX_CONTENT_CHARS + 1)
    except UnicodeDecodeError as exc:
        fail(f"standard input is not UTF-8 text ({exc.reason} at byte {exc.start})")
    if len(text) > MAX_CONTENT_CHARS:
        fail(f"standard input holds more than {MAX_CONTENT_CHARS} characters, the "
             "most one message may hold (split the text or store an attachment "
             "reference)")
    # a file or `echo` ends its last line with a line break, which is not part of
    # the message (a shell's $(cat notes.txt) leaves it out too)
    return text.rstrip("\r\n")


@main.command()
@library_names(session="session_id", text="content")
@db_option
@vector_option
@click.option("--session", default=None,
              help="Session (conversation) id; with --messages, of the messages that do "
                   "not give their own session_id.")
@click.option("--role", default=None, type=OneOf(list(_ADD_ROLES)),
              help="The sender's role (default: user).")
@click.option("--speaker-id", default=None, help="Who spoke (user id).")
@click.option("--speaker-name", default=None, help="Sender label shown in recalls.")
@click.option("--platform", default=None, help="Entry platform of this message.")
@click.option("--ts", type=Number(int), default=None,
              help="Time in ms since the epoch (default: now).")
@click.option("--messages", "messages_file", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, allow_dash=True),
              help="Store every message of FILE instead of TEXT (- reads standard input): "
                   "a JSON array of messages or one message object per line, each with "
                   "chatmem's fields or a chat-completions message, as Memory.add takes "
                   "them. --session and --platform fill in what a message leaves out, "
                   "--speaker-id and --speaker-name (one speaker) a user message that "
                   "names no speaker (no speaker_id, speaker_name or name): one that "
                   "names any keeps its own and takes neither. The whole file is checked "
                   "first, and a bad file stores nothing.")
@click.option("--no-wait", is_flag=True, help="Do not wait for indexing before exiting.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the stored message as JSON (with --messages, a JSON array).")
@click.argument("text", required=False)
@run
async def add(db: str | None, config_path: str | None, vector: str | None,
              session: str | None, role: str | None,
              speaker_id: str | None, speaker_name: str | None, platform: str | None,
              ts: int | None, messages_file: str | None, no_wait: bool, as_json: bool,
              text: str | None) -> None:
    """Store one message (and index it). TEXT "-" reads the text from standard input
    (without the line breaks it ends with). --messages FILE stores a whole chat log
    instead, in one transaction.

    \b
    Example:
      chatmem add --db chat.db --session s1 --speaker-name Alex "The deadline is Friday"
      cat notes.txt | chatmem add --db chat.db --session s1 -
      chatmem add --db chat.db --session s1 --messages chat.jsonl
    """
    if messages_file is not None:
        if text is not None:
            fail("give TEXT or --messages FILE, not both")
        for given_option, field in ((role, "role"), (ts, "ts")):
            if given_option is not None:
                fail(f"--{field} applies to TEXT; with --messages each message gives its "
                     f"own ({field} in the file)")
        batch = _messages_of_file(messages_file, session=session, platform=platform,
                                  speaker_id=speaker_id, speaker_name=speaker_name)
        cfg = load_config(config_path)
        async with await open_memory(_new_store_url(db), vector=vector, config=cfg) as mem:
            stored = await mem.add(batch)
            said = f"stored {len(stored)} message(s) in " \
                   f"{len({m.session_id for m in stored})} session(s)"
            if not no_wait:
                await _flush_saying(mem, said)
        if as_json:
            _echo_json([m.to_dict() for m in stored])
        else:
            click.echo(said)
        return
    if text is None:
        fail("give the message's TEXT (- reads standard input), or --messages FILE")
    if session is None:
        fail("--session is required with TEXT: the session (conversation) id")
    if text == "-":
        text = _stdin_text()
    given = Message(session_id=session, content=text,
                    role=role or "user",  # type: ignore[arg-type]
                    speaker_id=speaker_id, speaker_name=speaker_name, platform=platform,
                    ts=ts)
    # as add() checks it, before the store is opened: a refused message creates no store
    validate_message(given, path="message")
    cfg = load_config(config_path)
    async with await open_memory(_new_store_url(db), vector=vector, config=cfg) as mem:
        [msg] = await mem.add(given)
        if not no_wait:
            await _flush_saying(mem, f"stored {msg.id} in {session} at ts={msg.ts}")
    if as_json:
        _echo_json(msg.to_dict())
    else:
        click.echo(f"stored {msg.id} in {session} at ts={msg.ts}")


@main.command()
@library_names(filter_json="filter")
@db_option
@vector_option
@click.option("--session", default=None, callback=selector,
              help="The current session (needed by the scopes session, resource and "
                   "platform).")
@click.option("--scope", default=None,
              type=OneOf(["all", "user", "platform", "resource", "session", "thread"]),
              help="Visibility scope (default: the session's settings, else the "
                   "configuration's semantic_recall.scope, else its scope, all).")
@click.option("--top-k", type=Number(int), default=None,
              help="Hits to return (default: the configuration's semantic_recall.top_k, "
                   "else its search.top_k, 5).")
@click.option("--window", type=Number(int), default=None,
              help="Neighbours each side (default: the configuration's "
                   "semantic_recall.message_range, else its context_expand.window, 2).")
@click.option("--min-score", type=Number(float), default=None,
              help="Semantic floor 0..1 (default: the configuration's search.min_score, "
                   "0).")
@click.option("--no-follow-replies", "no_follow", is_flag=True,
              help="No reply or sitting inherits a match's score (messages are documents).")
@click.option("--filter", "filter_json", default=None, metavar="JSON",
              help="A metadata filter, a JSON object (README § Filters), added to the "
                   "configured semantic_recall.filter, as POST /v1/recall's filter.")
@click.option("--json", "as_json", is_flag=True, help="Structured hits as JSON.")
@click.argument("query")
@run
async def recall(db: str | None, config_path: str | None, vector: str | None,
                 session: str | None,
                 scope: str | None, top_k: int | None, window: int | None,
                 min_score: float | None, no_follow: bool, filter_json: str | None,
                 as_json: bool, query: str) -> None:
    """Recall past messages relevant to QUERY and print the rendered memory.

    \b
    Example:
      chatmem recall --db chat.db --session s1 --scope session "when is the deadline?"
      chatmem recall --db chat.db --filter '{"team": {"$in": ["a", "b"]}}' "the plan"
    """
    metadata_filter = None if filter_json is None else _filter_of(filter_json)
    async with await open_to_read(db, config_path, vector) as mem:
        result = await mem.recall(query, session=session, scope=scope, top_k=top_k,
                                  window=window, min_score=min_score,
                                  filter=metadata_filter,
                                  follow_replies=False if no_follow else None)
    if as_json:
        _echo_json(result.to_dict())
    else:
        click.echo(printable(result.text) or "(nothing recalled)")


def _filter_of(text: str) -> dict[str, Any] | None:
    """``recall --filter``'s JSON read as ``POST /v1/recall`` reads its ``filter``: an
    object (``null``: none), each key once; the library checks the filter itself
    (:class:`~chatmem.errors.FilterError` naming the part and the fix, as over HTTP)."""
    from .transfer import parse_json

    value = parse_json(text, "--filter", unique_keys=True)
    if value is not None and not isinstance(value, dict):
        raise InvalidInput(f"filter must be an object, got {describe(value)}")
    return value


def _metadata_of(text: str) -> Any:
    """``--metadata``'s JSON (``rewrite``, ``session set``) read as ``--filter``'s and an
    HTTP body are: not JSON, nested too deeply, a key given twice, ``NaN``: an error
    naming ``--metadata``; the library checks that it is an object."""
    from .transfer import parse_json

    return parse_json(text, "--metadata", unique_keys=True)


def _turn_of_file(file: str) -> list[Any]:
    """This turn's inputs from ``chatmem context --messages FILE``: a JSON array, or one
    per line (JSON Lines), of texts and messages (chatmem's fields or chat-completions
    messages), each checked as ``Memory.context`` checks its ``turn`` (an array's items
    named ``turn[i]``, JSON Lines' by line); every way the file is wrong fails naming
    it, before the store is opened."""
    from .recall.request import turn_inputs
    from .transfer import parse_json

    shown, text = _messages_file_text(file, "a turn is its latest messages, at most "
                                            "1000: give those")
    turn: list[Any] = []
    try:
        if text.lstrip().startswith("["):
            turn = parse_json(text, "the JSON array", unique_keys=True)
        else:
            for n, item in _json_lines(text):
                turn_inputs(item, f"line {n}: message")
                turn.append(item)
        turn_inputs(turn, "turn")
    except InvalidInput as exc:
        fail(f"{shown}: {exc}")
    if not turn:
        fail(f"{shown}: holds no message")
    return turn


@main.command()
@library_names(speaker_ids="speakers", text="turn")
@db_option
@vector_option
@click.option("--session", required=True, callback=selector,
              help="The conversation this turn is of (its settings decide the scope; its "
                   "last messages come back with --last-messages).")
@click.option("--platform", default=None, callback=selector,
              help="The entry platform of this turn.")
@click.option("--speaker-id", "speaker_ids", multiple=True,
              help="Who speaks in this turn (user id; repeat for more): the same-user "
                   "boost, and what scope user recalls.")
@click.option("--exclude-id", "exclude_ids", multiple=True,
              help="A message id never to recall (repeat for more).")
@click.option("--now", type=Number(int), default=None,
              help="The recall's clock in ms since the epoch (default: now; replays).")
@click.option("--last-messages", type=Number(int, 0, MAX_LAST_MESSAGES), default=None,
              help="Also return the session's N latest messages before this turn "
                   "(default: the configuration's last_messages, 0).")
@click.option("--messages", "messages_file", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, allow_dash=True),
              help="This turn's messages instead of TEXT (- reads standard input): a JSON "
                   "array, or one per line, of messages (chatmem's fields or an OpenAI "
                   "chat-completions list as is: its user and assistant words are the "
                   "query) and texts, as Memory.context takes them.")
@click.option("--explain", is_flag=True,
              help="Print POST /v1/context's answer with explain: the messages, whether "
                   "the recall was degraded, and the recall behind them.")
@click.argument("text", required=False)
@run
async def context(db: str | None, config_path: str | None, vector: str | None,
                  session: str, platform: str | None, speaker_ids: tuple[str, ...],
                  exclude_ids: tuple[str, ...], now: int | None,
                  last_messages: int | None, messages_file: str | None, explain: bool,
                  text: str | None) -> None:
    """Print, as JSON, the messages to put before this turn's conversation
    (Memory.context, POST /v1/context): the recall system message, when anything is
    recalled, then the session's last messages. The turn is TEXT ("-" reads standard
    input) or --messages FILE.

    \b
    Example:
      chatmem context --db chat.db --session s1 "when is the deadline?"
      chatmem context --db chat.db --session s1 --last-messages 10 --messages chat.jsonl
    """
    turn: str | list[Any]
    if messages_file is not None:
        if text is not None:
            fail("give TEXT or --messages FILE, not both")
        turn = _turn_of_file(messages_file)
    elif text is None:
        fail("give this turn's TEXT (- reads standard input), or --messages FILE")
    else:
        turn = _stdin_text() if text == "-" else text
    overrides = {} if last_messages is None else {"last_messages": last_messages}
    async with await open_to_read(db, config_path, vector, **overrides) as mem:
        out = await mem.turn_context(turn, session=session, platform=platform,
                                     speakers=speaker_ids, exclude_ids=exclude_ids,
                                     now=now)
    if not explain:
        _echo_json(out.messages)
        return
    _echo_json({"messages": out.messages, "degraded": out.recall.degraded,
                "degraded_reason": out.recall.degraded_reason,
                "recall": out.recall.to_dict()})


def _confirm(question: str, command: str) -> None:
    """Ask ``question`` and go on only on a yes (else "Aborted!", exit code 1). Asked on
    standard error: standard output is the command's answer, often a file or a pipe
    (``--json > out.json``), where the question went unseen and into the JSON. No answer
    at all (standard input at its end: a script, a cron job) is one line naming --yes."""
    try:
        click.confirm(question, abort=True, err=True)
    except click.Abort as exc:
        if isinstance(exc.__context__, EOFError):  # what click.confirm raises it from
            click.echo("", err=True)  # end the question's line
            fail(f"chatmem {command} asks first, and standard input gave no answer: pass "
                 "--yes to go ahead without asking")
        raise


def _progress(label: str, total: int | None = None) -> Any:
    """A progress bar on stderr (I3), quiet when stderr is not a terminal."""
    return click.progressbar(length=total or 0, label=label, file=sys.stderr,
                             show_pos=True, show_eta=False)


@main.command(name="export")
@db_option
@vector_option
@click.option("--vectors", "with_vectors", is_flag=True,
              help="Include vectors (else the importing store re-embeds).")
@click.option("-o", "--output", default="-",
              help="Output file (default: standard output, also /dev/stdout); it is "
                   "replaced only when the export is complete. A symbolic link keeps "
                   "pointing at its file, which is replaced; a read-only file, a "
                   "device, a named pipe or socket, and the store's own files are "
                   "refused, and so is a file that is not a chatmem export unless "
                   "--force.")
@click.option("--force", is_flag=True,
              help="Replace an -o file that is not a chatmem export (an earlier export "
                   "or an empty file is replaced without it).")
@run
async def export_cmd(db: str | None, config_path: str | None, vector: str | None,
                     with_vectors: bool, output: str, force: bool) -> None:
    """Write the whole store (sessions, settings, messages, index state, optionally
    vectors) as JSONL: a backup, or the way to another backend.

    \b
    Example:
      chatmem export --db chat.db --vectors -o backup.jsonl
    """
    from .store import Storage
    from .transfer import export_jsonl

    url = _store_url(db)
    path = None if _is_stdout(output) else _check_output(output, url, force=force)
    existing_index("--vector", vector)
    async with await Storage.open(url, vector=vector, create=False) as storage:
        if path is None:
            counts = await export_jsonl(storage, sys.stdout, vectors=with_vectors)
        else:
            with _replacing(path) as out:
                counts = await export_jsonl(storage, out, vectors=with_vectors)
    click.echo(f"exported {counted(counts.as_dict())}", err=True)


#: Files beside a SQLite store that belong to it (journal, WAL, shared memory, ANN graph,
#: and the lock file that the store's one writer holds).
_STORE_SIDECARS = ("", "-wal", "-shm", "-journal", ".ann", ".lock")

#: ``-o`` names of standard output: written like ``-o -`` (the link is never replaced,
#: and a ``> file`` or ``>> file`` redirection keeps its meaning).
_STDOUT_NAMES = ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def _is_stdout(output: str) -> bool:
    return output == "-" or os.path.abspath(os.path.expanduser(output)) in _STDOUT_NAMES


def _is_process_file(path: Path) -> bool:
    """``/dev/stdin``, ``/dev/stderr``, ``/dev/fd/N``, ``/proc/…/fd/N``: a process's open
    file (a terminal, a pipe, a file another program redirected), never one to replace."""
    parts = Path(os.path.abspath(path)).parts
    return (parts[:3] in (("/", "dev", "stdin"), ("/", "dev", "stderr"))
            or parts[:3] == ("/", "dev", "fd")
            or (parts[:2] == ("/", "proc") and len(parts) > 3 and parts[3] == "fd"))


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _check_output(output: str, store_url: str, *, force: bool = False) -> Path:
    """``-o``'s path, refused (before the store is opened, changing nothing) when it is a
    folder, in a missing folder, one of the store's own files, an existing file that is
    not a regular one (a device such as /dev/null, a named pipe, a socket: export
    replaces its file, which would replace the node), a read-only file, a process's open
    file (``/dev/stderr``, ``/dev/fd/N``), or a symbolic link to nothing; and, unless
    ``force``, a file with something in it that is not a chatmem export (a mistyped
    name must not cost the user a file: only yesterday's backup is replaced silently).
    A symbolic link to a regular file gives that file, so the file is replaced and the
    link kept. An empty name, and a name ending with ``/`` that is not a folder (a
    folder's name: ``new/`` would have written the file ``new``), are refused too."""
    stdout_fix = "or -o - to write to standard output"
    if not output:
        fail(f'-o "": no file name; give one such as backup.jsonl, {stdout_fix}')
    path = Path(output).expanduser()
    if output.endswith(("/", os.sep)) and not path.is_dir():  # Path drops the /
        if path.exists() or path.is_symlink():
            fail(f"-o {output}: ends with /, a folder's name, and "
                 f"{as_given(str(path), 200)} is a file; give the file name without the /")
        fail(f"-o {output}: ends with /, a folder's name, and no folder "
             f"{as_given(str(path), 200)} exists; give a file name such as "
             f"{output}backup.jsonl (create the folder first), or drop the /")
    if _is_process_file(path):
        fail(f"-o {output}: is a process's open file, not a file to replace; use -o - "
             "(standard output) and redirect it")
    if path.is_symlink():
        try:
            os.stat(path)
        except FileNotFoundError:
            fail(f"-o {output}: is a symbolic link to {as_given(os.readlink(path), 200)}, "
                 "which does not exist; give the file's own name or remove the link")
        except OSError as exc:
            fail(f"-o {output}: cannot follow the symbolic link ({exc.strerror})")
        path = Path(os.path.realpath(path))  # the link's file is replaced, the link kept
    if path.is_dir():
        fail(f"-o {output}: is a directory; give a file name such as backup.jsonl")
    try:
        mode: int | None = path.stat().st_mode
    except FileNotFoundError:
        mode = None  # a new file
    except OSError as exc:
        fail(f"-o {output}: cannot use it ({exc.strerror}); give a file name such as "
             "backup.jsonl")
    if mode is not None and not stat.S_ISREG(mode):
        fail(f"-o {output}: is {_file_kind(mode)}, not a regular file, and the export "
             f"replaces its file; give a file name such as backup.jsonl, {stdout_fix}")
    if mode is not None and (not os.access(path, os.W_OK) or not mode & 0o222):
        # a file nobody may write (chmod 444) is refused to root as well
        if hasattr(os, "statvfs") and os.statvfs(path).f_flag & os.ST_RDONLY:
            fail(f"-o {output}: is on a read-only file system; give a file on a writable "
                 "disk")
        fail(f"-o {output}: is read-only; make it writable (chmod u+w {output}) or give "
             "another file name")
    from .store.urls import sqlite_path

    try:
        db = sqlite_path(store_url)
    except ChatmemError:
        db = ":memory:"  # not a SQLite file (PostgreSQL): nothing of it to overwrite
    if db != ":memory:" and any(_same_file(path, Path(db + end).expanduser())
                                for end in _STORE_SIDECARS):
        fail(f"-o {output}: is the store's own file; write the export somewhere else")
    if not path.parent.is_dir():
        fail(f"-o {output}: no folder {as_given(str(path.parent), 200)}; create it first")
    if mode is not None and not force and not _replaceable(path):
        fail(f"-o {output}: is a file that is not a chatmem export, and the export would "
             "replace it; give another file name, or add --force to replace it")
    return path


def _replaceable(path: Path) -> bool:
    """``path`` is empty or begins with a chatmem export's header line (an export, whole
    or cut short); a file that cannot be read is not known to be one."""
    from .transfer import is_export_header

    try:
        with open(path, "rb") as fh:
            head = fh.readline(4096)
    except OSError:
        return False
    if not head:
        return True
    try:
        first = json.loads(head)
    except ValueError:
        return False
    return is_export_header(first)


def _same_file(a: Path, b: Path) -> bool:
    """One file by any name: a symbolic or hard link of it too (replacing a hard link's
    name would take that name from the store)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them missing
        return a.resolve() == b.resolve()


class _ExportFile(io.FileIO):
    """The temporary file of ``-o``, which notes the error its writes fail with (a full
    disk), so that it is told from an error of the store being read."""

    error: OSError | None = None

    def write(self, b: Any, /) -> int:
        try:
            return super().write(b)
        except OSError as exc:
            self.error = exc
            raise


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[TextIO]:
    """A text file that becomes ``path`` (checked by :func:`_check_output`) only when the
    block ends without an error: it is written beside it and renamed over it, so a
    failed export leaves an existing file (yesterday's backup) as it was, and never a
    partial one. A new file is readable by its owner only (it holds the conversations);
    a replaced one keeps its mode. The file cannot be written (a full disk): one line
    naming it and the cause."""
    existed = path.exists()
    mode = stat.S_IMODE(path.stat().st_mode) if existed else 0o600
    _remove_stale_exports(path)
    tmp: str | None = None
    lock = -1
    raw: _ExportFile | None = None
    written = False  # the block ended: what fails now is the file's own
    with _terminated_as_exit():  # before the file exists: a SIGTERM removes it too
        try:
            while True:
                try:
                    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                               suffix=".tmp")
                except OSError as exc:
                    fail(f"-o {path}: cannot write in {as_given(str(path.parent), 200)} "
                         f"({exc.strerror})")
                held = _hold_export(fd, tmp)
                if held is not None:
                    lock = held
                    break
                os.close(fd)  # another export took it for a stale one before it was locked
                tmp = None
            raw = _ExportFile(fd, "w")
            with io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8") as fh:
                yield fh
                written = True
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException as exc:
            if tmp is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
            if isinstance(exc, OSError) and (written or (raw is not None
                                                         and raw.error is not None)):
                kept = "it is left as it was" if existed else "no file was written"
                fix = ("free some space or give a file on another disk"
                       if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
                       else "give another file")
                fail(f"-o {path}: cannot write the export ({exc.strerror or exc}); {kept}; "
                     f"{fix}")
            raise
        finally:
            if lock >= 0:
                os.close(lock)


@contextlib.contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """SIGTERM (kill, timeout, a service manager stopping the command) raises
    ``SystemExit(143)`` while the block runs, as Ctrl-C raises KeyboardInterrupt, so
    that what the block cleans up on an error (an export's temporary file, a part of
    the conversations) is cleaned up; its default would end the process at once. Left
    as it is where another handler is set, or off the main thread."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def terminated(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Stopped(BaseException):
    """A stop (SIGTERM, Ctrl-C) of :func:`_stopped_before_writing`'s block."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stopped_before_writing(said: str) -> Iterator[None]:
    """SIGTERM and Ctrl-C while the block runs (plain code that writes nothing, such as
    an import's check of its file: a stop cancels only a task that waits, and SIGTERM
    ended the process at once, with no word) stop the block at once; ``said`` is
    printed and the command ends as a stop of its writing does: exit 143 on SIGTERM,
    "Aborted!" and exit 1 on Ctrl-C. Each is left as it is where another handler is
    set (SIGTERM; SIGINT ignored, or at its default), or off the main thread."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [signal.SIGTERM] if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL else []
    if callable(signal.getsignal(signal.SIGINT)):  # Python's, or asyncio.run's
        wanted.append(signal.SIGINT)

    def stopped(signum: int, frame: object) -> None:
        raise _Stopped(signum)

    before = {sig: signal.signal(sig, stopped) for sig in wanted}
    try:
        yield
    except _Stopped as stop:
        click.echo(said, err=True)
        if stop.signum == signal.SIGINT:
            raise click.Abort() from None
        raise click.exceptions.Exit(128 + stop.signum) from None
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@contextlib.asynccontextmanager
async def _terminated_as_interrupt() -> AsyncIterator[None]:
    """SIGTERM (kill, timeout, a service manager stopping the command) stops the block
    as Ctrl-C does, by cancelling the command's task (asyncio.run's own handling of
    Ctrl-C): what the block writes is committed or rolled back, what it cleans up on a
    stop is cleaned up and what it says of a stop is said; then the command exits 143.
    Its default would end the process at once. Left as it is where another handler is
    set, or off the main thread."""
    import signal
    import threading

    task = asyncio.current_task()
    if task is None or threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    terminated = False

    def stop() -> None:
        nonlocal terminated
        terminated = True
        task.cancel()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        yield
    except asyncio.CancelledError:
        if not terminated:
            raise
        # an Exception, not SystemExit: asyncio.run hands it back as the task's result
        raise click.exceptions.Exit(128 + signal.SIGTERM) from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def _hold_export(fd: int, tmp: str) -> int | None:
    """Lock the new temporary file ``tmp`` (open as ``fd``) for as long as it is written:
    the lock (``flock``, on a descriptor of its own, held until the file is renamed) is
    what tells it from one a killed export left (:func:`_remove_stale_exports`). None:
    such a removal took the file before it was locked; -1: no lock here (Windows, a file
    system without ``flock``), so no export removes it either."""
    try:
        import fcntl
    except ImportError:
        return -1
    lock = os.dup(fd)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # waits only for a removal looking at it
        own = os.fstat(lock)
        now = os.lstat(tmp)
    except FileNotFoundError:
        os.close(lock)
        return None
    except OSError:
        os.close(lock)
        return -1
    if (now.st_dev, now.st_ino) != (own.st_dev, own.st_ino):
        os.close(lock)
        return None
    return lock


def _remove_stale_exports(path: Path) -> None:
    """Remove the temporary files that exports of ``path`` killed part way (kill -9, a
    power cut) left beside it: each holds a part of the conversations. One being
    written holds its lock (:func:`_hold_export`) and is left alone; so is a file of
    another user, or one that is not a regular file."""
    try:
        import fcntl
    except ImportError:
        return
    names = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}\.tmp")  # mkstemp's
    try:
        entries = os.listdir(path.parent)
    except OSError:
        return
    for name in entries:
        if not names.fullmatch(name):
            continue
        full = os.path.join(path.parent, name)
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            now = os.lstat(full)
            if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                os.unlink(full)
        except OSError:
            continue  # being written (its lock is held), or gone meanwhile
        finally:
            os.close(fd)


@contextlib.contextmanager
def _import_source(file: str) -> Iterator[TextIO]:
    """The file to import, open for two reads; standard input, a pipe or any other
    stream that can be read only once is copied first to an unnamed temporary file."""
    with contextlib.ExitStack() as stack:
        raw = sys.stdin.buffer if file == "-" else stack.enter_context(open(file, "rb"))
        if not raw.seekable():
            spool = stack.enter_context(tempfile.TemporaryFile())
            shutil.copyfileobj(raw, spool)
            spool.seek(0)
            raw = spool
        fh = io.TextIOWrapper(raw, encoding="utf-8")
        try:
            yield fh
        finally:
            fh.detach()  # the file is closed by its owner (never standard input)


def _a_store_given(shown: str, file: str, wanted: str = "an export") -> str:
    """The refusal of a store's file given to import as an export (or to ``add`` or
    ``context`` as their ``--messages``: ``wanted``)."""
    source = "<that file>" if file == "-" else shlex.quote(file)
    return (f"{shown} is a SQLite database (a chatmem store?), not {wanted}: a store is "
            f"copied with chatmem migrate --from {source} --to <another store>, or "
            f"exported first (chatmem export --db {source} -o backup.jsonl)")


def _import_piped(file: str, options: Sequence[str]) -> str:
    """How to import ``file`` (``-``: standard input), gzip-compressed, with the same
    ``options``: decompressed on the way in, each word quoted for the shell, the
    secrets of a URL hidden."""
    from .store.qdrant import mask_url

    again = shlex.join(["chatmem", "import",
                        *(mask_url(o) if "://" in o else o for o in options), "-"])
    source = _gunzip_source(file)
    return f"decompress it on the way in ({source} | {again})"


@contextlib.contextmanager
def _naming_the_file(shown: str, compressed: str = "decompress it first",
                     store: str | None = None) -> Iterator[None]:
    """The refusals of an import's file (its records, or what they would collide with
    in the store) named by the file, as ``chatmem add --messages`` names it:
    ``backup.jsonl: line 3: …``, ``backup.jsonl is truncated: …`` (the library's words
    are "the file"); ``compressed``: the way on from a gzip file, ``store`` the
    refusal of a store's file."""
    from .transfer import GzipCompressed, NotTheLinesChecked, SqliteDatabase

    try:
        yield
    except InvalidInput as exc:
        said = str(exc)
        said = f"{shown} {said.removeprefix('the file ')}" \
            if said.startswith("the file ") else f"{shown}: {said}"
        if isinstance(exc, GzipCompressed):
            said = f"{shown} is gzip-compressed: {compressed}"
        if isinstance(exc, SqliteDatabase) and store is not None:
            said = store
        if isinstance(exc, NotTheLinesChecked):  # the library's words name its arguments
            where = "ends sooner" if exc.line is None else f"line {exc.line} differs"
            said = (f"{shown} changed since it was checked ({where}; is another program "
                    "writing it?); nothing was written: import it again once it is "
                    "finished")
        # a ChatmemError, not an InvalidInput: the file's name is not an option's
        # (named_as_typed would take a file called "resume" for --resume)
        raise ChatmemError(said) from None


@main.command(name="import")
@db_option
@vector_option
@click.option("--no-wait", is_flag=True, help="Do not wait for re-embedding before exiting.")
@click.option("--no-vectors", is_flag=True,
              help="Leave the file's vectors out; this store embeds the messages itself "
                   "(a file made with another model or vector size).")
@click.option("--resume", is_flag=True,
              help="Finish an import of this file that stopped part way (killed, a full "
                   "disk): the messages already stored are kept when each is the file's "
                   "own, the rest are written (a message there that differs from the "
                   "file's is refused by name, before anything is written).")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@run
async def import_cmd(db: str | None, config_path: str | None, vector: str | None,
                     no_wait: bool, no_vectors: bool, resume: bool, file: str) -> None:
    """Load a JSONL export into a store. The whole file is checked first: a bad or
    truncated file changes nothing. Then it is read again and written a page at a time
    (standard input is first copied to an unnamed temporary file), so the memory used
    does not grow with the file. Messages without vectors are re-embedded; vectors of
    a size this store's vectors of that model do not have are refused. An import
    that stopped part way keeps what it wrote; --resume finishes it.

    \b
    Example:
      chatmem import --db new.db backup.jsonl
      chatmem import --db chat.db --no-vectors other-model.jsonl
      chatmem import --db new.db --resume backup.jsonl
    """
    from .transfer import FileLines, validate_jsonl

    url = _new_store_url(db)
    shown = "standard input" if file == "-" else file
    given = {"--db": db, "--config": config_path, "--vector": vector}
    options = [w for name, value in given.items() if value for w in (name, value)]
    options += [name for name, on in (("--no-wait", no_wait), ("--no-vectors", no_vectors),
                                      ("--resume", resume)) if on]
    written: dict[str, int] = {}

    def progress(kind: str, n: int) -> None:
        written[f"{kind}s"] = written.get(f"{kind}s", 0) + n

    with contextlib.ExitStack() as stack:
        # the copy of standard input and the check write nothing, in plain code that
        # no stop cancels: a stop there ends them at once, saying so
        with _stopped_before_writing("import stopped before anything was written (while "
                                     f"{shown} was being checked): nothing was imported"):
            fh = stack.enter_context(_import_source(file))
            lines = FileLines(fh)
            with _naming_the_file(shown, _import_piped(file, options),
                                  _a_store_given(shown, file)):
                checked = validate_jsonl(lines)
        cfg = load_config(config_path)
        made = _made_by_opening(url, vector)
        started: list[bool] = []  # the checks passed and the first write is under way
        # one bulk load, re-embedding included: a deferred HNSW index is built once at
        # the end
        try:
            async with _terminated_as_interrupt(), \
                    await open_memory(url, vector=vector, config=cfg) as mem, \
                    mem.storage.bulk_load(checked.counts.messages if not no_wait else 0):
                counts = await _import_into(mem, checked, lines, shown, progress, written,
                                   vectors=not no_vectors, resume=resume,
                                   writing=lambda: started.append(True), wait=not no_wait)
        except BaseException as exc:
            if not started:
                # nothing was written (refused by what the store holds, the file changed
                # since its check, stopped while the store opened or the file was read
                # again): what this command created is not left behind, as migrate
                # leaves none
                _remove_made(made)
                if isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt,
                                    click.exceptions.Exit)):  # Ctrl-C, SIGTERM
                    click.echo("import stopped before anything was written: nothing was "
                               "imported", err=True)
            raise
    click.echo(f"imported {counted(counts.as_dict())}", err=True)


async def _import_into(mem: Memory, checked: CheckedExport, lines: FileLines, shown: str,
                       progress: Callable[[str, int], None], written: dict[str, int], *,
                       vectors: bool, resume: bool, writing: Callable[[], None],
                       wait: bool) -> TransferCounts:
    """``chatmem import``'s copy of the checked file ``lines`` into ``mem`` (``written``:
    what ``progress`` counted): an error once pages are written says what the store
    keeps and names ``--resume``, as a stopped migrate does."""
    from .transfer import import_records

    def counted_and_shown(kind: str, n: int) -> None:
        progress(kind, n)
        bar.update(n)

    try:
        with _progress("importing", len(checked)) as bar, _naming_the_file(shown):
            counts = await import_records(mem.storage, checked, lines, vectors=vectors,
                                          resume=resume, writing=writing,
                                          progress=counted_and_shown)
    except BaseException as exc:
        if not written:
            raise
        # stopped part way: the store keeps the pages written, as README says; the error
        # says so and how to go on, as migrate's does
        stopped = isinstance(exc, asyncio.CancelledError)  # Ctrl-C, SIGTERM
        # "at least": a page being committed as it stopped is kept, not counted
        kept = (f"the store keeps what was written before the stop "
                f"({'at least ' if stopped else ''}{counted(written)}): run the same "
                "chatmem import with --resume to finish it")
        if stopped:
            click.echo(f"import stopped part way: {kept}", err=True)
            raise
        if not isinstance(exc, Exception) or (
                os.environ.get("CHATMEM_DEBUG") and not isinstance(exc, ChatmemError)):
            raise
        fail(f"{_error_text(exc)}; {kept}")
    if wait:
        await _flush_saying(mem, f"imported {counted(counts.as_dict())}")
    return counts


@main.command()
@click.option("--from", "src", required=True, help="Source store URL.")
@click.option("--from-vector", default=None, callback=vector_folder,
              help="Source vector index URL, if separate.")
@click.option("--to", "dst", required=True, help="Destination store URL.")
@click.option("--to-vector", default=None, callback=vector_folder,
              help="Destination vector index URL, if separate.")
@click.option("--no-vectors", is_flag=True, help="Copy messages only; the destination "
                                                 "re-embeds them when opened by chatmem.")
@click.option("--resume", is_flag=True,
              help="Finish a migration from this source that stopped part way (killed, a "
                   "full disk, a lost connection): the messages already in the destination "
                   "are kept when each is the source's own, the rest are written.")
@run
async def migrate(src: str, from_vector: str | None, dst: str, to_vector: str | None,
                  no_vectors: bool, resume: bool) -> None:
    """Move a whole store between backends: every message, id, setting and vector.
    A destination that holds any of the source's ids is refused, unless --resume: a
    migration that stopped part way keeps what it wrote, and --resume finishes it
    (a message there that differs from the source's is refused by name, before
    anything is written).

    \b
    Example:
      chatmem migrate --from sqlite:///chat.db --to postgresql://me@localhost/chat
      chatmem migrate --from sqlite:///chat.db --to sqlite:///m.db \\
        --to-vector "qdrant+local://$PWD/vectors"
      chatmem migrate --from sqlite:///chat.db --to postgresql://me@localhost/chat --resume
    """
    from .store import Storage
    from .store.urls import sqlite_path
    from .transfer import migrate as do_migrate

    def place(url: str) -> str | Path:
        try:
            path = sqlite_path(url)
        except ChatmemError:
            return url  # not SQLite: the URL itself
        return Path(path).expanduser() if path != ":memory:" else f":memory:{id(url)}"

    src, dst = _store_url(src, "--from"), _new_store_url(dst, "--to")
    here, there = place(src), place(dst)
    if here == there or (isinstance(here, Path) and isinstance(there, Path)
                         and _same_file(here, there)):  # a link of it too (cp -l, ln -s)
        fail("--from and --to name the same store: give the destination another file or "
             "URL")
    existing_index("--from-vector", from_vector)
    made = _made_by_opening(dst, to_vector)
    copied: dict[str, int] = {}  # what was written, once the checks passed

    def writing() -> None:
        copied.update(sessions=0, messages=0, vectors=0)

    def progress(kind: str, n: int) -> None:
        copied[f"{kind}s"] = copied.get(f"{kind}s", 0) + n
        if kind == "message":
            bar.update(n)

    try:
        async with _terminated_as_interrupt(), \
                await Storage.open(src, vector=from_vector, create=False) as source, \
                await Storage.open(dst, vector=to_vector) as target:
            total = (await source.store.stats()).messages
            with _progress("migrating messages", total) as bar:
                counts = await do_migrate(source, target, vectors=not no_vectors,
                                          resume=resume, progress=progress, writing=writing)
    except BaseException as exc:
        if not copied:
            # nothing was copied: what this command created (a new store file, its lock
            # file, folders, a local vector folder) is not left behind for the user
            _remove_made(made)
            raise
        # stopped part way: the destination keeps the pages written, as README says; the
        # error says so and how to go on, or a half copy would pass for a whole one
        new = [path for path, kind in made if kind == "store"]
        fresh = f", or delete {new[0]} and {new[0]}.lock and migrate again" if new else ""
        stopped = isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt,
                                   click.exceptions.Exit))  # Ctrl-C, SIGTERM
        # a stop may land while a page is being committed: it is kept, not yet counted
        kept = (f"the destination keeps what was copied before the stop "
                f"({'at least ' if stopped else ''}{counted(copied)}): run the same "
                f"chatmem migrate with --resume to finish the copy{fresh}")
        if stopped:
            click.echo(f"migration stopped part way: {kept}", err=True)
            raise
        if not isinstance(exc, Exception) or (os.environ.get("CHATMEM_DEBUG")
                                             and not isinstance(exc, ChatmemError)):
            raise
        fail(f"{_error_text(exc)}; {kept}")
    click.echo(f"migrated {counted(counts.as_dict())}", err=True)


def _made_by_opening(url: str, vector: str | None) -> list[tuple[str, str]]:
    """What opening ``url`` (and the vector index ``vector``) as a new store may create
    and what does not exist now, as (path, kind) in the order made: folders, the SQLite
    store file and those beside it (kind ``store``, then ``file``), a Qdrant local-mode
    folder (``qdrant``) beside a new store. Anything there already is the user's and
    never listed."""
    from .store.base import missing_folders
    from .store.qdrant import parse_url
    from .store.urls import sqlite_path

    made: list[tuple[str, str]] = []

    def folders_of(path: str) -> None:
        made.extend((folder, "folder") for folder in missing_folders(path))

    try:
        db = sqlite_path(url)
    except ChatmemError:
        db = ":memory:"  # PostgreSQL: no file of ours
    if db != ":memory:":
        db = os.path.abspath(db)
        folders_of(os.path.dirname(db))
        made.extend((db + end, "store" if not end else "file") for end in _STORE_SIDECARS
                    if not os.path.lexists(db + end))
    # beside a store that was there, Storage itself removes a local folder its open made
    # when the failed command leaves the store without the record (Storage.unrecord)
    if any(kind == "store" for _, kind in made) and vector is not None \
            and vector.startswith("qdrant+local://"):
        try:
            folder = parse_url(vector).client_kwargs.get("path")
        except ChatmemError:
            folder = None  # refused before anything is made
        if folder:
            before = len(made)
            folders_of(os.path.abspath(folder))
            if len(made) > before:
                made[-1] = (made[-1][0], "qdrant")
    return made


def _remove_made(made: list[tuple[str, str]]) -> None:
    """Remove what :func:`_made_by_opening` listed and a failed command made, the last
    made first: a folder only when empty, a Qdrant local-mode folder only when it holds
    nothing but local mode's own files, and the store's files only when no other process
    has the store open (one that made the same new store meanwhile)."""
    from .store.qdrant import LOCAL_ENTRIES

    stores = [path for path, kind in made if kind == "store"]
    if stores and _in_use(stores[0]):
        made = [(path, kind) for path, kind in made if kind == "folder"]
    for path, kind in reversed(made):
        with contextlib.suppress(OSError):
            if kind == "qdrant":
                if os.path.isdir(path) and not os.path.islink(path) \
                        and set(os.listdir(path)) <= LOCAL_ENTRIES:
                    shutil.rmtree(path)
            elif kind == "folder":
                os.rmdir(path)  # only when empty
            elif os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)


def _in_use(path: str) -> bool:
    """Whether another process holds the SQLite store at ``path`` open (its ``flock``)."""
    try:
        import fcntl
    except ImportError:  # Windows: the store's lock file alone, which was ours
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


@main.command()
@db_option
@vector_option
@click.option("--session", default=None, help="Only this session (default: everything).",
              callback=selector)
@click.option("--target", type=OneOf(["vector", "context", "all"]), default="all",
              show_default=True, help="What to clear: the vector index, the messages, or both.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@run
async def clear(db: str | None, config_path: str | None, vector: str | None,
                session: str | None, target: str, yes: bool) -> None:
    """Clear the vector index, the messages, or both; globally or for one session.

    \b
    Example:
      chatmem clear --db chat.db --target vector --yes
    """
    if not yes:
        what = f"session {session}" if session else "EVERY session"
        _confirm(f"Clear {target} of {what}?", "clear")
    async with await open_existing(db, config_path, vector) as mem:
        out = await mem.clear(target, session=session)
    click.echo(f"cleared {counted(out)}")


@main.command(name="list")
@db_option
@vector_option
@click.option("--session", default=None, help="Only this session.", callback=selector)
@click.option("--speaker-id", default=None, help="Only what this speaker said.",
              callback=selector)
@click.option("--since", type=Number(int), default=None,
              help="From this time (ms since the epoch).")
@click.option("--until", type=Number(int), default=None,
              help="Before this time (ms since the epoch, exclusive).")
@click.option("--limit", type=Number(int), default=100, show_default=True,
              help="Messages per page (1–1000).")
@click.option("--cursor", default=None, help="The next page: the cursor the last page printed.")
@click.option("--newest-first", is_flag=True,
              help="The latest messages first (give it again with --cursor).")
@click.option("--text", default=None,
              help="Only messages containing this text (ignoring case).", callback=selector)
@click.option("--visible-from", default=None,
              help="Only what a recall from this session may show (its effective scope).",
              callback=selector)
@click.option("--platform", default=None, help="The --visible-from session's platform.",
              callback=selector)
@click.option("--json", "as_json", is_flag=True,
              help="Print the page as JSON: {messages, next_cursor}.")
@run
async def list_messages(db: str | None, config_path: str | None, vector: str | None,
                        session: str | None,
                        speaker_id: str | None, since: int | None, until: int | None,
                        limit: int, cursor: str | None, newest_first: bool,
                        text: str | None, visible_from: str | None, platform: str | None,
                        as_json: bool) -> None:
    """List stored messages in time order (then id), one page at a time; the cursor of
    the next page is printed last (on standard error without --json).

    \b
    Example:
      chatmem list --db chat.db --speaker-id alice --limit 20
      chatmem list --db chat.db --session s1 --cursor NEXT_CURSOR --json
      chatmem list --db chat.db --session s1 --newest-first --limit 10
      chatmem list --db chat.db --text visa --visible-from alice-dm
    """
    if platform is not None and visible_from is None:
        fail("--platform is the --visible-from session's platform: give --visible-from too")
    async with await open_to_read(db, config_path, vector) as mem:
        page = await mem.list(session=session, speaker_id=speaker_id, since=since,
                              until=until, limit=limit, cursor=cursor,
                              newest_first=newest_first, text=text,
                              visible_from=visible_from, platform=platform)
    if as_json:
        _echo_json(page.to_dict())
        return
    for m in page.messages:
        who = m.speaker_name or m.speaker_id or m.role
        click.echo(printable(f"{m.ts}  {m.session_id}  {m.id}  {who}: {m.shown_text}"))
    if page.next_cursor:
        again = " --newest-first" if newest_first else ""
        click.echo(f"next page:{again} --cursor {page.next_cursor}", err=True)


@main.command()
@db_option
@vector_option
@click.option("--speaker-id", default=None, help="Forget everything this speaker said.",
              callback=selector)
@click.option("--session", default=None, help="Forget every message of this session.",
              callback=selector)
@click.option("--resource-id", default=None,
              help="Forget every message of the sessions of this resource (user / tenant).",
              callback=selector)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--dry-run", is_flag=True,
              help="Erase nothing: print how many messages (and of them indexed, as "
                   "vectors) would go.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@run
async def forget(db: str | None, config_path: str | None, vector: str | None,
                 speaker_id: str | None, session: str | None, resource_id: str | None,
                 yes: bool, dry_run: bool, as_json: bool) -> None:
    """Erase for good every message of one speaker, session or resource (exactly one of
    them) with its vectors, full-text rows, ANN entries, Qdrant points and cached
    embeddings; print how many of each went. Without --yes it says how many messages
    would go and asks first.

    \b
    Example:
      chatmem forget --db chat.db --speaker-id alice --dry-run
      chatmem forget --db chat.db --speaker-id alice --yes
      chatmem forget --db chat.db --vector qdrant://localhost:6333 --session s1 --yes
    """
    given = [f"{name} {value}" for name, value in (("speaker", speaker_id),
                                                   ("session", session),
                                                   ("resource", resource_id))
             if value is not None]
    if len(given) != 1:
        fail("forget needs exactly one of --speaker-id, --session or --resource-id")
    async with await open_existing(db, config_path, vector) as mem:
        out = None
        if dry_run or not yes:  # what would go: the answer, or what the question says
            out = await mem.forget(speaker_id=speaker_id, session=session,
                                   resource_id=resource_id, dry_run=True)
            if not dry_run and out.messages:
                _confirm(f"Erase {out.messages} message(s) ({out.vectors} indexed) of "
                         f"{given[0]}? This cannot be undone", "forget")
                out = None
        if out is None:
            out = await mem.forget(speaker_id=speaker_id, session=session,
                                   resource_id=resource_id)
    if dry_run and not as_json:
        click.echo(f"would forget {out.messages} message(s), {out.vectors} of them indexed "
                   "(nothing erased)")
        return
    if as_json:
        _echo_json(out.to_dict())
    else:
        click.echo("forgot " + ", ".join(f"{n} {k}" for k, n in out.to_dict().items()))


@main.command()
@db_option
@vector_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.argument("ids", nargs=-1, required=True)
@run
async def delete(db: str | None, config_path: str | None, vector: str | None, yes: bool,
                 ids: tuple[str, ...]) -> None:
    """Erase these messages (by their whole ids, as chatmem list prints them)
    everywhere, as forget does; an id that matches no message is named.

    \b
    Example:
      chatmem delete --db chat.db --yes 3f2c9a1e 77b0d4aa
    """
    async with await open_existing(db, config_path, vector) as mem:
        if not yes:
            # the question counts what the erase would take (a dry run), as forget's
            # does, not the ids typed: "Erase 1 message(s)?" for a typo erased nothing
            would = await mem.erase(ids, dry_run=True)
            if would.messages:
                _confirm(f"Erase {would.messages} message(s) ({would.vectors} indexed)?",
                         "delete")
        erased = await mem.erase(ids)
    # an id that matches nothing (a typo, a part of one) is said, not only counted
    missing = erased.not_found
    said = ", ".join(describe(i) for i in missing[:5]) + \
        (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
    click.echo(f"deleted {erased.messages} message(s)" + (
        f"; no message has the id {said} (an id is whole: chatmem list shows them)"
        if missing else ""))


@main.command()
@db_option
@vector_option
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@run
async def reindex(db: str | None, config_path: str | None, vector: str | None,
                  as_json: bool) -> None:
    """Embed, with the configured model, every message worth remembering that has no
    vector of that model: vectors another model made (run it after changing
    embedding.model: until then recall ignores them), messages whose indexing failed,
    and messages whose vectors `chatmem clear --target vector` removed (cleared
    vectors are rebuilt only here). Also brings the session fields stored with each
    vector (origin platform, resource id, metadata) up to date, without re-embedding.

    \b
    Example:
      chatmem reindex --db chat.db --config chatmem.toml
    """
    async with await open_existing(db, config_path, vector) as mem:
        bar = _progress("re-embedding")
        with bar:
            def step(done: int, total: int) -> None:
                bar.length = total
                bar.update(done - bar.pos)

            out = await mem.reindex(progress=step)
    if as_json:
        _echo_json(out)
    else:
        click.echo(f"re-embedded {out['reembedded']} message(s) with {out['model']} "
                   f"({out['stale']} stale, {out['cleared']} cleared, {out['failed']} failed "
                   f"before, {out['missing']} missing, {out['pending']} pending); "
                   f"session snapshots refreshed in {out['sessions_refreshed']} session(s)")


@main.command()
@db_option
@vector_option
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@run
async def stats(db: str | None, config_path: str | None, vector: str | None,
                as_json: bool) -> None:
    """Counts of messages, indexed, pending, failed (waiting for a retry of their
    embedding, and when the soonest is due), skipped (never embedded: tool, system,
    notice, source, control) and cleared (vectors cleared, waiting for
    `chatmem reindex`), and vectors per model.

    \b
    Example:
      chatmem stats --db chat.db --json
    """
    async with await open_to_read(db, config_path, vector) as mem:
        data = await mem.stats()
        # next_retry_at is on the store's clock (PostgreSQL's server), not this machine's
        store_now = await mem.store.clock_ms() if data["next_retry_at"] is not None else 0
    if as_json:
        _echo_json(data)
    else:
        for key in ("messages", "sessions", "indexed", "pending", "failed", "skipped",
                    "cleared"):
            click.echo(f"{key:>10}: {data[key]}")
        if data["next_retry_at"] is not None:
            due_s = (data["next_retry_at"] - store_now) / 1000
            click.echo(f"{'next retry':>10}: {f'in {due_s:.0f} s' if due_s > 0 else 'due'}")
        for model, n in data["vectors_by_model"].items():
            click.echo(printable(f"   vectors: {n} ({model or 'no model id'})"))
        embedder = data.get("embedder") or {}
        if "auto" in embedder:
            chosen, tentative = embedder["auto"]["chosen"], embedder["auto"].get("tentative")
            click.echo(f"{'model':>10}: auto: " + (
                f"{chosen}, chosen for this store" if chosen else
                f"{tentative} for now (the first messages say too little to choose)"
                if tentative else
                "not chosen yet (at the first messages embedded; queries use "
                f"{ENGLISH_MODEL} until then)"))
        elif embedder:
            click.echo(printable(f"{'model':>10}: {embedder['model_id']}"))


@main.command()
@db_option
@vector_option
@click.option("--limit", type=Number(int), default=100, show_default=True,
              help="Sessions on the page (1 to 1000).")
@click.option("--after", default=None,
              help="The next page: the session id the last page printed.",
              callback=selector)
@click.option("--json", "as_json", is_flag=True, help="Print the page as JSON.")
@run
async def sessions(db: str | None, config_path: str | None, vector: str | None, limit: int,
                   after: str | None, as_json: bool) -> None:
    """List sessions in id order, a page at a time: messages, the last activity, and the
    scope and retention each has now with the settings layer each comes from; a session
    whose row was removed outside chatmem (its messages kept) is marked "no session
    row", with the repair on standard error; the id to pass as --after for the next
    page is printed last (on standard error without --json).

    \b
    Example:
      chatmem sessions --db chat.db --limit 20
      chatmem sessions --db chat.db --after alice-dm --json
    """
    async with await open_to_read(db, config_path, vector) as mem:
        page = await mem.sessions(limit=limit, after=after)
    if as_json:
        _echo_json(page.to_dict())
        return
    for s in page.sessions:
        last = "never" if s.last_ts is None else str(s.last_ts)
        kept = _days_kept(s.retention_days)
        click.echo(printable(
            f"{s.session.id}  {s.messages} message(s)  last {last}  scope {s.scope} "
            f"({s.scope_layer})  retention {kept} ({s.retention_layer})"
            + ("" if s.registered else "  no session row")))
    bare = sum(not s.registered for s in page.sessions)
    if bare:
        where = "" if db is None else f" --db {shlex.quote(db)}"
        click.echo(printable(
            f"{bare} session(s) marked 'no session row' hold messages but have no session "
            "row (removed outside chatmem, e.g. DELETE FROM sessions): their platform, "
            "chat type and group went with it. Register each again (chatmem session set"
            f"{where} --origin-platform P [--chat-type T] [--group-id G] ID), or erase its "
            f"messages (chatmem forget{where} --session ID)"), err=True)
    if page.next_after:
        click.echo(printable(f"next page: --after {page.next_after}"), err=True)


@main.command()
@db_option
@vector_option
@click.option("--session", required=True, help="The message's session.", callback=selector)
@click.option("--ts", type=Number(int), required=True,
              help="The message's time (ms since the epoch).")
@click.option("--content", default=None, help="The new text (what is embedded).")
@click.option("--visible-content", default=None, help="The new text shown in recalls.")
@click.option("--metadata", default=None, help="The new metadata: a JSON object.")
@click.option("--json", "as_json", is_flag=True, help="Print the message as JSON.")
@run
async def rewrite(db: str | None, config_path: str | None, vector: str | None, session: str,
                  ts: int, content: str | None, visible_content: str | None,
                  metadata: str | None, as_json: bool) -> None:
    """Change a stored message, found by its session and time (F3): its text is
    embedded again (the old vector kept until the new one is made), the fields not
    given are kept.

    \b
    Example:
      chatmem rewrite --db chat.db --session s1 --ts 1764547200000 \\
        --content "[image: a cat asleep on a red sofa]"
    """
    if content is None and visible_content is None and metadata is None:
        fail("rewrite needs --content, --visible-content or --metadata")
    meta = None if metadata is None else _metadata_of(metadata)
    async with await open_existing(db, config_path, vector) as mem:
        try:
            msg = await mem.rewrite(session, ts, content=content,
                                    visible_content=visible_content, metadata=meta)
        except NotFound as exc:  # a time is exact to the millisecond: say where to read it
            where = "" if db is None else f" --db {shlex.quote(db)}"
            fail(f"{exc} (chatmem list{where} --session {shlex.quote(session)} shows each "
                 "of its messages' ts, first on its line)")
        await _flush_saying(mem, f"rewrote {msg.id}")
    if as_json:
        _echo_json(msg.to_dict())
    else:
        click.echo(printable(f"rewrote {msg.id}: {msg.shown_text}"))


#: The fields ``chatmem session set`` may ``--unset``: those it may give, and its
#: settings (kept otherwise; clearing them repairs a column chatmem cannot read).
_SESSION_FIELDS = ("parent_id", "resource_id", "origin_platform", "chat_type", "group_id",
                   "group_name", "metadata", "settings")


@main.group()
def session() -> None:
    """Show or register a session: its parent, resource (user), origin platform, chat
    type and group decide who sees what (README § Scopes).

    \b
    Example:
      chatmem session show --db chat.db alice-dm
      chatmem session set --db chat.db --origin-platform telegram --resource-id alice alice-dm
    """


@session.command(name="show")
@library_names(session_id="session")
@db_option
@vector_option
@click.argument("session_id")
@run
async def session_show(db: str | None, config_path: str | None, vector: str | None,
                       session_id: str) -> None:
    """Print a registered session as JSON (its settings included); exit 2 when the
    session was never registered.

    \b
    Example:
      chatmem session show --db chat.db alice-dm
    """
    async with await open_to_read(db, config_path, vector) as mem:
        found = await mem.get_session(session_id)
    if found is None:
        fail(f"session {describe(session_id)} is not registered (chatmem session set "
             "registers it)")
    _echo_json(found.to_dict())


@session.command(name="set")
@library_names(session_id="session")
@db_option
@vector_option
@click.option("--parent-id", default=None, help="The parent session (a thread's chat).")
@click.option("--resource-id", default=None, help="The user (resource) it belongs to.")
@click.option("--origin-platform", default=None, help="The platform it began on.")
@click.option("--chat-type", default=None, help="private, group, channel, …")
@click.option("--group-id", default=None, help="The group it is a chat of.")
@click.option("--group-name", default=None, help="The group's display name.")
@click.option("--metadata", default=None, help="A JSON object.")
@click.option("--unset", "unset", multiple=True, type=OneOf(_SESSION_FIELDS),
              help="Clear this field (repeat for more; metadata and settings become {}).")
@click.option("--json", "as_json", is_flag=True, help="Print the stored session as JSON.")
@click.argument("session_id")
@run
async def session_set(db: str | None, config_path: str | None, vector: str | None,
                      session_id: str, unset: tuple[str, ...], as_json: bool,
                      **given: str | None) -> None:
    """Register a session, or change the fields given (the others, and its settings,
    are kept; --unset clears one). A parent chain is checked as upsert_session checks
    it (no cycle, at most 32 sessions to the root). A metadata or settings column
    chatmem cannot read (changed by hand) is replaced by --metadata or --unset; it
    cannot be kept, so without them the command refuses, naming it.

    \b
    Example:
      chatmem session set --db chat.db --origin-platform slack --chat-type group \\
        --group-id T1 --group-name "Team one" team-one
      chatmem session set --db chat.db --parent-id team-one team-one-thread-7
      chatmem session set --db chat.db --unset parent_id team-one-thread-7
    """
    fields = {k: v for k, v in given.items() if v is not None}
    both = sorted(set(fields) & set(unset))
    if both:
        fail(f"--{both[0].replace('_', '-')} is given and unset: keep one of the two")
    if "metadata" in fields:
        fields["metadata"] = _metadata_of(str(fields["metadata"]))
    cleared: dict[str, Any] = {k: {} if k in ("metadata", "settings") else None
                               for k in unset}
    async with await open_existing(db, config_path, vector) as mem:
        check_label(session_id, "session")
        # a JSON column it cannot read (a hand edit) is read as {}: replaced when given
        # or unset, else the error (kept, it would be lost)
        damaged: list[DamagedRow] = []
        old = (await mem.store.get_sessions([session_id], damaged=damaged)).get(session_id)
        for row in damaged:
            if row.column not in {**fields, **cleared}:
                raise row
        # an older chatmem's "" for none, still in its store, is kept as none
        kept = blank_labels_as_none(old.to_dict(), SESSION_TEXT_FIELDS) \
            if old is not None else {"id": session_id}
        if old is not None and not fields and not cleared:
            # nothing given: nothing to write, and "changed" would say otherwise
            stored, said = old, "is registered already; nothing given to change (give " \
                "a field such as --resource-id, or --unset FIELD)"
        else:
            stored = await mem.upsert_session({**kept, **fields, **cleared})
            said = "changed" if old else "registered"
    if as_json:
        _echo_json(stored.to_dict())
    else:
        click.echo(printable(f"session {stored.id} {said}"))


def _cli_owner() -> dict[str, str]:
    """The actor the command line changes settings as: an owner, as whoever can open
    the store (its file, its database URL) can erase it all anyway; the name logged
    with the change is the login's."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError):  # no login name (a container's unnamed user id)
        name = str(os.getuid()) if hasattr(os, "getuid") else "unknown"
    return {"id": f"cli:{name}", "role": "owner"}


def _layer_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a scope or retention change: the store's, then the settings layer
    it applies to and its parts."""
    for option in reversed((
            db_option, vector_option,
            click.option("--layer", type=OneOf(["platform", "chat_type", "group",
                                                       "session"]),
                         default="session", show_default=True,
                         help="The settings layer: every chat of a platform, a chat type "
                              "of a platform, one group of a platform, or one session."),
            click.option("--platform", default=None,
                         help="The platform (layers platform, chat_type and group)."),
            click.option("--chat-type", default=None, help="The chat type (layer chat_type)."),
            click.option("--group-id", default=None, help="The group id (layer group)."),
            click.option("--session", default=None, help="The session (layer session)."))):
        f = option(f)
    return f


@main.group()
def scope() -> None:
    """Show or change which past conversations a session's recalls may see (F10).

    \b
    Example:
      chatmem scope show --db chat.db --session alice-dm
      chatmem scope set --db chat.db --layer platform --platform telegram session
      chatmem scope unset --db chat.db --layer platform --platform telegram
    """


@scope.command(name="show")
@db_option
@vector_option
@click.option("--session", required=True, help="The session whose recalls it is.",
              callback=selector)
@click.option("--platform", default=None, help="The platform the turn comes from.",
              callback=selector)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@run
async def scope_show(db: str | None, config_path: str | None, vector: str | None,
                     session: str, platform: str | None, as_json: bool) -> None:
    """The scope a session's recalls use now, and the settings layer it comes from.

    \b
    Example:
      chatmem scope show --db chat.db --session alice-dm --platform telegram
    """
    async with await open_to_read(db, config_path, vector) as mem:
        eff = await mem.effective_scope(session, platform)
    _echo_effective(as_json, {"scope": eff.scope, "layer": eff.layer, "broken": eff.broken},
                    f"scope {eff.scope}", "Scopes")


@scope.command(name="set")
@library_names(value="scope")
@_layer_options
@click.argument("value")
@run
async def scope_set(db: str | None, config_path: str | None, vector: str | None,
                    value: str, **layer: str | None) -> None:
    """Set one settings layer's scope (VALUE: all, user, platform, resource, session,
    or thread for session; the most specific layer set wins, else the configuration's
    scope).

    \b
    Example:
      chatmem scope set --db chat.db --layer group --platform slack --group-id T1 session
      chatmem scope set --db chat.db --session alice-dm session
    """
    await _set_layer(db, config_path, vector, "scope", value, **layer)


@scope.command(name="unset")
@_layer_options
@run
async def scope_unset(db: str | None, config_path: str | None, vector: str | None,
                      **layer: str | None) -> None:
    """Remove one settings layer's scope: the next layer (or the configuration) decides.

    \b
    Example:
      chatmem scope unset --db chat.db --session alice-dm
    """
    await _set_layer(db, config_path, vector, "scope", None, **layer)


@main.group()
def retention() -> None:
    """Show or change how long messages are kept, per settings layer, and sweep now.

    \b
    Example:
      chatmem retention show --db chat.db --session alice-dm
      chatmem retention set --db chat.db --layer platform --platform telegram 30
      chatmem retention sweep --db chat.db --yes
    """


@retention.command(name="show")
@db_option
@vector_option
@click.option("--session", required=True, help="The session.", callback=selector)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@run
async def retention_show(db: str | None, config_path: str | None, vector: str | None,
                         session: str, as_json: bool) -> None:
    """How long a session's messages are kept now (0 days: forever), and the settings
    layer that decides it (the one the sweep applies).

    \b
    Example:
      chatmem retention show --db chat.db --session alice-dm --json
    """
    async with await open_to_read(db, config_path, vector) as mem:
        eff = await mem.effective_retention(session)
    _echo_effective(as_json, {"days": eff.days, "layer": eff.layer, "broken": eff.broken},
                    f"kept {_days_kept(eff.days)}", "Retention")


@retention.command(name="set")
@_layer_options
@click.argument("days", type=Number(int))
@run
async def retention_set(db: str | None, config_path: str | None, vector: str | None,
                        days: int, **layer: str | None) -> None:
    """Set one settings layer's retention in DAYS (0: keep forever); the most specific
    layer set wins, else the configuration's retention.days. Messages older than that
    are erased by the next sweep (background, or `chatmem retention sweep`).

    \b
    Example:
      chatmem retention set --db chat.db --layer platform --platform telegram 30
      chatmem retention set --db chat.db --session alice-dm 0
    """
    await _set_layer(db, config_path, vector, "retention", days, **layer)


@retention.command(name="unset")
@_layer_options
@run
async def retention_unset(db: str | None, config_path: str | None, vector: str | None,
                          **layer: str | None) -> None:
    """Remove one settings layer's retention: the next layer (or the configuration)
    decides.

    \b
    Example:
      chatmem retention unset --db chat.db --layer platform --platform telegram
    """
    await _set_layer(db, config_path, vector, "retention", None, **layer)


@retention.command(name="sweep")
@db_option
@vector_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@run
async def retention_sweep(db: str | None, config_path: str | None, vector: str | None,
                          yes: bool, as_json: bool) -> None:
    """Erase now every message older than its session's retention, everywhere, as
    forget does (what the background sweep does every retention.sweep_interval_s).

    \b
    Example:
      chatmem retention sweep --db chat.db --yes
    """
    if not yes:
        _confirm("Erase every message older than its session's retention? This cannot "
                 "be undone", "retention sweep")
    async with await open_existing(db, config_path, vector) as mem:
        out = await mem.sweep_retention()
    if as_json:
        _echo_json(out.to_dict())
    else:
        click.echo("swept " + ", ".join(f"{n} {k}" for k, n in out.to_dict().items()))


def _echo_effective(as_json: bool, out: dict[str, Any], said: str, section: str) -> None:
    """A scope or retention in effect: ``out`` as JSON, or ``said`` with the layer it
    comes from."""
    if as_json:
        _echo_json(out)
        return
    broken = f" — a parent chain is broken: see README § {section}" if out["broken"] else ""
    click.echo(f"{said} (from {out['layer']}){broken}")


#: The option that gives each part of a settings layer's key.
_PART_OPTIONS = {"platform": "--platform", "chat_type": "--chat-type",
                 "group_id": "--group-id", "session": "--session"}


def _check_layer_parts(layer: dict[str, Any]) -> None:
    """The parts ``--layer`` needs and takes, named by their options: the library's own
    check names its arguments (``needs group_id``), which no command-line user typed.
    Checked before the store is opened; the library checks them again."""
    where = layer["layer"]
    named = f"--layer {where}" + (" (the default)" if where == "session" else "")
    takes = LAYER_PARTS[where]
    missing = [_PART_OPTIONS[part] for part in takes if not layer[part]]
    if missing:
        fail(f"{named} needs {' and '.join(missing)}")
    extra = [part for part in _PART_OPTIONS if layer[part] is not None and part not in takes]
    if extra:
        reads = "; ".join(f"--layer {PART_LAYER[part]} reads {_PART_OPTIONS[part]}"
                          for part in extra)
        fail(f"{named} takes {' and '.join(_PART_OPTIONS[part] for part in takes)} only, "
             f"got {', '.join(_PART_OPTIONS[part] for part in extra)} too ({reads}): "
             f"name the layer meant with --layer, or leave {'them' if len(extra) > 1 else 'it'}"
             " out")


async def _set_layer(db: str | None, config_path: str | None, vector: str | None,
                     what: str, value: str | int | None, **layer: Any) -> None:
    """Set (``None``: remove) one layer's scope or retention, as an owner; ``layer``:
    the options of :func:`_layer_options`."""
    _check_layer_parts(layer)
    async with await open_existing(db, config_path, vector) as mem:
        if what == "scope":
            await mem.set_scope(None if value is None else str(value), actor=_cli_owner(),
                                **layer)
        else:
            await mem.set_retention(None if value is None else int(value),
                                    actor=_cli_owner(), **layer)
    where = layer["layer"]
    shown = value if what == "scope" or value is None else \
        _days(int(value)) + (" (kept forever)" if value == 0 else "")
    click.echo(f"{what} of the {where} layer " + ("removed" if value is None
                                                 else f"set to {shown}"))


def _days(n: int) -> str:
    """A retention as a number of days: ``1 day``, ``30 days``."""
    return f"{n} day" if n == 1 else f"{n} days"


def _days_kept(n: int) -> str:
    """How long a retention keeps a message: ``30 days``, or ``forever`` for 0."""
    return _days(n) if n else "forever"


@main.command()
@click.option("--config", "config_path", envvar="CHATMEM_CONFIG", default=None,
              help="TOML or YAML configuration file [env CHATMEM_CONFIG].")
@click.option("--provider", default=None, type=OneOf(list(PROVIDERS)),
              help="Override embedding.provider.")
@click.option("--model", default=None, help="Override embedding.model.")
@click.option("--endpoint", default=None, help="Override embedding.endpoint.")
@click.option("--deadline", type=Number(float, above=0), default=None,
              help="Seconds each probe may take, retries included (default: "
                   "embedding.query_deadline, 10).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@one_line_errors
def doctor(config_path: str | None, provider: str | None, model: str | None,
           endpoint: str | None, deadline: float | None, as_json: bool) -> None:
    """Check the embedding provider: build it from the configuration, embed a probe
    text, and print the provider, model id, dimensions, latency, the endpoint (keys
    redacted) or the local model files, the cache and the batch size; on failure, the
    error (decision, HTTP status, URL) and the setting to fix. API keys come from the
    configuration or the provider's environment variable; none is ever printed.

    Exit code 0: working; 1: the provider is unavailable (unreachable, failing,
    rate-limiting, answering garbage: try later); 2: a setting is wrong.

    \b
    Example:
      chatmem doctor --config chatmem.toml
      chatmem doctor --provider ollama --model nomic-embed-text --json
    """
    from .embedding.doctor import config_failure, diagnose

    overrides = {k: v for k, v in (("provider", provider), ("model", model),
                                   ("endpoint", endpoint)) if v is not None}
    try:
        data = read_table(config_path, "--config") if config_path else {}
        if isinstance(data.get("embedding"), str):  # the shorthand: a model name
            data["embedding"] = {"model": data["embedding"]}
        explicit: dict[str, Any] = {"embedding": overrides} if overrides else {}
        cfg = Config.load(data, env=environment(), **explicit,
                          data_source=f"--config {config_path}" if config_path else None)
    except ChatmemError as exc:
        diagnosis = config_failure(str(exc), provider=provider or "unknown")
    else:
        if not logging.getLogger("chatmem").handlers:  # the report says it all
            logging.getLogger("chatmem").addHandler(logging.NullHandler())
        diagnosis = asyncio.run(diagnose(cfg.embedding, env=environment(),
                                         deadline=deadline))
    if as_json:
        click.echo(_json_text(diagnosis.to_dict(), indent=None))
    else:  # the service's own error text is in it
        click.echo(printable("\n".join(diagnosis.lines())))
    sys.exit(diagnosis.exit_code)


def _server_extra(what: str) -> None:
    """Fail with the install command when the server extra is missing."""
    import importlib.util

    needed = {"serve": ("fastapi", "uvicorn", "prometheus_client"),
              "mcp": ("mcp", "fastapi", "uvicorn", "prometheus_client")}[what]
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if missing:
        from .extras import install_hint

        fail(f"chatmem {what} needs {', '.join(missing)}: {install_hint('server')}")


def load_keys(path: str | None) -> Any:
    """The API key table of ``chatmem serve`` and ``chatmem mcp`` (TOML or YAML), or None."""
    if not path:
        return None
    from .server.http import KeyTable

    return KeyTable.from_mapping(read_table(path, "--keys"), source=path)


def client_limits(timeout: float, max_connections: int | None,
                  max_concurrent_requests: int | None, max_unread_mb: int | None) -> Any:
    """The :class:`~chatmem.server.limits.ClientLimits` of ``--client-timeout``,
    ``--max-connections``, ``--max-concurrent-requests`` and ``--max-unread-mb`` (a bad
    value is a ConfigError naming the option; None: the default)."""
    from .server.limits import ClientLimits

    given = {name: value for name, value in (("max_connections", max_connections),
                                             ("max_concurrent_requests",
                                              max_concurrent_requests),
                                             ("max_unread_mb", max_unread_mb))
             if value is not None}
    return ClientLimits(timeout=timeout, **given)


#: ``--port``: what a TCP port can be (0: any free port the system picks).
PORT = Number(int, 0, 65535)


#: uvicorn's exit code when the server did not start (it logged why).
UVICORN_STARTUP_FAILURE = 3


@contextlib.contextmanager
def listening(host: str, port: int) -> Iterator[None]:
    """Around a server's run: uvicorn ends a server that could not start (a port in
    use, an address of another machine) with a log line and exit code 3; this makes it
    the command's one line naming ``--host`` or ``--port`` and exit code 2. The servers
    take the port before they open the store and serve on it
    (:func:`chatmem.server.listen`), so this is left for a start that failed otherwise
    (its app's start-up): the port is tried again to name it if it is the cause."""
    from .server import check_listen

    try:
        yield
    except SystemExit as exc:
        if exc.code != UVICORN_STARTUP_FAILURE:
            raise
        check_listen(host, port)
        fail(f"the server did not start (the error is above): check --host {host} and "
             f"--port {port}")


def concurrency_options(prefix: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``--max-concurrent-requests`` and ``--max-unread-mb`` (``prefix``: when they
    apply). Their defaults are :data:`chatmem.server.limits.DEFAULT_MAX_CONCURRENT_REQUESTS`
    and :data:`~chatmem.server.limits.DEFAULT_MAX_UNREAD_MB` (not imported here: the
    server extra may be missing; ``tests/test_client_limits.py`` checks them)."""
    requests = click.option(
        "--max-concurrent-requests", type=Number(int), default=None,
        help=f"{prefix}requests worked on at once (each holds its answer in memory); one "
             "that finds none finished within --client-timeout is answered 503 with "
             "Retry-After [default: 16].")
    unread = click.option(
        "--max-unread-mb", type=Number(int), default=None,
        help=f"{prefix}MiB of answers that may wait for slow clients to read them, in "
             "all; past it the connections that have waited longest are dropped "
             "[default: 512].")

    def both(command: Callable[..., T]) -> Callable[..., T]:
        return requests(unread(command))

    return both


@main.command()
@db_option
@vector_option
@click.option("--keys", "keys_path", envvar="CHATMEM_KEYS", default=None,
              help="TOML file of API keys → namespaces [env CHATMEM_KEYS]; without it the "
                   "server is open (loopback only).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", type=PORT, default=8765, show_default=True,
              help="Port to bind, 0 to 65535 (0: any free one).")
@click.option("--allow-open", is_flag=True,
              help="Serve without keys on a non-loopback address (trusted networks only).")
@click.option("--allowed-host", "allowed_hosts", multiple=True,
              help="Another Host header clients may use (name:port or name:*); repeatable. "
                   "Without keys only the bound address's names are answered, others get "
                   "421 (DNS-rebinding protection); with keys, giving one turns the check on.")
@click.option("--client-timeout", type=Number(float), default=10.0, show_default=True,
              help="Seconds a client has for a request's head, for each chunk of its body "
                   "(six times as long for the whole body; later: 408, closed) and to read "
                   "some of its answer (else the connection is dropped).")
@click.option("--max-connections", type=Number(int), default=None,
              help="Connections kept open at once; more are answered 503 [default: 1000, "
                   "or 128 below the open-file limit].")
@concurrency_options("API ")
@one_line_errors
def serve(db: str | None, config_path: str | None, vector: str | None,
          keys_path: str | None, host: str, port: int, allow_open: bool,
          allowed_hosts: tuple[str, ...], client_timeout: float,
          max_connections: int | None, max_concurrent_requests: int | None,
          max_unread_mb: int | None) -> None:
    """Run the HTTP API (OpenAPI docs at /docs). With --keys, each key maps to a
    namespace: put {namespace} in --db to give each its own store.

    \b
    Example:
      chatmem serve --db 'sqlite:///data/{namespace}.db' --keys keys.toml --port 8765
      chatmem serve --db chat.db --allowed-host mybox.local:8765
    """
    _server_extra("serve")
    from .server.http import serve as serve_http

    limits = client_limits(client_timeout, max_connections, max_concurrent_requests,
                           max_unread_mb)
    with listening(host, port):
        serve_http(url=_new_store_url(db), vector=vector, config=load_config(config_path),
                   keys=load_keys(keys_path), host=host, port=port, allow_open=allow_open,
                   env=environment(), extra_hosts=allowed_hosts, limits=limits)


@main.command()
@library_names(session="session_id")
@db_option
@vector_option
@click.option("--transport", type=OneOf(["stdio", "http"]), default="stdio",
              show_default=True, help="stdio for a local client, http for streamable HTTP.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP address.")
@click.option("--port", type=PORT, default=8766, show_default=True,
              help="HTTP port, 0 to 65535 (0: any free one).")
@click.option("--keys", "keys_path", envvar="CHATMEM_KEYS", default=None,
              help="TOML file of API keys, as for serve [env CHATMEM_KEYS]; with --transport "
                   "http every request needs one. All keys must map to one namespace.")
@click.option("--allowed-host", "allowed_hosts", multiple=True,
              help="Another Host header clients may use (name:port or name:*), e.g. behind a "
                   "proxy; repeatable. Others get 421 (DNS-rebinding protection).")
@click.option("--allow-open", is_flag=True,
              help="Serve HTTP without keys on a non-loopback address (trusted networks only).")
@click.option("--session", default="mcp", show_default=True,
              help="The conversation the tools act for (recall scope, where adds go).",
              callback=selector)
@click.option("--platform", default=None, help="That conversation's platform.",
              callback=selector)
@click.option("--speaker-id", default=None, help="Who is asking (the same-user boost).",
              callback=selector)
@click.option("--client-timeout", type=Number(float), default=10.0, show_default=True,
              help="With --transport http: seconds a client has for a request's head, "
                   "for each chunk of its body (six times as long for the whole body; "
                   "later: 408, closed) and to read some of its answer.")
@click.option("--max-connections", type=Number(int), default=None,
              help="With --transport http: connections kept open at once; more are "
                   "answered 503 [default: 1000, or 128 below the open-file limit].")
@concurrency_options("With --transport http: ")
@one_line_errors
def mcp(db: str | None, config_path: str | None, vector: str | None, transport: str,
        host: str, port: int, keys_path: str | None, allowed_hosts: tuple[str, ...],
        allow_open: bool, session: str, platform: str | None,
        speaker_id: str | None, client_timeout: float, max_connections: int | None,
        max_concurrent_requests: int | None, max_unread_mb: int | None) -> None:
    """Run the MCP server with the tools memory_recall, memory_add and memory_list (I5).

    \b
    Example:
      chatmem mcp --db chat.db --session alice-dm
      chatmem mcp --transport http --keys keys.toml --db chat.db --session alice-dm
    """
    _server_extra("mcp")
    from .server.http import check_key_namespaces
    from .server.mcp import run as run_mcp

    url, keys = _new_store_url(db), load_keys(keys_path)
    if keys is not None and len(keys.namespaces) == 1:  # several: run_mcp's refusal
        check_key_namespaces(url, vector, keys)
    with listening(host, port):
        run_mcp(url=url, vector=vector, config=load_config(config_path),
                transport=transport, host=host, port=port, session=session,
                platform=platform, speaker_id=speaker_id, keys=keys,
                allowed_hosts=allowed_hosts, allow_open=allow_open, env=environment(),
                limits=client_limits(client_timeout, max_connections,
                                     max_concurrent_requests, max_unread_mb))


if __name__ == "__main__":  # pragma: no cover
    main()
