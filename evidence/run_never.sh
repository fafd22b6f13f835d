#!/bin/sh
# the heuristic against 0.1's never-take policy, 2000 duplicate deals per rule file with a special decision, seed 11
cd /work/wt/bots
for r in thani single-hand cot double-redouble seventh-card kotah odisha fifty-six-double fifty-six-4p fifty-six-8p twenty-eight-kerala twenty-eight-kerala-3p; do
  PYTHONPATH=$PWD /work/venv-main/bin/python -c 'from engine.cli.app import main; main()' tournament -r $r --bots heuristic,heuristic:never --hands 2000 --seed 11 --workers 1 --json > evidence/out/never-$r.json 2> evidence/out/never-$r.err
done
