"""Tell a game, its standings and a simulation in plain text."""
from __future__ import annotations

from ir.money import format_money


def narrate(ir: dict, events: list[dict]) -> list[str]:
    """One line per event, with square names and money written the edition's way."""
    money = ir["settings"]["money"]
    squares = [square["name"] for square in ir["squares"]]
    decks = [deck["name"] for deck in ir["decks"]]
    areas = [area.get("name") or area["key"] for area in ir.get("areas", [])]
    things = {"area": areas, "square": squares, "deed": squares}
    elements = {act["key"]: things.get(act["element"]) for act in ir.get("actions", [])}

    def cash(amount: int) -> str:
        return format_money(money, amount)

    def party(seat: int) -> str:
        return "the bank" if seat < 0 else f"seat {seat}"

    def action(choice: dict) -> str:
        fields = ", ".join(f"{k} {squares[v] if k == 'square' else v}" for k, v in choice.items() if k != "action")
        return f"{choice['action']}({fields})" if fields else choice["action"]

    def trade(offer: dict) -> str:
        gives = [squares[i] for i in offer["give"]] + [f"{n} jail card(s)" for n in [len(offer["give_cards"])] if n]
        gets = [squares[i] for i in offer["get"]] + [f"{n} jail card(s)" for n in [len(offer["get_cards"])] if n]
        if offer["cash"] > 0:
            gives.append(cash(offer["cash"]))
        elif offer["cash"] < 0:
            gets.append(cash(-offer["cash"]))
        return f"gives {', '.join(gives) or 'nothing'} for {', '.join(gets) or 'nothing'}"

    tell = {
        "start": lambda e: f"{e['edition']}, seed {e['seed']}: "
                           + ", ".join(f"seat {player['seat']} {player['strategy']}" for player in e["players"]),
        "roll_off": lambda e: f"seat {e['seat']} rolls {e['total']} for the start",
        "turn": lambda e: f"-- turn {e['turn']}: seat {e['seat']}",
        "roll": lambda e: f"seat {e['seat']} rolls {' + '.join(map(str, e['dice']))}"
                          + (f" ({e['purpose']})" if e.get("purpose") else ""),
        "move": lambda e: f"seat {e['seat']} moves {e['steps']} from {squares[e['from_square']]} to {squares[e['to']]}",
        "transfer": lambda e: f"{party(e['payer'])} pays {party(e['payee'])} {cash(e['amount'])} ({e['reason']})",
        "choice": lambda e: f"seat {e['seat']} chooses {action(e['action'])}"
                            + (f" by default ({e['default']})" if "default" in e else ""),
        "buy": lambda e: f"seat {e['seat']} buys {squares[e['square']]} for {cash(e['price'])}",
        "auction": lambda e: f"auction of {squares[e['square']]}: "
                             + (f"seat {e['winner']} wins at {cash(e['price'])}" if e["winner"] >= 0
                                else "no bid, the bank keeps it"),
        "house_auction": lambda e: f"a house goes to seat {e['winner']} at auction for {cash(e['price'])}",
        "draw": lambda e: f"seat {e['seat']} draws {decks[e['deck']]}: \"{e.get('text', e['card'])}\"",
        "keep": lambda e: f"seat {e['seat']} keeps the card",
        "jail": lambda e: f"seat {e['seat']} goes to jail ({e['reason']})",
        "leave_jail": lambda e: f"seat {e['seat']} leaves jail ({e['how']})",
        "trade": lambda e: f"seat {e['seat']} offers seat {e['partner']} a trade ({trade(e['offer'])}): "
                           + ("accepted" if e["accepted"] else "refused"),
        "bankrupt": lambda e: f"seat {e['seat']} is bankrupt to {party(e['creditor'])}",
        "set": lambda e: (f"{areas[e['area']]}: {e['state']} = {e['value']}" if "area" in e
                          else f"seat {e['seat']}: {e['state']} = {e['value']}"),
        "action": lambda e: f"seat {e['seat']} takes {e['action']}: "
                            + (elements[e["action"]][e["item"]] if elements.get(e["action"]) else str(e["item"])),
        "end": lambda e: f"game over after {e['rounds']} rounds ({e['turns']} turns), ended by {e['ended_by']}",
    }
    lines = []
    for event in events:
        if event["type"] == "choice" and event["action"]["action"] == "Done" and "default" not in event:
            continue  # the player did nothing between rolls
        if event["type"] in tell:
            lines.append(tell[event["type"]](event))
        else:  # building, mortgages, trades: the event's own fields say enough
            details = ", ".join(f"{k} {squares[v] if k == 'square' else v}" for k, v in event.items()
                                if k not in ("type", "seat"))
            lines.append(f"seat {event.get('seat', '?')} {event['type'].replace('_', ' ')}: {details}")
    return lines


def standings_table(ir: dict, summary: dict) -> str:
    """The final ranking, one player a line."""
    money = ir["settings"]["money"]
    head = f"{ir['edition']['key']}: {summary['turns']} turns, ended by {summary['ended_by']}"
    rows = [head]
    for place, row in enumerate(summary["standings"], start=1):
        status = "bankrupt" if row["bankrupt"] else \
            f"cash {format_money(money, row['cash'])}, score {format_money(money, row['score'])}"
        rows.append(f"  {place}. seat {row['seat']} ({row['strategy']}): {status}")
    winner = summary["winner"]
    rows.append(f"winner: seat {winner}" if winner is not None else "no winner")
    return "\n".join(rows)


def simulation_report(report: dict) -> str:
    """The `simulate` statistics as a short text report."""
    turns = report["turns"]
    out = [
        f"{report['edition']}: {report['games']} games, {report['players']} players "
        f"({', '.join(report['strategies'])}), seed {report['seed']}",
        f"turns per game: mean {turns['mean']}, median {turns['median']}, max {turns['max']}",
        f"stopped by the turn cap: {report['turn_cap_share']:.1%}",
        "ended by: " + ", ".join(f"{why} {n}" for why, n in report["ended_by"].items()),
        "turns by ending: " + ", ".join(f"{why} {e['share']:.1%} of games, mean {e['mean']} turns, median {e['median']}"
                                        for why, e in report.get("turns_by_ending", {}).items()),
        "wins by seat: " + ", ".join(f"{seat}: {n}" for seat, n in report["wins_by_seat"].items()),
        "wins by strategy: " + ", ".join(f"{name}: {n}" for name, n in report["wins_by_strategy"].items()),
    ]
    out += [f"{name}: mean {figures['mean']}, max {figures['max']}"
            for name, figures in report.get("statistics", {}).items()]
    out += ["landing frequency:"]
    out += [f"  {row['index']:>2} {row['square']:<28} {row['share']:7.2%}" for row in report["landings"]]
    return "\n".join(out)
