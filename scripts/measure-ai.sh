#!/usr/bin/env bash
# Re-runs the AI measurements of docs/AI.md: the strongest level against the baselines and
# the level ladder of each game, as `swapboard arena` matches.
#
#   scripts/measure-ai.sh OUT [FILTER]
#
# OUT receives, per match NAME, NAME.json (the arena summary), NAME.pgn (every game's record)
# and NAME.time (CPU and wall time). FILTER, a regular expression, keeps only the matches
# whose name matches it (e.g. 'swaptimum-l[2-6]'). Matches bounded by iterations replay the
# same games from the same build; level 8 is also capped at 10 s a move, which binds only on
# a heavily loaded machine. All of it takes about three hours of one core; two matches can
# run side by side (start the script twice with complementary filters).
set -euo pipefail
out=${1:?usage: scripts/measure-ai.sh OUT [FILTER]}
filter=${2:-.}
cd "$(dirname "$0")/.."
cargo build --release -p swapboard
bin=$PWD/target/release/swapboard
mkdir -p "$out"

match() {
  local name=$1 game=$2
  shift 2
  [[ $name =~ $filter ]] || return 0
  echo "$name" >&2
  /usr/bin/time -f "user %U s wall %e s" -o "$out/$name.time" \
    "$bin" arena "$game" "$@" --json --out "$out/$name.pgn" > "$out/$name.json"
}

rung() { # rung GAME K GAMES: level K against level K-1
  match "$1-l$2-l$(($2 - 1))" "$1" --games "$3" \
    --player "mcts:level=$2" --player "mcts:level=$(($2 - 1))" --seed 1
}

# Targets: the strongest level against `random` and `greedy`.
for game in swaptimum flipstop rapid-transit; do
  match "$game-l8-random" "$game" --games 100 --player mcts:level=8 --player random --seed 1
  match "$game-l8-greedy" "$game" --games 40 --player mcts:level=8 --player greedy --seed 1
done
match scware-l8-random scware --games 40 --player mcts:level=8 --player random --seed 3
match scware-l8-greedy scware --games 40 --player mcts:level=8 --player greedy --seed 3

# The ladders: each level against the one below.
for game in swaptimum flipstop rapid-transit; do
  for k in 2 3 4 5; do rung "$game" "$k" 100; done
done
rung swaptimum 6 100
rung flipstop 6 60
rung rapid-transit 6 60
rung swaptimum 7 60
rung flipstop 7 40
rung rapid-transit 7 40
rung swaptimum 8 24
rung flipstop 8 12
rung rapid-transit 8 12
for k in 2 3 4 5 6; do rung scware "$k" 100; done
rung scware 7 60
rung scware 8 30

# Second seeds for the rungs closest to 65%.
for r in swaptimum:5 scware:2 scware:3; do
  game=${r%:*} k=${r#*:}
  match "$game-l$k-l$((k - 1))-seed2" "$game" --games 100 \
    --player "mcts:level=$k" --player "mcts:level=$((k - 1))" --seed 2
done
# Scware's top rung, 30 more games.
match scware-l8-l7-seed2 scware --games 30 --player mcts:level=8 --player mcts:level=7 --seed 2
