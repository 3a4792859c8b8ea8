"""Settings are described once (their fields) and docs/configuration.md is generated from them;
a rate limit that does not parse, or a RATE_* variable that names no setting, stops the start."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app import config_docs
from app.limits.limiter import LIMITS, Limiter
from app.settings import SECTIONS, Settings, rate_fields


def test_the_configuration_page_is_the_one_generated_from_the_settings():
    assert config_docs.main(["--check"]) == 0, "run: .venv/bin/python -m app.config_docs"


def test_every_setting_is_described_in_exactly_one_section():
    owners: dict[str, list[str]] = {}
    for section in SECTIONS:
        for name in section.__annotations__:
            owners.setdefault(name, []).append(section.__name__)
    assert set(owners) == set(Settings.model_fields)
    assert {name: where for name, where in owners.items() if len(where) != 1} == {}
    assert [name for name, info in Settings.model_fields.items() if not (info.description or "").strip()] == []


def test_a_rate_limit_that_does_not_parse_stops_the_start():
    with pytest.raises(ValidationError, match="RATE_ROOMS_PER_IP='ten'"):
        Settings(rate_rooms_per_ip="ten")
    with pytest.raises(ValidationError, match="PUSH_BUDGET_PER_PLAYER"):
        Settings(push_budget_per_player="0/60")
    assert Settings(rate_rooms_per_ip="off").rate_rooms_per_ip == "off"


def test_a_mistyped_rate_limit_variable_stops_the_start(monkeypatch):
    monkeypatch.setenv("RATE_ROOMS_PER_TOKN", "1/60")
    with pytest.raises(ValidationError, match="unknown rate limit setting RATE_ROOMS_PER_TOKN"):
        Settings()


def test_every_limit_has_its_setting_and_every_rate_setting_a_use():
    limiter = Limiter(Settings(), clock=None)
    configured = {f"rate_{name}_per_{per}" for (name, per), rule in limiter.rules.items() if rule is not None}
    per_limit = {name for name in rate_fields() if any(name == f"rate_{limit}_per_{per}" for limit in LIMITS for per in ("token", "ip"))}
    assert per_limit == configured
