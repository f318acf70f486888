"""Quick play in the browser: two people who do not know each other choose the same game in
"Schnell spielen" and end up at one new table, each at their own seat, playing."""

from __future__ import annotations

from typing import Any

from .conftest import NewPage, Server
from .driver import table_id, wait_ready


def look_for_players(page: Any, server: Server, name: str) -> None:
    page.goto(server.url + "/")
    page.fill('#quick-form input[name="q_name"]', name)
    page.select_option('#quick-form select[name="q_game"]', "stichling")
    page.select_option('#quick-form select[name="q_players"]', "2")
    page.click("#quick-go")


def test_two_browsers_find_each_other(server: Server, new_page: NewPage) -> None:
    anna = new_page(prefs={"name": ""})
    look_for_players(anna, server, "Anna")
    anna.wait_for_selector("#quick-wait:not([hidden]) #quick-count")
    assert anna.is_disabled('input[name="rated"]') and anna.is_disabled('input[name="q_rated"]')  # a guest
    assert "Stichling" in (anna.text_content("#quick-wait") or "")
    ben = new_page(prefs={"name": ""})
    ben.goto(server.url + "/")
    ben.wait_for_selector('#quick-queues li[data-queue="stichling:2:unrated"]')
    assert "1 wartend" in (ben.text_content("#quick-queues") or "")
    look_for_players(ben, server, "Ben")
    for page in (anna, ben):
        page.wait_for_url("**/tables/*", timeout=20_000)
        page.wait_for_selector(".bottom-seat.mine")
    assert table_id(anna) == table_id(ben)
    info = server.get(f"/api/tables/{table_id(anna)}")
    assert [s["name"] for s in info["seats"]] == ["Anna", "Ben"] and info["status"] == "playing"
    assert "Anna" in (anna.text_content(".bottom-seat .seat-name") or "")
    assert "Ben" in (ben.text_content(".bottom-seat .seat-name") or "")
    turn = info["turn"]
    assert wait_ready(anna if turn == 0 else ben) == "act"  # the game is on: whose turn it is may play


def test_after_the_chosen_wait_bots_fill_the_empty_seats(server: Server, new_page: NewPage) -> None:
    """Nobody else looks for Stich-Meister: after the shortest wait the panel offers bots, and
    the table it opens seats the player with bots of the level picked."""
    ida = new_page(prefs={"name": ""})
    ida.goto(server.url + "/")
    ida.fill('#quick-form input[name="q_name"]', "Ida")
    ida.select_option('#quick-form select[name="q_game"]', "stichmeister")
    ida.select_option('#quick-form select[name="q_players"]', "3")
    ida.select_option('#quick-form select[name="q_wait"]', "15")
    ida.click("#quick-go")
    ida.wait_for_selector("#quick-wait:not([hidden]) #quick-count")
    assert ida.query_selector("#quick-fill") is None  # not before the wait
    ida.wait_for_selector("#quick-fill", timeout=30_000)
    ida.select_option('select[name="q_bot"]', "random")
    ida.click("#quick-fill")
    ida.wait_for_url("**/tables/*", timeout=20_000)
    ida.wait_for_selector(".bottom-seat.mine")
    info = server.get(f"/api/tables/{table_id(ida)}")
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert {s["bot"] for s in info["seats"][1:]} == {"random"}
