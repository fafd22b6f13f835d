#!/bin/sh
# search against pimc at equal time per decision (pimc:160 in twenty-eight, pimc:128 in twenty-nine, the README's
# measured equal-time budgets), 2000 duplicate deals each, seed 1, one worker
cd /work/wt/bots
J="env PYTHONPATH=/work/wt/bots /work/venv-main/bin/python -c 'from engine.cli.app import main; main()'"
PY=/work/venv-main/bin/python
PYTHONPATH=$PWD $PY -c 'from engine.cli.app import main; main()' tournament -r "$1" --bots "search,$2" --hands "$3" --seed 1 --workers 1 --out evidence/out/search-$1.jsonl --json > evidence/out/search-$1.json 2> evidence/out/search-$1.err
