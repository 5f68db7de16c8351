"""The command line as a user meets it: results, determinism, and every misuse as exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import grammar
from boardrules.cli import main
from boardrules.editions import variant_targets
from spec import bundled, bundled_variants
from tests.grammar.test_errors import CASES, ROOT  # the malformed-spec corpus

EDITIONS = ["classic-se", "classic-nl", "classic-us"]


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result


def assert_usage_error(result, *needles: str) -> None:
    """Principle 8: a misuse is a clear message and exit status 2, never a traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for needle in needles:
        assert needle in result.stderr, result.stderr


def test_editions_lists_the_bundled_editions():
    """Issue 2 §6: `boardrules editions` lists every bundled edition."""
    result = run("editions")
    assert result.exit_code == 0
    for edition in EDITIONS + ["classic"]:
        assert edition in result.output


def test_check_passes_on_every_bundled_edition():
    """Issue 2, done when: `boardrules check` passes on every bundled edition."""
    result = run("check", *EDITIONS)
    assert result.exit_code == 0, result.stderr
    assert result.output.splitlines() == [f"ok: {e}" for e in EDITIONS]


def test_play_json_is_deterministic_and_complete():
    """DESIGN principle 6: one seed gives the same game, byte for byte."""
    first = run("play", "classic-se", "--players", "4", "--seed", "1", "--json")
    second = run("play", "classic-se", "--players", "4", "--seed", "1", "--json")
    assert first.exit_code == 0, first.stderr
    assert first.output == second.output
    summary = json.loads(first.output)
    for key in ("edition", "seed", "players", "turns", "winner", "ended_by", "standings"):
        assert key in summary
    assert summary["winner"] is not None or summary["ended_by"] == "turn_cap"


def test_play_log_replays_to_the_same_state(tmp_path: Path):
    """DESIGN principle 6: a game log replays to the same final state."""
    log = tmp_path / "game.json"
    played = run("play", "classic-us", "--seed", "3", "--json", "--log", str(log))
    assert played.exit_code == 0, played.stderr
    replayed = run("replay", str(log), "--json")
    assert replayed.exit_code == 0, replayed.stderr
    assert json.loads(replayed.output) == json.loads(played.output)


def test_play_tells_the_story():
    """Issue 2: `boardrules play` lets a designer watch a full game."""
    result = run("play", "classic-nl", "--players", "2", "--seed", "5", "--max-turns", "20")
    assert result.exit_code == 0, result.stderr
    assert "winner" in result.output or "no winner" in result.output
    assert len(result.output.splitlines()) > 20


def test_simulate_reports_the_statistics():
    """Issue 2 §6: simulate reports games, turns, wins by seat and strategy, cap share, landings."""
    result = run("simulate", "classic-us", "--games", "20", "--strategy", "heuristic", "--strategy", "random", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.output)
    assert report["games"] == 20
    assert set(report["turns"]) == {"mean", "median", "max"}
    assert sum(report["wins_by_seat"].values()) == 20  # at the turn cap the richest wins
    assert set(report["wins_by_strategy"]) <= {"heuristic", "random"}
    assert len(report["landings"]) == 40


def test_simulate_is_the_same_with_two_jobs():
    """DESIGN principle 6: game i gets the same seed however the games are split over processes."""
    one = run("simulate", "classic-se", "--games", "30", "--json")
    two = run("simulate", "classic-se", "--games", "30", "--json", "--jobs", "2")
    assert json.loads(one.output) == json.loads(two.output)


@pytest.mark.parametrize(
    "args, needles",
    [
        (["play", "classic-xx"], ["no edition `classic-xx`", "hint"]),
        (["play", "classic"], ["abstract", "hint"]),
        (["play", "classic-us", "--players", "9"], ["2 to 8 players", "hint"]),
        (["play", "classic-us", "--players", "0"], ["--players"]),
        (["play", "classic-us", "--strategy", "genius"], ["genius"]),
        (["play", "classic-us", "--players", "2", *["--strategy", "random"] * 3], ["3 strategies for 2 players"]),
        (["play", "classic-us", "--seed", "abc"], ["--seed"]),
        (["play", "classic-us", "--max-turns", "0"], ["--max-turns"]),
        (["play"], ["SPEC"]),
        (["check"], ["SPECS"]),
        (["check", "missing.rules"], ["no spec file `missing.rules`"]),
        (["replay", "no-such-log.json"], ["no game log"]),
        (["simulate", "classic-us", "--games", "0"], ["--games"]),
        (["simulate", "classic-us", "--strategy", "human"], ["cannot seat a human"]),
        (["conquer"], ["conquer"]),
    ],
)
def test_command_line_misuse_is_exit_2(args, needles):
    """DESIGN principle 8: a wrong command line gets one clear message and exit 2."""
    assert_usage_error(run(*args), *needles)


def test_log_in_a_missing_folder_writes_nothing(tmp_path: Path):
    """Standards: bad input leaves nothing half-written."""
    target = tmp_path / "nowhere" / "game.json"
    assert_usage_error(run("play", "classic-us", "--log", str(target)), "no folder")
    assert not target.parent.exists()


def write_log(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_truncated_log_points_at_the_break(tmp_path: Path):
    """DESIGN principle 8: a corrupt saved game gets file:line:column, a caret and a hint."""
    path = write_log(tmp_path, '{"header": {"spec": "classic-us"},\n "events": [1, 2')
    result = run("replay", path)
    assert_usage_error(result, "error[E902]", f"{path}:2:", "^", "hint")


def test_truncated_long_log_is_not_echoed(tmp_path: Path):
    """Issue #19: a one-line log cut off after 50 KB shows a short frame, the caret at the break."""
    path = write_log(tmp_path, '{"header": {"spec": "classic-us"}, "events": [' + "1, " * 17_000)
    result = run("replay", path)
    assert_usage_error(result, "error[E902]", f"{path}:1:", "…")
    assert len(result.stderr) < 1000, result.stderr[:300]


def test_log_that_is_not_an_object(tmp_path: Path):
    """DESIGN principle 8: a saved game of the wrong shape is named, with a hint."""
    assert_usage_error(run("replay", write_log(tmp_path, "[1, 2, 3]")), "error[E903]", "hint")


def test_log_missing_its_events(tmp_path: Path):
    """DESIGN principle 8: a saved game missing a part says which."""
    result = run("replay", write_log(tmp_path, '{"header": {"spec": "classic-us"}, "final": {}}'))
    assert_usage_error(result, "error[E903]", "`events`")


def test_log_not_utf8(tmp_path: Path):
    """DESIGN principle 8: a binary file given as a log is refused with a location."""
    path = tmp_path / "game.json"
    path.write_bytes(b'{"header":\n  \xff\xfe}')
    assert_usage_error(run("replay", str(path)), "error[E901]", f"{path}:2:3", "^")


def test_tampered_log_does_not_replay(tmp_path: Path):
    """DESIGN principle 6: a log whose events were changed does not replay to its recorded state."""
    log = tmp_path / "game.json"
    assert run("play", "classic-us", "--seed", "2", "--log", str(log), "--json").exit_code == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    data["final"] = json.loads(json.dumps(data["final"]).replace('"cash": ', '"cash": 1', 1))
    log.write_text(json.dumps(data), encoding="utf-8")
    assert_usage_error(run("replay", str(log)), "error")


def test_check_reports_spec_errors_with_exit_2(tmp_path: Path):
    """DESIGN principle 8: a broken spec is located, with a caret and a hint."""
    spec = tmp_path / "broken.rules"
    spec.write_text("edition broken extends classic\n\nmoney {\n  salary = yes\n}\n", encoding="utf-8")
    result = run("check", str(spec))
    assert_usage_error(result, "error[E", f"{spec}:", "^", "hint")


def test_human_player_is_told_the_game_before_each_choice():
    """Issue 2: a designer plays at the terminal against bots, seeing what happened first."""
    result = run("play", "classic-us", "--players", "2", "--strategy", "human", "--strategy", "heuristic",
                 "--seed", "3", "--max-turns", "2", input="1\n" * 50)
    assert result.exit_code == 0, result.stderr
    before_first_prompt = result.output.split("choose a number")[0]
    assert "seat 1 buys St. Charles Place" in before_first_prompt
    assert "1. Done" in before_first_prompt


def test_human_input_ending_stops_with_exit_2():
    """DESIGN principle 8: a closed terminal ends the game with a message and exit 2, no traceback."""
    result = run("play", "classic-us", "--players", "2", "--strategy", "human", "--seed", "3", input="")
    assert result.exit_code == 2
    assert "input ended" in result.stderr


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_malformed_spec_is_exit_2_through_the_command(case, tmp_path: Path):
    """DESIGN principle 8: each malformed spec of the corpus, given to `boardrules check`,
    prints its code with a location and a hint and exits 2, never a traceback."""
    spec = tmp_path / "broken.rules"
    spec.write_text(case.text, encoding="utf-8")
    variants = [arg for v in case.variants
                for arg in ("--variant", v if v in bundled_variants()
                            else str(ROOT / "tests" / "grammar" / "variants" / f"{v}.rules"))]
    result = run("check", str(spec), *variants)
    assert_usage_error(result, f"error[{case.code}]", "hint")
    if case.line and not case.variants:     # an error in a variant file points into that file
        assert f"{spec}:{case.line}:{case.column}" in result.stderr


def test_verify_takes_variants(tmp_path: Path):
    """Issue 5 §4: a variant goes through the verifier like an edition (the jackpot's pot joins
    money conservation, RULES-MATRIX §3)."""
    result = run("verify", "classic-se", "--variant", "jackpot", "--no-prove", "--examples", "3",
                 "--traces", str(tmp_path), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.output)["editions"][0]
    assert "money_conservation" in json.dumps(report)


def test_verify_ends_with_one_summary_of_every_target(tmp_path: Path):
    """Issue 22 §4: the run ends with one table, a row per target, and a last line that adds
    them up; without proofs the proof columns are left out, and the invariants are listed
    rather than a grid of empty cells."""
    result = run("verify", "classic-se", "classic-us", "--no-prove", "--examples", "2", "--traces", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    lines = result.output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("target "))
    assert lines[head].split() == ["target", "violated", "examples", "games", "seconds"]
    assert [line.split()[:2] for line in lines[head + 1:head + 3]] == [["classic-se", "0"], ["classic-us", "0"]]
    assert lines[-1].startswith("2 targets: 0 violated, Z3 proofs skipped (")
    assert "x 1 columns" not in result.output and "  money_conservation  " in result.output
    doc = json.loads(run("verify", "classic-us", "--no-prove", "--examples", "2", "--traces", str(tmp_path),
                         "--json").output)
    assert doc["summary"] | {"seconds": 0} == {"targets": 1, "seconds": 0, "proved": 0, "bounded": 0,
                                                "violated": 0, "unknown": 0, "examples_failed": 0}


def test_the_summary_of_a_run_with_proofs_counts_every_verdict():
    """Issue 22 §4: with proofs, the summary has a column per kind of verdict and its last
    line adds them up over the targets, thousands grouped, the time in minutes and seconds."""
    from boardrules.verify import summary
    entries = [{"edition": edition, "proofs": True, "examples": [{"passed": True}, {"passed": passed}],
                "exploration": {"games": 40}, "seconds": 100.0,
                "summary": {"proved": proved, "bounded": 700, "violated": 0, "unknown": unknown}}
               for edition, proved, unknown, passed in (("classic-se", 453, 0, True), ("metropol-da", 1345, 2, False))]
    lines = summary(entries, 242.4).splitlines()
    assert lines[0].split() == ["target", "proved", "bounded", "violated", "unknown", "examples", "games", "seconds"]
    assert lines[2].split() == ["metropol-da", "1,345", "700", "0", "2", "1/2", "40", "100.0"]
    assert lines[-1] == ("2 targets: 0 violated, 1,798 proved, 1,400 bounded, 2 unknown, "
                         "1 worked example fails (4 min 02 s)")


def test_verify_without_a_spec_covers_every_variant():
    """The verifier issue: `boardrules verify` with no argument checks every bundled edition and
    variant; each variant is laid over the first edition of its family (and compiles there)."""
    targets = {variant: eid for eid, variant in variant_targets()}
    assert set(targets) == set(bundled_variants())
    for variant, eid in targets.items():
        ir = grammar.compile_file(bundled()[eid], [bundled_variants()[variant]])
        assert ir["edition"]["variants"] == [variant]
