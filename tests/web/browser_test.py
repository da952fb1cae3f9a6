#!/usr/bin/python3
"""The browser client in a real browser (docs/client.md): morne serve on a free loopback port,
Debian's headless Chromium driven by Selenium, at 1024 x 768 unless a test says otherwise.

Checks the map against the engine (hexes, units, reach), refusals, undo and redo of a whole
walk, the charge decision prompted without a second click, errors on the set-up screen, games
that survive a reload and a server restart, New game's question, the difficulty levels and the
think time, the AI's marks, panel and Move now, the VP track, review mode (positions equal to
`replay`'s, one value-graph point per decision, analysis), zoom with exact hit-testing, the
help panel, full games through the UI on duel, crossing and a variant, and screenshots
compared with the stored references (tests/web/references).

    tests/web/browser_test.py build/morne [SCREENSHOT_DIR] [--update-references] [--only NAME]

Exits 0 when every check passes, non-zero on the first failure or when Chromium, ChromeDriver,
Selenium or PIL is missing (`scripts/setup.sh` installs them)."""

import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

from browser_client import (BOMBARDMENT, CROSSING_BATTLE, GOLDEN, By, Client, Select, Server,
                            browser, check, missing_tools, open_position, set_viewport, ws_client)
from play_checks import (test_coordinates, test_counter_contrast, test_end_after_an_automatic_end,
                         test_honest_takebacks, test_keyboard_turn, test_marsh_walks,
                         test_rule_scores_are_not_values, test_watch_pause_and_step)

CHARGE_WINDOW = os.path.join(GOLDEN, "duel_charge_window.json")


def engine_session(port, scenario=None):
    g = ws_client.Game(port)
    if scenario:
        g.call({"cmd": "load", "scenario": scenario, "seed": 1})
    return g


def test_map_reach_refusal_undo_redo(c):
    c.begin("duel", "blue")
    probe = engine_session(c.port, "duel")
    info = probe.call({"cmd": "scenario"})
    state = probe.call({"cmd": "state"})["state"]
    hexes = c.d.find_elements(By.CSS_SELECTOR, "#map g.hex")
    check(len(hexes) == info["cells"], f"{len(hexes)} hexes drawn, the scenario has {info['cells']}")
    on_map = {u["id"] for u in state["units"] if u["hex"]}
    drawn = {e.get_attribute("data-unit") for e in c.d.find_elements(By.CSS_SELECTOR, "#map g.unit")}
    check(drawn == on_map, f"units drawn {sorted(drawn)} != on the map {sorted(on_map)}")
    c.shot("client-map.png")

    # A unit's reachable hexes are the engine's.
    c.click_unit("B-I1")
    reach = probe.call({"cmd": "reachable", "unit": "B-I1"})["hexes"]
    marked = {e.get_attribute("data-hex")
              for e in c.d.find_elements(By.CSS_SELECTOR, "#map g.mark.reach")}
    check(marked == {h["hex"] for h in reach}, f"reach marked {sorted(marked)} != the engine's")
    c.shot("client-reach.png")

    # A click out of reach is refused, saying so.
    occupied = {u["hex"] for u in state["units"] if u["hex"]}
    far = next(h for h in sorted(e.get_attribute("data-hex") for e in hexes)
               if h not in marked and h not in occupied)
    c.click_hex(far)
    box = c.d.find_element(By.ID, "message")
    check("refused" in box.get_attribute("class") and "cannot reach" in box.text,
          f"a click out of reach gave: {box.get_attribute('class')} {box.text!r}")

    # A walk of several hexes is one action: one undo takes it back whole, redo plays it again.
    before = c.state()
    walk = max(reach, key=lambda h: len(h["path"]))
    check(len(walk["path"]) >= 2, "no walk of two hexes for B-I1")
    c.click_unit("B-I1")
    c.click_hex(walk["hex"])
    check(c.unit_hex("B-I1") == walk["hex"], f"the walk to {walk['hex']} was not played")
    after = c.state_hash()
    c.key("u")
    check(c.state() == before, f"one undo did not take back the {len(walk['path'])}-hex walk")
    check(c.d.find_element(By.CSS_SELECTOR, "#map g.unit[data-unit='B-I1']")
          .get_attribute("data-hex") == before["units"][1]["hex"], "the counter is not back")
    c.key("r")
    check(c.state_hash() == after, "redo did not play the walk again")
    c.button("undo")
    check(c.state() == before, "the Undo button did not take the walk back")
    probe.close()


def test_charge_prompt(c):
    """Cavalry whose step draws reaction fire in contact: charge or hold is asked at once."""
    open_position(c, "duel", "two", CHARGE_WINDOW)
    c.click_unit("O-C1")
    c.click_hex("0604")
    confirm = c.d.find_elements(By.ID, "confirm-step")
    check(confirm, "the step under reaction fire was not shown first")
    c.key("\ue007")  # Enter: go on under fire
    check(c.shown("prompt-charge") and c.shown("prompt-hold"),
          "charge and hold are not offered after the step")
    text = c.text("message")
    check("charge" in text and "hold" in text, f"the message does not say what it waits for: {text!r}")
    end = c.d.find_element(By.ID, "end-phase")
    check(not end.is_enabled() and "decision" in end.get_attribute("title"),
          f"End phase does not say why it is disabled: {end.get_attribute('title')!r}")
    c.key("h")  # hold: the reaction fire follows
    legal = c.js("return window.morne.legal.map(a => a.text)")
    check("hold" not in legal, f"the hold was not played: {legal}")
    c.shot("client-charge.png")


def shown_outcomes(c):
    """The preview's rows: (num, den, merged, text)."""
    return [(int(r.get_attribute("data-num")), int(r.get_attribute("data-den")),
             int(r.get_attribute("data-merged")), r.find_element(By.CLASS_NAME, "what").text)
            for r in c.d.find_elements(By.CSS_SELECTOR, "#preview .outcome")]


def check_distribution(rows, exact, what):
    """Rows shown against the engine's outcomes: every outcome in one row, no two rows alike,
    and the probabilities summing to exactly 1."""
    from fractions import Fraction
    check(sum(m for _, _, m, _ in rows) == len(exact),
          f"{what}: {len(exact)} outcomes, the rows hold {sum(m for _, _, m, _ in rows)}")
    check(len({t for *_, t in rows}) == len(rows), f"{what}: two rows read the same: {rows}")
    check(sum(Fraction(n, d) for n, d, _, _ in rows) == 1, f"{what}: the rows do not sum to 1")
    if len(rows) == len(exact):
        check([(n, d) for n, d, _, _ in rows] == [(o["num"], o["den"]) for o in exact],
              f"{what}: the chart shows {rows}, the engine gives {exact}")


def ask_about(c, scenario, path, request):
    """A separate engine session's reply to `request` in the saved position `path`."""
    probe = engine_session(c.port, scenario)
    try:
        with open(path) as f:
            probe.call({"cmd": "set_state", "state": json.load(f)})
        return probe.call(request)
    finally:
        probe.close()


def test_previews(c):
    """The combat and fire previews show the engine's exact distributions, alike rows merged."""
    open_position(c, "crossing", "blue", CROSSING_BATTLE)
    c.click_unit("B-I3")
    c.click_unit("O-I1")
    exact = ask_about(c, "crossing", CROSSING_BATTLE,
                      {"cmd": "preview_combat", "attacker": "B-I3", "defender": "O-I1"})
    check_distribution(shown_outcomes(c), exact["outcomes"], "combat preview")
    check(exact["odds"] in c.text("preview"), "the odds are not shown")
    c.shot("client-combat.png")

    open_position(c, "duel", "two", BOMBARDMENT)
    c.click_unit("B-A1")
    check(c.d.find_elements(By.CSS_SELECTOR, "#preview li[data-target]"), "no targets listed")
    c.click_unit("O-C1")
    exact = ask_about(c, "duel", BOMBARDMENT,
                      {"cmd": "preview_fire", "gun": "B-A1", "target": "O-C1"})
    rows = shown_outcomes(c)
    check_distribution(rows, exact["outcomes"], "fire preview")
    check(sum(1 for *_, t in rows if "eliminated" in t) <= 1, f"'eliminated' twice: {rows}")


def test_orange_sees_blues_moves(c):
    """On duel blue places nothing at set-up: orange sees blue's first moves and their reasons."""
    c.begin("duel", "orange", blue="rule")
    title = c.text("ai-title")
    check(title.startswith("blue: ") and "hidden" not in title, f"blue's move as orange sees it: {title!r}")
    # The AI's decisions by unit name, as a player says them.
    listed = [e.text for e in c.d.find_elements(By.CSS_SELECTOR, "#ai-turn li")]
    check(listed and all(re.search(r"blue: (B-\w+ (moves|fires|attacks|charges|holds)|ends the)", t)
                         for t in listed), f"blue's decisions listed: {listed}")


def setup_record(folder):
    """A record of no plies on duel's map where blue places B-I1 at set-up (S-1, S-2)."""
    with open(os.path.join(GOLDEN, "..", "..", "configs", "scenarios", "duel.json")) as f:
        doc = json.load(f)
    doc["name"] = "duel-setup"
    blue = doc["sides"][0]
    blue["setup_zone"] = ["0307", "0308", "0208"]
    for unit in blue["units"]:
        if unit["id"] == "B-I1":
            del unit["hex"]
            unit["placement"] = "zone"
    path = os.path.join(folder, "setup.json")
    with open(path, "w") as f:
        json.dump({"format": "morne-game/1", "scenario": doc, "seed": 1,
                   "agents": {"blue": "human", "orange": "human"}, "start": None, "plies": [],
                   "result": None}, f)
    return path


def test_setup_phase(c):
    """Set-up marks the zone and names the unit; playing orange, blue's placement is hidden."""
    folder = tempfile.mkdtemp(prefix="morne-browser-setup-")
    try:
        record = setup_record(folder)
        c.start("duel", "two")
        c.load_file(record)
        c.wait(lambda: c.shown("game"), "the set-up")
        c.idle()
        text = c.text("message")
        check("Set-up" in text and "B-I1" in text and "S-2" in text, f"set-up prompt: {text!r}")
        marked = {e.get_attribute("data-hex")
                  for e in c.d.find_elements(By.CSS_SELECTOR, "#map g.mark.reach")}
        check(marked and marked <= {"0307", "0308", "0208"}, f"set-up hexes marked: {marked}")
        target = sorted(marked)[0]
        c.click_hex(target)
        check(c.unit_hex("B-I1") == target, f"B-I1 was not placed on {target}")
        c.start("duel", "orange", blue="rule")
        c.load_file(record)
        c.wait(lambda: c.shown("game"), "the set-up as orange")
        c.idle()
        check("hidden" in c.text("ai-title"), f"blue's placement as orange: {c.text('ai-title')!r}")
        check(not c.d.find_elements(By.CSS_SELECTOR, "#map g.unit[data-unit='B-I1']"),
              "orange sees where blue placed B-I1 in game turn 1")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_setup_errors(c, morne, models):
    """Errors show on the set-up screen: a file that is not JSON, a record with an illegal move,
    and a server with no place left."""
    c.fresh_page()
    # Before a game: the toolbar's game buttons are disabled, and a click or key on them (they
    # once raised "Cannot read properties of null") leaves the set-up screen as it was.
    for button in ("end-phase", "undo", "redo", "review"):
        check(not c.d.find_element(By.ID, button).is_enabled(),
              f"{button} is enabled on the set-up screen")
    c.js("for (const id of ['undo', 'redo', 'review']) document.getElementById(id).click()")
    check(c.shown("setup") and not c.text("setup-message"),
          f"the game buttons on the set-up screen gave: {c.text('setup-message')!r}")
    folder = tempfile.mkdtemp(prefix="morne-browser-files-")
    try:
        bad = os.path.join(folder, "notes.json")
        with open(bad, "w") as f:
            f.write("these are not JSON")
        c.load_file(bad)
        c.wait(lambda: c.shown("setup-message"), "the error for a non-JSON file")
        check("not JSON" in c.text("setup-message"), f"non-JSON file: {c.text('setup-message')!r}")
        illegal = os.path.join(folder, "illegal.json")
        with open(illegal, "w") as f:
            json.dump({"format": "morne-game/1", "scenario": "duel", "seed": 1,
                       "agents": {"blue": "human", "orange": "rule"}, "start": None,
                       "plies": ["move 0101>0808"], "result": None}, f)
        c.d.find_element(By.ID, "load-file").clear()
        c.load_file(illegal)
        c.wait(lambda: "plies/0" in c.text("setup-message"), "the error for an illegal ply")
        check(c.shown("setup"), "the set-up screen went away after a refused record")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    # A server with one place, held by another game: the page says so instead of an empty list.
    full = Server(morne, models, options=["--max-sessions", "1"]).start()
    holder = None
    try:
        holder = ws_client.Game(full.port)
        c.d.get(f"http://127.0.0.1:{full.port}/")
        c.wait(lambda: c.text("setup-message"), "the error for a full server")
        check("Cannot start a game" in c.text("setup-message"),
              f"full server: {c.text('setup-message')!r}")
        c.js("document.getElementById('setup-message').textContent = ''")
        c.d.find_element(By.ID, "start").click()
        c.wait(lambda: c.text("setup-message"), "the error of Start on a full server")
        check(c.shown("setup"), "Start on a full server left the set-up screen")
    finally:
        if holder:
            holder.close()
        full.stop()


def play_some(c, decisions, seed):
    """A few legal clicks for blue (moves and phase ends) in a game against an agent."""
    rng = random.Random(seed)
    for _ in range(decisions):
        c.idle()
        legal = c.js("return window.morne.legal") or []
        moves = [a for a in legal if a["action"]["type"] == "move"]
        if moves and rng.random() < 0.7:
            a = rng.choice(moves)["action"]
            c.click_unit(a["unit"])
            c.click_hex(a["to"])
        elif not c.d.find_element(By.ID, "end-phase").get_attribute("disabled"):
            c.key("e")


def test_games_survive(c, server):
    """Reload, server restart, and New game's question."""
    c.begin("duel", "blue", orange="rule")
    play_some(c, 6, seed=3)
    position = c.state_hash()
    ply = c.js("return window.morne.ply")
    check(ply > 0, "nothing was played")
    c.d.refresh()
    c.wait(lambda: c.js("return !!window.morne.state"), "the resumed game")
    c.idle()
    check(c.state_hash() == position, "a reload did not resume the same position")
    check(c.js("return window.morne.ply") == ply, "a reload changed the ply")

    server.stop()
    c.wait(lambda: c.shown("connection"), "the lost connection's banner")
    check("saved" in c.text("connection"), f"banner: {c.text('connection')!r}")
    c.d.find_element(By.ID, "end-phase").click()  # a click while the server is gone...
    check(not c.js("return window.morne.busy"), "...left the page busy")
    server.start()
    c.button("reconnect")
    c.wait(lambda: not c.shown("connection"), "the game to come back")
    c.idle()
    check(c.state_hash() == position, "a server restart did not resume the same position")

    # New game asks before discarding the game in progress; "keep it" keeps it.
    c.button("new-game")
    check(c.shown("resume"), "the set-up screen does not offer to resume")
    c.d.find_element(By.ID, "start").click()
    check(c.d.find_element(By.ID, "confirm").is_displayed(), "Start did not ask before discarding")
    c.d.find_element(By.ID, "confirm-no").click()
    check(c.shown("setup"), "keeping the game left the set-up screen")
    c.key("e")  # the set-up screen's keys do not play in the game behind it
    check(c.js("return window.morne.ply") == ply, "E on the set-up screen played in the old game")
    c.button("resume")
    c.idle()
    check(c.state_hash() == position, "Resume did not bring the game back")


def test_levels_and_budget(c):
    c.fresh_page()
    # A new page offers the README's scenario against a named level, with its briefing.
    check(Select(c.d.find_element(By.ID, "scenario")).first_selected_option
          .get_attribute("value") == "crossing", "the page does not open on crossing")
    check(Select(c.d.find_element(By.ID, "level")).first_selected_option
          .get_attribute("value") == "medium", "the page does not open on the Medium level")
    check("must take the bridgehead village" in c.text("scenario-briefing"),
          f"crossing's briefing reads {c.text('scenario-briefing')!r}")
    # The scenario card states the chosen scenario's handicap and how even it measured.
    check("+0.5 VP to orange" in c.text("scenario-card"),
          f"crossing's card reads {c.text('scenario-card')!r}")
    Select(c.d.find_element(By.ID, "scenario")).select_by_value("duel")
    card = c.text("scenario-card")
    check(card.startswith("Balance: handicap +1.5 VP to orange: blue wins ") and "rule" in card,
          f"duel's card reads {card!r}")
    Select(c.d.find_element(By.ID, "scenario")).select_by_value("duel-unbalanced")
    check(c.text("scenario-card") == "", "a scenario without a handicap shows a card line")
    Select(c.d.find_element(By.ID, "scenario")).select_by_value("duel")
    Select(c.d.find_element(By.ID, "level")).select_by_value("easy")
    c.shot("client-setup.png")
    check(c.d.find_element(By.ID, "agent-orange").get_attribute("value") == "rule",
          "the Easy level did not set the rule agent")
    levels = [o.get_attribute("value") for o in c.d.find_elements(By.CSS_SELECTOR, "#level option")]
    check("net-tiny" in levels, f"the shipped network is not a level: {levels}")
    box = c.d.find_element(By.ID, "agent-orange")
    box.clear()
    box.send_keys("mcts:sims=200")
    check("sims=200" in c.text("budget-note"), "a spec's own budget is silently overridden")
    check(Select(c.d.find_element(By.ID, "level")).first_selected_option.get_attribute("value")
          == "custom", "editing a spec did not switch the level to custom")
    # The spec's budget is the one searched: 50 simulations, whatever the think time.
    c.start("duel", "blue", orange="mcts:sims=50,threads=1", think=3000)
    c.button("start")
    for _ in range(3):
        c.key("e")
    sims = c.wait(lambda: c.js("return window.morne.turnDecisions.map(d => d.reply.simulations)"),
                  "orange's decisions")
    check(all(s <= 60 for s in sims), f"mcts:sims=50 searched {sims} simulations")


def test_ai_panel_and_move_now(c):
    """Watching crossing: the AI's candidates while it thinks, Move now, its moves marked."""
    c.start("crossing", "watch", blue="mcts:threads=2", orange="rule", think=15000)
    c.d.find_element(By.ID, "start").click()
    c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#ai table.candidates tr"), "candidates")
    check(c.shown("move-now"), "no Move now button while the AI thinks")
    c.shot("client-ai.png")
    started = time.time()
    c.d.find_element(By.ID, "move-now").click()
    c.wait(lambda: "moved now" in c.text("ai-title"), "the stopped search's move", timeout=10)
    check(time.time() - started < 5, "Move now took more than 5 s")
    c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#map g.arrow.ai"), "the AI's move marked")
    c.js("window.morne.generation++")  # stop watching


def test_vp_track(c):
    c.begin("crossing", "two")
    check("VP now" in c.text("score"), f"no VP track: {c.text('score')!r}")
    handicap = engine_session(c.port, "crossing")
    given = handicap.call({"cmd": "result"})["handicap"]
    handicap.close()
    side = "blue" if given["blue"] else "orange"
    check(f"handicap +{given[side]:g} VP to {side}" in c.text("score"),
          f"the score panel does not show crossing's handicap {given}: {c.text('score')!r}")
    holders = {e.get_attribute("data-objective"): e.get_attribute("data-holder")
               for e in c.d.find_elements(By.CSS_SELECTOR, "#map g.objective")}
    probe = engine_session(c.port, "crossing")
    result = probe.call({"cmd": "result"})
    probe.close()
    expected = {o["hex"]: o["holder"] or "none" for o in result["objectives"]}
    check(holders == expected, f"objective holders drawn {holders} != the engine's {expected}")


def test_zoom_hit_testing(c):
    c.begin("crossing", "two")
    c.key("+")
    c.key("+")
    scale = float(c.d.find_element(By.ID, "map").get_attribute("data-scale"))
    check(scale > 1.4, f"the keys did not zoom: scale {scale}")
    units = c.js("return window.morne.state.units.filter(u => u.hex).map(u => u.id)")
    for unit in units:
        element = c.d.find_element(By.CSS_SELECTOR, f"#map g.unit[data-unit='{unit}']")
        box = c.js("const r = arguments[0].getBoundingClientRect(); const m = "
                   "document.getElementById('map').getBoundingClientRect(); return r.left > m.left "
                   "&& r.right < m.right && r.top > m.top && r.bottom < m.bottom", element)
        if not box or not unit.startswith("B-"):
            continue
        c.mouse_click(element)
        check(c.js("return window.morne.selected") == unit,
              f"a click on {unit} after zooming selected {c.js('return window.morne.selected')}")
        break
    else:
        raise AssertionError("no blue unit in view after zooming")
    c.key("f")
    check(c.d.find_element(By.ID, "map").get_attribute("data-scale") == "1.00", "F did not fit")
    # The wheel zooms at the pointer: the counter under it stays under it.
    where = ("const r = document.querySelector(\"#map g.unit[data-unit='B-I1'] rect\")"
             ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
    x, y = c.js(where)
    for _ in range(3):
        c.js("document.getElementById('map').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, "
             "clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}))", x, y)
    x2, y2 = c.js(where)
    scale = float(c.d.find_element(By.ID, "map").get_attribute("data-scale"))
    check(scale > 1.9 and abs(x2 - x) < 2 and abs(y2 - y) < 2,
          f"the wheel zoomed to {scale} and moved the counter under the pointer from {(x, y)} to {(x2, y2)}")
    c.key("f")


def test_click_timings(c):
    """Click to board: a click on a unit until its reachable hexes are drawn (median of 9)."""
    figures = []
    for scenario in ("duel", "crossing"):
        c.begin(scenario, "two")
        units = c.js("return window.morne.state.units.filter(u => u.hex && u.id.startsWith('B-'))"
                     ".map(u => u.hex)")
        times = []
        for hex_ in (units * 9)[:9]:
            times.append(c.d.execute_async_script(
                "const done = arguments[1]; const t = performance.now(); "
                "window.morne.click(arguments[0]).then(() => done(performance.now() - t))", hex_))
        times.sort()
        figures.append(f"{scenario} {times[4]:.0f} ms (slowest {times[-1]:.0f})")
        check(times[4] < 500, f"a click on {scenario} takes {times[4]:.0f} ms to reach the board")
    print("click to board, median of 9: " + ", ".join(figures))


def test_help(c):
    c.begin("duel", "two")
    c.key("?")
    c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#help-body table"), "the help panel")
    c.wait(lambda: "C-CRT-1" in c.text("help-body"), "the combat results table")
    check("MV-COST-1" in c.text("help-body"), "no terrain chart")
    c.shot("client-help.png")
    c.button("help-close")


def play_randomly(c, seed, timeout=420):
    """Random legal clicks for the human sides until the result shows; returns the decisions."""
    rng = random.Random(seed)
    end = time.time() + timeout
    decisions = 0
    while time.time() < end:
        c.idle()
        if c.d.find_element(By.ID, "result").get_attribute("hidden") is None:
            return decisions
        confirm = c.d.find_elements(By.ID, "confirm-step")
        if confirm:
            c.js("arguments[0].click()", confirm[0])
            c.idle()
            continue
        legal = c.js("return window.morne.legal") or []
        status = c.js("return window.morne.status") or {}
        humans = c.js("return [...window.morne.mode.humans]")
        side = 0 if status.get("side") == "blue" else 1
        if not legal or side not in humans or status.get("chance"):
            time.sleep(0.05)
            continue
        decisions += 1
        ending = [a for a in legal if a["text"] == "end"]
        others = [a for a in legal if a["text"] != "end"]
        if ending and (not others or rng.random() < 0.35):
            c.key("e")
            continue
        a = rng.choice(others)["action"]
        kind = a["type"]
        if kind == "place":
            c.click_hex(a["to"])
        elif kind in ("move", "fire", "attack"):
            c.click_unit(a["unit"])
            c.click_hex(a["to"])
            if kind != "move":  # the preview, then the confirming click
                c.click_hex(a["to"])
        else:  # hold, charge: the prompt's buttons (no second click on the unit)
            text = next(x["text"] for x in legal if x["action"] == a)
            buttons = c.d.find_elements(By.CSS_SELECTOR, f"#actions button[data-action='{text}']")
            check(buttons, f"the decision {text} is not offered as a button")
            buttons[0].click()
            c.idle()
    raise AssertionError(f"no result after {timeout} s ({decisions} decisions)")


def test_full_games_and_review(c):
    """Whole games through the UI at 1024 x 768, then review mode on the last."""
    timings = []
    for scenario, mode, seed in [("crossing-graded", "blue", 5), ("crossing", "orange", 6),
                                 ("duel", "blue", 7)]:
        c.begin(scenario, mode, orange="rule", blue="rule")
        started = time.time()
        decisions = play_randomly(c, seed)
        result = c.d.find_element(By.ID, "result")
        check(result.get_attribute("data-winner") in ("blue", "orange", "draw"), "no winner shown")
        check(result.find_elements(By.CSS_SELECTOR, "ul.vp-breakdown li"), "no VP breakdown")
        timings.append(f"{scenario} as {mode}: {decisions} decisions in {time.time() - started:.0f} s, "
                       f"{result.text.splitlines()[0]}")
    c.shot("client-result.png")
    check(c.text("ai-title").startswith("Game over"), f"AI panel after the end: {c.text('ai-title')!r}")
    print("full games against rule: " + "; ".join(timings))

    # Review: the positions are replay's, the graph has one point per recorded decision.
    c.key("v")
    c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#review-list .ply"), "the move list")
    plies = len(c.d.find_elements(By.CSS_SELECTOR, "#review-list .ply"))
    decisions = len(c.d.find_elements(By.CSS_SELECTOR, "#review-list .ply.decision"))
    saved = c.js("return window.morne.review.record")
    probe = engine_session(c.port)
    probe.call({"cmd": "load_game", "record": saved})
    for ply in sorted({0, 1, plies // 3, plies // 2, plies - 1, plies}):
        c.js("window.morne.review.goTo(arguments[0])", ply)
        c.idle()
        expected = probe.call({"cmd": "replay", "ply": ply})
        mine = c.state_hash()
        theirs = probe.call({"cmd": "state"})["state"]["hash"]
        check(mine == theirs, f"review at ply {ply} shows {mine}, replay gives {theirs}")
        check(expected["ply"] == ply, "replay did not reach the ply")
    probe.close()
    c.key("\ue012")  # the left arrow steps one ply back
    check(c.js("return window.morne.review.ply") == plies - 1, "the left arrow did not step back")
    c.button("review-evaluate")
    c.wait(lambda: "evaluated" in c.text("review-progress"), "the value graph", timeout=120)
    points = c.d.find_elements(By.CSS_SELECTOR, "#review-graph circle.point")
    check(len(points) == decisions, f"{len(points)} graph points for {decisions} decisions")
    target = int(points[len(points) // 2].get_attribute("data-ply"))
    c.mouse_click(points[len(points) // 2])
    check(c.js("return window.morne.review.ply") == target, "a click on the graph did not jump")
    c.button("review-end")
    c.key("\ue012")
    c.idle()
    status = c.js("return window.morne.status")
    if not status["chance"] and not status["terminal"]:
        c.d.find_element(By.ID, "review-analyse").click()
        c.wait(lambda: c.d.find_elements(By.CSS_SELECTOR, "#map g.arrow.candidate"),
               "the analysis's candidates on the map")
        c.d.find_element(By.ID, "review-stop").click()
        c.idle()
    c.shot("client-review.png")
    c.button("review")
    check(not c.js("return !!window.morne.review"), "the review did not close")


def test_reference_screens(c, update):
    """The set-up screen and the start of duel and crossing at 1024 x 768, against references."""
    c.fresh_page()
    differences = [c.compare_with_reference("setup-1024.png", update)]
    check(c.js("return document.documentElement.scrollWidth <= window.innerWidth"),
          "the set-up screen is wider than the window")
    for scenario in ("duel", "crossing"):
        c.begin(scenario, "two")
        box = c.js("const r = document.getElementById('map').getBoundingClientRect(); "
                   "return [r.width, r.height]")
        check(box[0] > 500 and box[1] > 550, f"the map fills {box} of a 1024 x 768 window")
        check(c.js("return document.documentElement.scrollWidth <= window.innerWidth"),
              f"the {scenario} screen is wider than the window")
        differences.append(c.compare_with_reference(f"{scenario}-1024.png", update))
    # On a large screen the map grows with it.
    set_viewport(c.d, 1920, 1080)
    try:
        # The page lays itself out again after the resize, later on a busy machine.
        deadline = time.monotonic() + 10
        while True:
            box = c.js("const r = document.getElementById('map').getBoundingClientRect(); "
                       "return [r.width, r.height]")
            if (box[0] > 1300 and box[1] > 900) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        check(box[0] > 1300 and box[1] > 900, f"the map fills {box} of a 1920 x 1080 window")
        differences.append(c.compare_with_reference("crossing-1920.png", update))
    finally:
        set_viewport(c.d, 1024, 768)
    print("screens against their references (mean grey-level difference): " +
          ", ".join(f"{d:.2f}" for d in differences))


def main():
    why = missing_tools()
    if why:
        sys.exit(f"browser test: {why}")
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update-references" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    morne = args[0]
    shots = args[1] if len(args) > 1 and args[1] != only else ""
    if shots:
        os.makedirs(shots, exist_ok=True)
    models = tempfile.mkdtemp(prefix="morne-browser-models-")
    open(os.path.join(models, "tiny.pt"), "w").close()  # listed, never loaded
    server = Server(morne, models).start()
    driver = None
    tests = [
        ("references", lambda c: test_reference_screens(c, update)),
        ("map", test_map_reach_refusal_undo_redo),
        ("charge", test_charge_prompt),
        ("previews", test_previews),
        ("takebacks", test_honest_takebacks),
        ("marsh", test_marsh_walks),
        ("autoend", test_end_after_an_automatic_end),
        ("orange", test_orange_sees_blues_moves),
        ("setup", test_setup_phase),
        ("errors", lambda c: test_setup_errors(c, morne, models)),
        ("survive", lambda c: test_games_survive(c, server)),
        ("levels", test_levels_and_budget),
        ("vp", test_vp_track),
        ("zoom", test_zoom_hit_testing),
        ("help", test_help),
        ("timings", test_click_timings),
        ("ai", test_ai_panel_and_move_now),
        ("scores", test_rule_scores_are_not_values),
        ("watch", test_watch_pause_and_step),
        ("keyboard", test_keyboard_turn),
        ("contrast", test_counter_contrast),
        ("coordinates", test_coordinates),
        ("games", test_full_games_and_review),
    ]
    try:
        driver = browser()
        c = Client(driver, server, shots)
        for name, test in tests:
            if only and name != only:
                continue
            started = time.time()
            test(c)
            print(f"browser: {name} passed in {time.time() - started:.1f} s", flush=True)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
                  and "WebSocket" not in e["message"]]
        check(not errors, f"the page logged errors: {errors[:3]}")
    finally:
        if driver:
            driver.quit()
        server.stop()
        shutil.rmtree(models, ignore_errors=True)
    print("browser: all checks passed")


if __name__ == "__main__":
    main()
