#!/usr/bin/env python3
"""Clocked self-play through the engine protocol: how the AI spends a live clock.

Two `swapboard engine` processes play GAMES games of GAME on a SIZE board under Fischer
time INITIAL+INCREMENT seconds. Before each `genmove` the side to move is told its time
(`time_left`), so it thinks by the play layer's clock budget (docs/AI.md, Time from the
clock); the script measures each move's wall-clock time, charges it, adds the increment,
and counts a side whose time runs out as flagged. It prints one JSON line: moves, the
mean and longest think, the largest share of the time left one move took, the least time
any side had left after a move, and the flags.

    scripts/clock-match.py target/release/swapboard swaptimum 9 15+0 4
"""

import json
import subprocess
import sys
import time


class Engine:
    """One `swapboard engine` process."""

    def __init__(self, binary):
        self.process = subprocess.Popen(
            [binary, "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, command):
        """Sends a command; returns (ok, text of the answer)."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise RuntimeError(f"the engine ended during {command!r}")
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line:
                lines.append(line)
        first = lines[0]
        return first.startswith("="), " ".join([first[1:].strip()] + lines[1:])

    def close(self):
        self.ask("quit")
        self.process.wait()


def play(binary, game, size, initial_ms, increment_ms, stats):
    engines = [Engine(binary), Engine(binary)]
    for engine in engines:
        ok, answer = engine.ask(f"new {game} {size}")
        assert ok, answer
    left = [initial_ms, initial_ms]
    side = 0
    while True:
        engine = engines[side]
        engine.ask(f"time_left {left[side]} {increment_ms}")
        started = time.monotonic()
        ok, answer = engine.ask("genmove")
        took = int((time.monotonic() - started) * 1000)
        if not ok:
            break  # the game is over
        stats["moves"] += 1
        stats["think_ms"].append(took)
        stats["largest_share"] = max(stats["largest_share"], took / max(left[side], 1))
        left[side] -= took
        if left[side] < 0:
            stats["flags"] += 1
            break
        stats["least_left_ms"] = min(stats["least_left_ms"], left[side])
        left[side] += increment_ms
        ok, echoed = engines[1 - side].ask(f"play {answer}")
        assert ok, echoed
        side = 1 - side
    for engine in engines:
        engine.close()


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    binary, game, size, control, games = sys.argv[1:]
    initial, increment = control.split("+")
    initial_ms, increment_ms = int(float(initial) * 1000), int(float(increment) * 1000)
    stats = {
        "moves": 0,
        "think_ms": [],
        "largest_share": 0.0,
        "least_left_ms": initial_ms,
        "flags": 0,
    }
    for _ in range(int(games)):
        play(binary, game, int(size), initial_ms, increment_ms, stats)
    thinks = stats.pop("think_ms")
    print(
        json.dumps(
            {
                "game": game,
                "size": int(size),
                "control": control,
                "games": int(games),
                "moves": stats["moves"],
                "mean_think_ms": round(sum(thinks) / max(len(thinks), 1)),
                "longest_think_ms": max(thinks, default=0),
                "largest_share_of_time_left": round(stats["largest_share"], 3),
                "least_left_ms": stats["least_left_ms"],
                "flags": stats["flags"],
            }
        )
    )


if __name__ == "__main__":
    main()
