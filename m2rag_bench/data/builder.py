"""The `datasets` builder of M2RAG-Bench, used directly by the package (``datasets`` 5 has no loading scripts).

Configs:

* ``benchmark``: every query of the release (all levels), split ``test``, with ``topic`` and ``level`` columns;
* ``train``: the distilled training release (LLM and MLLM examples), split ``train``, with a ``modality`` column.

The builder streams: one record is read, checked and written at a time, so memory stays flat as releases grow.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import datasets

from .._version import __version__
from .features import BENCHMARK_FEATURES, TRAIN_FEATURES, sample_to_row, training_to_row
from .release import BenchmarkReader, TrainingReader
from .report import BuildReport

CONFIG_SPLITS = {"benchmark": "test", "train": "train"}
CITATION = """@article{ma2024m2rag,
  title   = {Multi-modal Retrieval Augmented Multi-modal Generation: Datasets, Evaluation Metrics and Strong Baselines},
  author  = {Ma, Zi-Ao and Lan, Tian and Tu, Rong-Cheng and Hu, Yong and Guo, Yu-Shi and Zhang, Tong and Huang, Heyan and Mao, Xian-Ling},
  journal = {arXiv preprint arXiv:2411.16365},
  year    = {2024}
}"""


@dataclass
class M2RAGConfig(datasets.BuilderConfig):
    """A builder config; ``release_dir`` is the authors' release layout (or ours, e.g. from ``curate``)."""

    release_dir: str | None = None
    skip_bad: bool = False


class M2RAGBench(datasets.GeneratorBasedBuilder):
    """Builds the ``benchmark`` and ``train`` configs from a release directory."""

    BUILDER_CONFIG_CLASS = M2RAGConfig
    BUILDER_CONFIGS = [
        M2RAGConfig(name="benchmark", version=datasets.Version("1.0.0"),
                    description="M2RAG-Bench queries with retrieved pages, scored pieces and candidate images."),
        M2RAGConfig(name="train", version=datasets.Version("1.0.0"),
                    description="Single-stage training pairs distilled from a teacher's multi-stage answers."),
    ]
    DEFAULT_CONFIG_NAME = "benchmark"
    # Rows carry ~12 encoded images each: write small batches so memory stays flat.
    DEFAULT_WRITER_BATCH_SIZE = 16

    def __init__(self, *args, report: BuildReport | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.report = report if report is not None else BuildReport()

    def _info(self) -> datasets.DatasetInfo:
        features = BENCHMARK_FEATURES if self.config.name == "benchmark" else TRAIN_FEATURES
        return datasets.DatasetInfo(
            description=f"M2RAG-Bench (Ma et al., arXiv 2411.16365), built by m2rag-bench {__version__}.",
            features=features, citation=CITATION, homepage="https://arxiv.org/abs/2411.16365", license="cc-by-4.0")

    def _split_generators(self, dl_manager):  # noqa: ANN001 - datasets' DownloadManager, unused: data is local
        if not self.config.release_dir:
            raise ValueError("M2RAGBench needs release_dir=<release directory>")
        split = CONFIG_SPLITS[self.config.name]
        return [datasets.SplitGenerator(name=split, gen_kwargs={"release_dir": self.config.release_dir})]

    def _generate_examples(self, release_dir: str):
        if self.config.name == "benchmark":
            for sample in BenchmarkReader(release_dir, self.report, self.config.skip_bad):
                yield sample.query_id, sample_to_row(sample)
        else:
            for example, blobs in TrainingReader(release_dir, self.report, self.config.skip_bad):
                yield f"{example.modality}/{example.id}", training_to_row(example, blobs)


def make_builder(config: str, release_dir: str | Path, cache_dir: str | Path, *, skip_bad: bool = False,
                 report: BuildReport | None = None) -> M2RAGBench:
    """A ready builder for one config of a release; ``cache_dir`` receives its intermediate files."""
    if config not in CONFIG_SPLITS:
        raise ValueError(f"unknown config {config!r}; expected one of {', '.join(CONFIG_SPLITS)}")
    return M2RAGBench(config_name=config, release_dir=str(Path(release_dir).resolve()), skip_bad=skip_bad,
                      cache_dir=str(cache_dir), report=report)
