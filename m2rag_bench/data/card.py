"""Dataset cards: the YAML header (with the ``configs:`` block ``load_dataset`` reads) plus a body rendered from
the templates in the repository's ``dataset_cards/`` folder (shipped in the package as ``m2rag_bench.cards``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import jinja2
import yaml
from datasets import DatasetInfo, SplitDict, SplitInfo

from ..topics import TOPICS
from .builder import CONFIG_SPLITS

CARD_KINDS = ("benchmark", "train", "mini")
_LICENSES = {"benchmark": "other", "train": "other", "mini": "apache-2.0"}


def card_template(name: str) -> str:
    """The text of one card template (``benchmark``, ``train``, ``mini`` or a part they include)."""
    path = resources.files("m2rag_bench.cards").joinpath(f"{name}.md")
    if not path.is_file():
        raise ValueError(f"no card template {name!r} in dataset_cards/")
    return path.read_text(encoding="utf-8")


def dataset_info_yaml(infos: dict[str, dict]) -> list[dict]:
    """The ``dataset_info`` block: features and split sizes per config, as ``push_to_hub`` writes it.

    Besides documenting the schema, it makes the card change whenever the shards do: ``datasets`` 5.2 keys its
    cache of a local folder on the card's metadata, so without it a rebuilt folder would load stale data.
    """
    block = []
    for config, info in infos.items():
        size = sum(nbytes for _, nbytes in info["splits"].values())
        splits = SplitDict()
        for split, (rows, nbytes) in info["splits"].items():
            splits.add(SplitInfo(name=split, num_bytes=nbytes, num_examples=rows))
        entry = DatasetInfo(features=info["features"], splits=splits, download_size=size, dataset_size=size)
        block.append({"config_name": config, **entry._to_yaml_dict()})
    return block


def card_header(configs: dict[str, dict[str, int]], kind: str, pretty_name: str,
                infos: dict[str, dict] | None = None) -> dict:
    """The card's YAML metadata; the first config (``benchmark`` when present) is the default."""
    total = sum(n for splits in configs.values() for n in splits.values())
    size = "n<1K" if total < 1_000 else "1K<n<10K" if total < 10_000 else "10K<n<100K"
    entries = []
    for i, config in enumerate(sorted(configs, key=lambda c: list(CONFIG_SPLITS).index(c))):
        entry: dict = {"config_name": config}
        if i == 0:
            entry["default"] = True
        entry["data_files"] = [{"split": s, "path": f"{config}/{s}-*.parquet"} for s in configs[config]]
        entries.append(entry)
    return {
        "pretty_name": pretty_name,
        "license": _LICENSES[kind],
        "language": ["en"],
        "task_categories": ["visual-question-answering", "text-generation"],
        "tags": ["multimodal", "retrieval-augmented-generation", "interleaved-image-text", "m2rag"],
        "size_categories": [size],
        "configs": entries,
        **({"dataset_info": dataset_info_yaml(infos)} if infos else {}),
    }


def render_card(configs: dict[str, dict[str, int]], kind: str | None = None, pretty_name: str | None = None,
                infos: dict[str, dict] | None = None) -> str:
    """The full card text for an export holding ``configs`` (config -> split -> rows)."""
    kind = kind or ("benchmark" if "benchmark" in configs else "train")
    if kind not in CARD_KINDS:
        raise ValueError(f"unknown card kind {kind!r}; expected one of {', '.join(CARD_KINDS)}")
    pretty_name = pretty_name or {"mini": "M2RAG-Bench mini", "train": "M2RAG-Bench training set"}.get(kind, "M2RAG-Bench")
    header = yaml.safe_dump(card_header(configs, kind, pretty_name, infos), sort_keys=False, allow_unicode=True)
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: card_template(name.removesuffix(".md"))),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
    body = env.get_template(kind).render(configs=configs, topics=TOPICS, pretty_name=pretty_name)
    return f"---\n{header}---\n\n{body}"


def write_card(out: str | Path, configs: dict[str, dict[str, int]], kind: str | None = None,
               pretty_name: str | None = None, infos: dict[str, dict] | None = None) -> Path:
    """Write ``README.md`` into an export directory."""
    path = Path(out) / "README.md"
    path.write_text(render_card(configs, kind, pretty_name, infos), encoding="utf-8")
    return path
