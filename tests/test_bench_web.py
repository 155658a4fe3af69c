"""The scoreboard page's bench (bench/web.py) in a tiny run: every
contract key is there and nothing gives a secret away. The figures of a
run this small say nothing about the goals (``python -m bench`` does); the
browser's part is skipped, with the reason, where there is no Chromium."""
from __future__ import annotations

import pytest

import bench.__main__ as main
from bench import web

CONTRACT = ["web_update_p95_ms", "web_load_event_cpu_ratio", "web_rss_extra_mb", "web_secret_leaks",
            "web_clients_held"]


@pytest.fixture(scope="module")
def figures():
    return web.measure_web(True, web.tiny_plan())


def test_every_contract_key_is_measured_and_in_the_table(figures):
    for k in CONTRACT + ["web_load_events_lost", "web_load_frames_late", "web_load_updates_late",
                         "web_open_page_stale"]:
        assert k in figures, k
        assert k in main.KEYS and k in main.GOALS, k
        assert k in main.table(figures)
    for k in CONTRACT:
        if k != "web_update_p95_ms":
            assert figures[k] is not None, k
    assert figures["web_load_event_cpu_ratio"] > 0
    assert figures["web_rss_with_mb"] > 0 and figures["web_rss_without_mb"] > 0
    assert figures["web_load_requests"] > 0 and figures["web_load_request_errors"] == 0
    assert "The scoreboard page" in main.report(figures, True)
    assert "Open pages tell the truth" in main.report(figures, True)
    if figures["web_open_page_stale"] is not None:  # a browser here
        assert figures["web_open_page_stale"] == 0, figures.get("web_open_page_examples")
        assert figures["web_open_page_presses"] > 40


def test_no_response_gives_a_secret_away_and_the_search_sees_them(figures):
    assert figures["web_secret_leaks"] == 0, figures.get("web_secret_leak_examples")
    assert figures["web_secret_responses"] > 100
    # after the end the secret colors are public (BU-3): the same search finds them there
    assert figures["web_secret_shown_after_end"] > 0


def test_every_stream_ends_on_the_last_state(figures):
    assert figures["web_load_events_lost"] == 0
    level = figures["web_clients_levels"]["4"]
    assert level["opened"] == 4 and level["lost"] == 0


def test_the_browser_sees_each_press(figures):
    if figures["web_update_p95_ms"] is None:
        reason = figures.get("web_update_reason", "")
        assert reason
        pytest.skip(f"no browser here: {reason}")
    assert figures["web_update_presses"] > 0 and figures["web_update_missed"] == 0


def test_the_load_generator_talks_to_loopback_only():
    with pytest.raises(SystemExit):
        web._Load("http://192.0.2.1:8032/secretsecretsecret/", 1, 1, 1)
    load = web._Load("http://127.0.0.1:8032/secretsecretsecret/", 10_000, 10_000, 10_000)
    assert (load.streams, load.rps, load.seconds) == (web.MAX_STREAMS, web.MAX_RPS, web.MAX_SECONDS)


def test_without_a_browser_the_figure_is_na_with_the_reason(tmp_path, monkeypatch):
    import bench.browser

    def no_browser(*args, **kw):
        raise bench.browser.Unavailable("no Chromium here (a test)")
    monkeypatch.setattr(bench.browser, "chromium", no_browser)
    got = web.measure_browser(web.tiny_plan(), str(tmp_path))
    assert got == {"web_update_p95_ms": None, "web_update_reason": "no Chromium here (a test)"}
    assert "| web_update_p95_ms | n/a |" in main.table(got)
    assert "not measured in this run: no Chromium here (a test)" in web.note(got)
