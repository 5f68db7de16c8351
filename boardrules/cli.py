"""The `boardrules` command: the one place that sees every layer, kept thin."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

import grammar
import interpreter
from grammar.lookup import resolve
from interpreter import strategies
from interpreter.strategies.human import Human
from spec import Refusal, bundled, resolve_variant
from verifier import atomic, trace

from . import simulate as simulation
from .checked import Checked
from .checked import as_json as checked_json
from .checked import as_sarif as checked_sarif
from .checked import text as checked_text
from .editions import Loaded, UsageError, load
from .logfile import check_seats, read_json, read_log
from .narrate import narrate, simulation_report, standings_table

VARIANT = click.option("--variant", "variants", multiple=True, metavar="VARIANT",
                       help="Lay a variant over the edition (a bundled id such as `short`, or a .rules path); "
                            "repeat to combine.")


class Command(click.Group):
    """Turns every known failure into a located message and exit status 2, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except grammar.SpecError as error:
            click.echo(error.render(), err=True)
        except Refusal as error:            # the CLI's own, a spec not found, a path not writable
            click.echo(error.render(), err=True)
        except interpreter.ReplayError as error:
            click.echo(f"error: {error}", err=True)
        except interpreter.RuleError as error:
            click.echo(error.render(), err=True)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(2)


@click.group(cls=Command)
def main() -> None:
    """Monopoly-family editions as data: check them, play them, simulate them."""


@main.command()
def editions() -> None:
    """List the bundled editions."""
    for eid, path in bundled().items():
        ir = grammar.compile_file(path)
        about = ir["edition"]
        kind = "abstract base" if about.get("abstract") else f"{about.get('title', '')} ({about.get('language', '')})"
        click.echo(f"{eid:<14} {kind}")


@main.command()
@click.argument("specs", nargs=-1, required=True)
@click.option("--ir", "show_ir", is_flag=True, help="Print the compiled IR as JSON.")
@click.option("--strict", is_flag=True, help="Make every warning an error: exit status 2 on any.")
@click.option("--json", "as_json", is_flag=True, help="Print every error and warning as JSON (--format json).")
@click.option("--format", "form", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True,
              help="text for people; json or sarif (SARIF 2.1.0) for editors and CI, on standard output.")
@VARIANT
def check(specs: tuple[str, ...], show_ir: bool, strict: bool, as_json: bool, form: str,
          variants: tuple[str, ...]) -> None:
    """Compile each SPEC (an edition id or a .rules path), with any variants, and report errors and warnings."""
    if as_json and form == "sarif":
        raise UsageError("--json and --format sarif ask for two formats", "give one of them")
    form = "json" if as_json else form
    if show_ir and form != "text":
        raise UsageError(f"--ir prints the IR, --format {form} the diagnostics", "give one of them")
    overlays = [resolve_variant(v) for v in variants]
    results = []
    for spec in specs:
        checked = Checked(spec, variants)
        try:
            checked.ir, checked.diagnostics = grammar.check_file(resolve(spec), overlays)
        except grammar.SpecError as error:
            checked.diagnostics = error.diagnostics
        results.append(checked.strict() if strict else checked)
        if form == "text":
            out, err = checked_text(results[-1])
            if err:
                click.echo(err, err=True)
            if show_ir and checked.ir is not None:
                click.echo(json.dumps(checked.ir, ensure_ascii=False, indent=2))
            elif out:
                click.echo(out)
    if form != "text":
        click.echo(checked_json(results, strict) if form == "json" else checked_sarif(results))
    if any(result.failed for result in results):
        sys.exit(2)


def seat_strategies(players: int, chosen: tuple[str, ...]) -> list[str]:
    """One strategy per seat: the ones given, in seat order, the last repeated for the rest."""
    if len(chosen) > players:
        raise UsageError(f"{len(chosen)} strategies for {players} players", "give at most one --strategy per player")
    chosen = chosen or ("heuristic",)
    return list(chosen) + [chosen[-1]] * (players - len(chosen))


def check_players(loaded: Loaded, players: int) -> None:
    limits = loaded.ir["settings"]["game"]["players"]
    if not limits["min"] <= players <= limits["max"]:
        raise UsageError(
            f"`{loaded.ir['edition']['key']}` is for {limits['min']} to {limits['max']} players, not {players}",
            f"use --players between {limits['min']} and {limits['max']}",
        )


STRATEGY = click.Choice(strategies.NAMES)


class Story:
    """The game told so far: each event is told once, as soon as someone needs to know it."""

    def __init__(self, ir: dict) -> None:
        self.ir = ir
        self.told = 0

    def tell(self, events: list[dict]) -> None:
        for line in narrate(self.ir, events[self.told :]):
            click.echo(line)
        self.told = len(events)


class TellingHuman(Human):
    """A human at the terminal who is told what happened before each choice."""

    def __init__(self, story: Story) -> None:
        super().__init__()
        self.story = story

    def choose(self, game: interpreter.Game, seat: int, actions: list) -> object:
        self.story.tell(game.events)
        return super().choose(game, seat, actions)


@main.command()
@click.argument("spec")
@click.option("--players", default=4, show_default=True, type=click.IntRange(min=1), help="Number of players.")
@click.option("--strategy", "chosen", multiple=True, type=STRATEGY,
              help="Strategy per seat, in seat order; the last one fills the remaining seats (default heuristic).")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(min=0),
              help="Seed of the game's random source.")
@click.option("--max-turns", type=click.IntRange(min=1),
              help="Stop after this many rounds (every player one turn; default: the edition's turn cap).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game log (JSON) here, for `replay`.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object with the result instead of the game's story.")
@click.option("--check", "check_invariants", is_flag=True, help="Check the built-in invariants after every event.")
@VARIANT
def play(spec: str, players: int, chosen: tuple[str, ...], seed: int, max_turns: int | None, log_path: Path | None,
         as_json: bool, check_invariants: bool, variants: tuple[str, ...]) -> None:
    """Play one game of SPEC and tell it, or print its result as JSON."""
    loaded = load(spec, variants)
    check_players(loaded, players)
    seats = seat_strategies(players, chosen)
    if log_path is not None:
        atomic.check(log_path, "--log")
    story = Story(loaded.ir)
    players = [TellingHuman(story) if name == "human" else strategies.make(name, seed, seat)
               for seat, name in enumerate(seats)]
    result = interpreter.play(loaded.edition, seats, seed=seed, max_turns=max_turns, log=True,
                              check_invariants=check_invariants, strategy_objects=players)
    if log_path is not None:
        log = result.log()
        # A bundled edition is found again by its id; any other spec by its full path.
        log["header"]["spec"] = spec if spec in bundled() else str(loaded.path.resolve())
        log["header"]["variants"] = [str(path.resolve()) for path in loaded.variants]
        atomic.write(log_path, json.dumps(log, ensure_ascii=False), "--log")
    summary = result.summary()
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    story.tell(result.events)
    click.echo(standings_table(loaded.ir, summary))


@main.command()
@click.argument("log_path", metavar="LOG", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the replayed result as JSON.")
def replay(log_path: Path, as_json: bool) -> None:
    """Replay a game LOG written by `play --log` and confirm it ends in the same state, or a
    trace file written by `verify` and confirm its violation (exit status 1)."""
    doc = read_json(log_path)
    if trace.is_trace(doc):
        from .verify import replay_trace

        sys.exit(replay_trace(log_path, doc, as_json))
    log = read_log(log_path, doc)
    loaded = load(log["header"]["spec"], tuple(log["header"].get("variants") or ()))
    check_seats(log_path, log, loaded.ir)
    result = interpreter.replay(loaded.edition, log)
    summary = result.summary()
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    click.echo(f"replayed {len(log['events'])} events: same final state")
    click.echo(standings_table(loaded.ir, summary))


@main.command()
@click.argument("spec")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1), help="Number of games.")
@click.option("--players", default=4, show_default=True, type=click.IntRange(min=1), help="Players per game.")
@click.option("--strategy", "chosen", multiple=True, type=STRATEGY, help="Strategy per seat (as for `play`).")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(min=0),
              help="Seed of the whole run; game i gets its own seed from it.")
@click.option("--max-turns", type=click.IntRange(min=1), help="Round cap per game (default: the edition's turn cap).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1), help="Worker processes.")
@click.option("--debug", is_flag=True, help="Check the built-in invariants after every event (slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the statistics (the table, or JSON with --json) to this file instead of printing them: "
                   "whole, or not at all.")
@VARIANT
def simulate(spec: str, games: int, players: int, chosen: tuple[str, ...], seed: int, max_turns: int | None,
             jobs: int, debug: bool, as_json: bool, out_path: Path | None, variants: tuple[str, ...]) -> None:
    """Play many games of SPEC and report turns, wins and landing frequencies."""
    from tqdm import tqdm

    loaded = load(spec, variants)
    check_players(loaded, players)
    seats = seat_strategies(players, chosen)
    if "human" in seats:
        raise UsageError("`simulate` cannot seat a human player", "use `play` to play against the bots")
    if out_path is not None:
        atomic.check(out_path, "--out")
    tally = simulation.Tally([square["name"] for square in loaded.ir["squares"]])
    with tqdm(total=games, unit="game", file=sys.stderr, disable=None) as bar:
        for summary in simulation.run(loaded.path, loaded.variants, loaded.edition, seats, games, seed, max_turns,
                                      debug, jobs, bar.update):
            tally.add(summary)
    report = {"edition": loaded.ir["edition"]["key"], "variants": list(variants), "players": players,
              "strategies": seats, "seed": seed, "debug": debug, **tally.report()}
    text = json.dumps(report, ensure_ascii=False, sort_keys=True) if as_json else simulation_report(report)
    if out_path is None:
        click.echo(text)
    else:
        atomic.write(out_path, text + "\n", "--out")


@main.command()
@click.argument("specs", nargs=-1)
@click.option("--out", default="site", show_default=True, help="Folder of the built site.")
@click.option("--serve", "serve_it", is_flag=True,
              help="Serve the site on http://127.0.0.1:8000 and rebuild on changes.")
@VARIANT
def docs(specs: tuple[str, ...], out: str, serve_it: bool, variants: tuple[str, ...]) -> None:
    """Build the rulebooks site (every bundled edition, or each SPEC, with any variants) with mkdocs, strict."""
    try:
        from rulebook.build import build_site
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "mkdocs":
            raise
        raise UsageError("mkdocs is not installed: pip install 'boardrules[docs]'",
                         "`boardrules docs` builds the rulebooks with mkdocs, "
                         "which the `docs` extra installs") from None

    if serve_it:
        click.echo("serving the rulebooks on http://127.0.0.1:8000/ (Ctrl-C stops)")
    index = build_site(out, specs, serve_it, variants)
    if serve_it:
        raise KeyboardInterrupt     # mkdocs serve returns only once Ctrl-C has stopped it
    click.echo(f"built {index.parent}/: open {index}")


@main.command()
@click.argument("specs", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
@click.option("--depth", default=2, show_default=True, type=click.IntRange(min=0),
              help="Bounded model checking depth (actions from the start).")
@click.option("--examples", type=click.IntRange(min=1),
              help="Games Hypothesis explores per edition (default 40; BOARDRULES_EXPLORE_EXAMPLES).")
@click.option("--players", default=2, show_default=True, type=click.IntRange(min=1), help="Players in the proofs.")
@click.option("--mutate", is_flag=True, help="Also score the checks against mutants of each spec.")
@click.option("--mutants", "only", default="",
              help="With --mutate: only the mutants whose description contains this text.")
@click.option("--traces", "trace_dir", default="traces", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Folder for violation trace files.")
@click.option("--no-prove", "no_prove", is_flag=True, help="Explore only (no Z3 proofs).")
@VARIANT
def verify(specs: tuple[str, ...], as_json: bool, depth: int, examples: int | None, players: int, mutate: bool,
           only: str, trace_dir: Path, no_prove: bool, variants: tuple[str, ...]) -> None:
    """Verify each SPEC (default: every bundled edition): invariants x actions, proved by Z3 and explored by
    Hypothesis; exit 1 when anything is violated."""
    from .verify import run

    sys.exit(run(specs, as_json, depth, examples, players, mutate, trace_dir, not no_prove, variants, only))


if __name__ == "__main__":
    main()
