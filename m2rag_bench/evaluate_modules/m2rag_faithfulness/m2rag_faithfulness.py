"""M2RAG faithfulness as an `evaluate` module.

RAGAS faithfulness: the share of the answer's statements supported by the retrieved contexts (0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Faithfulness, the fourth text metric of M2RAG (Ma et al., 2024), computed by RAGAS' `Faithfulness` (ragas 0.4.3):
the answer is split into atomic statements, and each gets an NLI verdict against the retrieved contexts; score =
supported statements / statements. Two judge calls per answer. When the answer yields no statement RAGAS gives
NaN: a missing score (None) under the default protocol, 1.0 under `m2rag-2025-02` (as in the authors' code). The
paper's judge is gpt-4o-mini-2024-07-18. Needs `pip install 'm2rag-bench[ragas]'`.
"""

_KWARGS_DESCRIPTION = m2.RAGAS_INPUTS.replace("{metric}", "faithfulness") + """
Examples:
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> faithfulness = evaluate.load(m2.path("faithfulness"))
    >>> results = faithfulness.compute(
    ...     predictions=["The Moon causes tides. High tide comes every 12 hours and 25 minutes."],
    ...     references=["Why are there two high tides a day?"],
    ...     contexts=[["Tides are caused by the Moon's gravity ..."]],
    ...     judge_model="Qwen/Qwen2.5-7B-Instruct", judge_base_url="http://localhost:8000/v1")
    >>> results["faithfulness"], results["scores"], results["coverage"]
    (0.5, [0.5], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragFaithfulness(m2.M2ragMetric):
    metric = "faithfulness"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
