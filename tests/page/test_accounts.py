"""Accounts on the page, in Chromium: register, log out, a wrong password refused in the page's
words, log in again (in German and in English), and a seat taken on one device that follows the
account to another."""

from __future__ import annotations

import secrets
from typing import Any

from .conftest import NewPage, Server
from .driver import wait_ready

PASSWORD = "geheim und lang"


def open_account(page: Any) -> None:
    page.click("#btn-account")
    page.wait_for_selector("dialog#account[open]")


def submit(page: Any, form: str, **fields: str) -> None:
    for name, value in fields.items():
        page.fill(f"#{form} input[name={name}]", value)
    page.click(f"#{form} button[type=submit]")


def test_register_log_out_and_log_in_in_both_languages(server: Server, new_page: NewPage) -> None:
    name = "Anna" + secrets.token_hex(3)
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".game-tile")
    assert page.inner_text("#btn-account .label") == "Anmelden"
    open_account(page)
    submit(page, "register-form", name="a b", password=PASSWORD)  # a space: refused before it is sent
    assert "Benutzername geht nicht" in page.inner_text("#register-form .form-error")
    submit(page, "register-form", name=name, password=PASSWORD)
    page.wait_for_selector("dialog#account", state="detached")
    assert page.inner_text("#btn-account .label") == name
    assert page.input_value('#new-table input[name="name"]') == name  # a table is opened under the account's name

    open_account(page)
    assert page.inner_text("#account-name") == name
    page.click("#logout")
    page.wait_for_selector("dialog#account", state="detached")
    page.wait_for_function("() => document.querySelector('#btn-account .label').textContent === 'Anmelden'")

    open_account(page)
    submit(page, "login-form", name=name, password="nicht das Passwort")
    page.wait_for_function("() => document.querySelector('#login-form .form-error').textContent !== ''")
    assert page.inner_text("#login-form .form-error") == "Benutzername oder Passwort falsch."
    page.keyboard.press("Escape")

    page.click('button[data-lang="en"]')
    page.wait_for_function("() => document.querySelector('#btn-account .label').textContent === 'Log in'")
    open_account(page)
    assert page.inner_text("#account-title") == "Log in or register"
    submit(page, "login-form", name=name.upper(), password=PASSWORD)
    page.wait_for_selector("dialog#account", state="detached")
    assert page.inner_text("#btn-account .label") == name
    open_account(page)
    assert "Logged in as" in page.inner_text("dialog#account")
    page.click("#logout")
    page.wait_for_function("() => document.querySelector('#btn-account .label').textContent === 'Log in'")


def test_a_seat_taken_on_one_device_follows_the_account_to_another(server: Server, new_page: NewPage) -> None:
    name = "Sepp" + secrets.token_hex(3)
    phone = new_page(width=420, height=860)
    phone.goto(server.url + "/")
    phone.wait_for_selector(".game-tile")
    open_account(phone)
    submit(phone, "register-form", name=name, password=PASSWORD)
    phone.wait_for_selector("dialog#account", state="detached")
    table = server.post("/api/tables", {"game": "jass", "seats": ["bot:random", "human", "bot:random", "bot:random"]})
    phone.goto(f"{server.url}/tables/{table['id']}")
    phone.wait_for_selector('form[data-form="join"]')
    assert phone.input_value('form[data-form="join"] input[name=name]') == name
    phone.click('form[data-form="join"] button[type=submit]')
    wait_ready(phone)

    laptop = new_page()  # another device: no token of the seat, only the login
    laptop.goto(server.url + "/")
    laptop.wait_for_selector(".game-tile")
    open_account(laptop)
    submit(laptop, "login-form", name=name, password=PASSWORD)
    laptop.wait_for_selector("dialog#account", state="detached")
    laptop.wait_for_selector(f'#my-tables a[href="/tables/{table["id"]}"]')  # the lobby lists the account's table
    laptop.click(f'#my-tables a[href="/tables/{table["id"]}"]')
    wait_ready(laptop)
    assert laptop.locator(".hand-card").count() > 0  # the seat's hand, here too
    # the seat shows it is an account's (a guest could take the same name, not the mark)
    assert laptop.locator(".seat.mine .account-tag").count() == 1
    assert laptop.locator(".seat.opp .account-tag").count() == 0
