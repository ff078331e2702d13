"""R3/R6 by fuzzing: schemathesis drives every route of the HTTP API from its own OpenAPI
document, with an owner key and a user key, against a real uvicorn server on 127.0.0.1.

Every answer must be documented (status code, content type and body schema — errors in
the ``{"error": {"type", "message"}}`` shape) and none may be a 500. The run is bounded
(``max_examples`` per operation) so it stays well under two minutes on two cores.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from chatmem.config import Config  # noqa: E402
from chatmem.embedding import Embedder  # noqa: E402
from chatmem.server.http import create_api, create_app  # noqa: E402
from providers import RecordingProvider  # noqa: E402
from servers import running  # noqa: E402
from test_http import ALICE, ALICE_BOT, keys  # noqa: E402


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(url=f"sqlite:///{root}/{{namespace}}.db", keys=keys(),
                     config=Config.load(indexing={"concurrency": 1}),
                     embedder=Embedder(RecordingProvider(dim=16)))
    with running(app) as base:
        yield base


#: The document the server publishes (the same app object, so the same schema); the
#: requests go to the live server. Only its schema is read: no namespace's store is
#: opened (the URL must still be one a store could open: the app checks it as it starts).
schema = schemathesis.openapi.from_dict(create_api(
    url="sqlite:///never-opened/{namespace}.db", keys=keys(),
    embedder=Embedder(RecordingProvider())).openapi())


#: No 500, and every answer documented: status code, content type, body schema.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


FUZZ = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


def call(case: Any, base: str, key: str) -> None:
    response = case.call_and_validate(base_url=base, checks=CHECKS, timeout=60,
                                      headers={"Authorization": f"Bearer {key}"})
    assert response.status_code < 500 or response.status_code == 503, response.text


@schema.parametrize()
@FUZZ
def test_owner_key_no_input_gets_a_500_or_an_undocumented_answer(case: Any, live: str
                                                                  ) -> None:
    call(case, live, ALICE)


@schema.parametrize()
@FUZZ
def test_user_key_no_input_gets_a_500_or_an_undocumented_answer(case: Any, live: str
                                                                 ) -> None:
    call(case, live, ALICE_BOT)
