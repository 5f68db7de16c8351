"""Tell a game, its standings and a simulation in plain text."""
from __future__ import annotations

from .money import format_money


def narrate(ir: dict, events: list[dict]) -> list[str]:
    """One line per event, with square names and money written the edition's way."""
    money = ir["settings"]["money"]
    squares = ir["squares"]
    lines = []
    for event in events:
        fields = []
        for key, value in event.items():
            if key == "type":
                continue
            if key in ("amount", "bid", "price", "cash") and isinstance(value, int):
                value = format_money(money, value)
            elif key in ("square", "to", "from_square") and isinstance(value, int) and 0 <= value < len(squares):
                value = squares[value]["name"]
            fields.append(f"{key}={value}")
        lines.append(f"{event.get('type', '?'):<12} " + " ".join(fields))
    return lines


def standings_table(ir: dict, summary: dict) -> str:
    """The final ranking, one player a line."""
    money = ir["settings"]["money"]
    head = f"{ir['edition']['id']}: {summary['turns']} turns, ended by {summary['ended_by']}"
    rows = [head]
    for place, row in enumerate(summary["standings"], start=1):
        status = "bankrupt" if row["bankrupt"] else f"cash {format_money(money, row['cash'])}, score {format_money(money, row['score'])}"
        rows.append(f"  {place}. seat {row['seat']} ({row['strategy']}): {status}")
    winner = summary["winner"]
    rows.append(f"winner: seat {winner}" if winner is not None else "no winner")
    return "\n".join(rows)


def simulation_report(report: dict) -> str:
    """The `simulate` statistics as a short text report."""
    turns = report["turns"]
    out = [
        f"{report['edition']}: {report['games']} games, {report['players']} players ({', '.join(report['strategies'])}), seed {report['seed']}",
        f"turns per game: mean {turns['mean']}, median {turns['median']}, max {turns['max']}",
        f"stopped by the turn cap: {report['turn_cap_share']:.1%}",
        "ended by: " + ", ".join(f"{why} {n}" for why, n in report["ended_by"].items()),
        "wins by seat: " + ", ".join(f"{seat}: {n}" for seat, n in report["wins_by_seat"].items()),
        "wins by strategy: " + ", ".join(f"{name}: {n}" for name, n in report["wins_by_strategy"].items()),
        "landing frequency:",
    ]
    out += [f"  {row['index']:>2} {row['square']:<28} {row['share']:7.2%}" for row in report["landings"]]
    return "\n".join(out)
