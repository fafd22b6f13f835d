#!/bin/sh
# Ship the European (Jass) group once main has every mechanism of issue 26 and validates the files:
# copy the rule files, add the catalog group, put the golden records in tests/hands/family with their replay
# reports (checked against the reports found on the trial merge: status and game points must agree), and
# regenerate the docs pages. Run from anywhere inside the worktree: sh rulesets-draft/ship.sh
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
for f in rulesets-draft/*.yaml; do cp "$f" rulesets/; done
for f in rulesets-draft/*.yaml; do .venv/bin/jacknine validate "rulesets/$(basename "$f")"; done
grep -q "European (Jass) group" rulesets/catalog.yml || cat rulesets-draft/catalog-entries.yml >> rulesets/catalog.yml
for y in rulesets-draft/worked/*.yaml; do
  n=$(basename "$y" .yaml)
  cp "$y" tests/hands/family/
  .venv/bin/jacknine replay "tests/hands/family/$n.yaml" --json | $PY -m json.tool --indent 2 > "tests/hands/family/$n.json" || true
  $PY - "$n" <<'PYEOF'
import json, sys
n = sys.argv[1]
got = json.load(open(f"tests/hands/family/{n}.json"))
want = json.load(open(f"rulesets-draft/worked/{n}.json"))
for key in ("status", "game_points", "card_points"):
    if got[key] != want[key]:
        print(f"{n}: {key} {got[key]} (trial merge: {want[key]})")
PYEOF
done
$PY -m engine.rules.reference write
