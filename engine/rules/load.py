"""Loading rule files (provisional minimal loader; the full one adds positions and friendly errors)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine.rules.model import Ruleset

REPO_RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
PACKAGED_RULESETS = Path(__file__).resolve().parents[1] / "data" / "rulesets"


def shipped_dir() -> Path:
    return PACKAGED_RULESETS if PACKAGED_RULESETS.is_dir() else REPO_RULESETS


def shipped_rulesets() -> dict[str, Path]:
    return {p.stem: p for p in sorted(shipped_dir().glob("*.yaml"))}


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _raw(ref: str | Path, base_dir: Path | None = None) -> dict[str, Any]:
    path = _locate(ref, base_dir)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    parent = data.get("extends")
    if parent:
        merged = _merge(_raw(parent, path.parent), data)
        merged["extends"] = parent
        return merged
    return dict(data)


def _locate(ref: str | Path, base_dir: Path | None) -> Path:
    text = str(ref)
    if "/" in text or text.endswith((".yaml", ".yml")):
        p = Path(text)
        if not p.is_absolute() and base_dir is not None:
            p = base_dir / p
        return p
    return shipped_rulesets()[text]


def load_ruleset(ref: str | Path) -> Ruleset:
    return Ruleset.model_validate(_raw(ref))
