"""M2RAG fluency as an `evaluate` module.

How well an answer reads: language flow, logical progression and well-formed markdown (LLM judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Fluency, the first text metric of M2RAG (Ma et al., 2024): how well an answer reads. An LLM judge grades the flow
of its language, the logic of its progression and whether its markdown is well formed and well organised, on the
paper's 0-10 rubric (0: incoherent, broken markdown; 4-6: mostly fluent with slips or unclear markdown; 10:
exemplary), at temperature 0. The score is normalised to 0-1. The judge sees the answer without its images and
does not see the question; it does not judge correctness or relevance.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the answers, in markdown. Images, as `![caption](images/N.ext)` or
        `<IMAGE_PLACEHOLDER>` tokens, are removed before judging.
    references (`list` of `str`): the questions, one per answer (fluency does not read them).
""" + m2.JUDGE_ARGS + """
Returns:
    fluency (`float` or `None`): the mean 0-1 score over the scored answers.
    scores (`list`): per answer, the 0-1 score, or None when missing.
    coverage (`float` or `None`): scored answers / answers.
    judge_model (`str` or `None`), cost_usd (`float` or `None`): the judge, and what its calls cost (None if unknown).

Examples:
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> fluency = evaluate.load(m2.path("fluency"))
    >>> results = fluency.compute(predictions=["## Tides\\n\\nThe Moon's gravity pulls the oceans ..."],
    ...                           references=["Why are there two high tides a day?"],
    ...                           judge_model="Qwen/Qwen2.5-VL-7B-Instruct",
    ...                           judge_base_url="http://localhost:8000/v1")
    >>> results["fluency"], results["scores"], results["coverage"]
    (0.8, [0.8], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragFluency(m2.M2ragMetric):
    metric = "fluency"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
