"""schemathesis (in-process, against the app's OpenAPI document): no generated request to any operation gets a
500, with a valid referee token on the POSTs (so requests reach the hub's validation and the rules); every
error body follows the contract."""

from __future__ import annotations

import time
from collections import Counter

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from hub.service.hub import Hub
from hub.web import WebSettings, create_app
from hub.web.auth import PinStore
from tests.web.conftest import PIN

EXAMPLES = 40  # per operation: the whole run stays well under 30 s
# the referee actions are a union of many kinds, most refused on this match: enough cases to be accepted too
ACTION_EXAMPLES = 160
REAL = {"table": "t1", "device": "pk-12", "match_id": 1}


def test_no_generated_request_gets_a_500(hub: Hub, web_settings: WebSettings) -> None:
    store = PinStore(hub.config.store.path)
    store.set("t1", PIN)
    hub.new_match("t1", "classic", ("A", "B"))
    app = create_app(hub, web_settings)
    token = app.state.luza.tokens.issue("t1", "schemathesis", store.set_ms("t1"))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    started, seen, statuses = time.monotonic(), 0, Counter[tuple[str, str, int]]()
    with TestClient(app):  # the lifespan (live fan-out) runs while the cases are sent
        for result in schema.get_all_operations():
            operation = result.ok()
            cases = st.one_of(
                operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
            )

            many = operation.path == "/api/tables/{table}/actions"

            @given(case=cases, real=st.booleans())
            @settings(
                max_examples=ACTION_EXAMPLES if many else EXAMPLES,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case: schemathesis.Case, real: bool) -> None:
                if real and case.path_parameters:  # half the cases name a real table / node: deeper paths
                    case.path_parameters.update({k: v for k, v in REAL.items() if k in case.path_parameters})
                headers = {"Authorization": f"Bearer {token}"} if case.method == "POST" else None
                response = case.call(headers=headers)
                statuses[(case.method, case.path, response.status_code)] += 1
                assert response.status_code != 500, f"{case.method} {case.formatted_path}: {response.text}"
                if response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
                    err = response.json().get("error")
                    assert err and err["code"] and err["en"] and err["ru"], response.text

            check()
            seen += 1
    assert seen >= 12  # every route of docs/web-api.md (and the history routes) was exercised
    actions = {status for (method, path, status) in statuses if path == "/api/tables/{table}/actions"}
    # cases reached both the schema's refusals (422) and the hub: accepted (200), or refused there (409: the
    # same tap still pending, or impossible now; on a loaded machine taps stay pending longer)
    assert 422 in actions and actions & {200, 409}, actions
    assert time.monotonic() - started < 60
