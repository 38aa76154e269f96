"""M2RAG context precision as an `evaluate` module.

RAGAS context precision without reference: were the retrieved contexts useful for the answer (0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Context precision, the third text metric of M2RAG (Ma et al., 2024), computed by RAGAS'
`ContextPrecisionWithoutReference` (ragas 0.4.3): for each retrieved context, in order, an LLM verdict (1/0) on
whether it was useful for the answer; score = sum over k of precision@k * v_k / (number of useful contexts + eps).
It is order-sensitive and about 0 when no context is useful. One judge call per context. The paper's judge is
gpt-4o-mini-2024-07-18. Needs `pip install 'm2rag-bench[ragas]'`.
"""

_KWARGS_DESCRIPTION = m2.RAGAS_INPUTS.replace("{metric}", "context_precision") + """
Examples:
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> context_precision = evaluate.load(m2.path("context_precision"))
    >>> results = context_precision.compute(
    ...     predictions=["Two bulges of water form: one facing the Moon, one opposite it."],
    ...     references=["Why are there two high tides a day?"],
    ...     contexts=[["Tides are caused by the Moon's gravity ...", "A diagram of the two tidal bulges."]],
    ...     judge_model="Qwen/Qwen2.5-7B-Instruct", judge_base_url="http://localhost:8000/v1")
    >>> results["context_precision"], results["scores"], results["coverage"]
    (0.99999999995, [0.99999999995], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragContextPrecision(m2.M2ragMetric):
    metric = "context_precision"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
