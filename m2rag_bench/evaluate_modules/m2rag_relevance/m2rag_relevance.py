"""M2RAG relevance as an `evaluate` module.

How well an answer addresses the question (LLM judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Relevance, the second text metric of M2RAG (Ma et al., 2024; the authors' key `response_relevancy`): how well an
answer addresses the question. An LLM judge grades it on the paper's 0-10 rubric (0: irrelevant; 1-3: mostly off
topic; 4-6: moderately relevant with noticeable digressions; 7-9: highly relevant; 10: fully aligned, no
digressions), at temperature 0, normalised to 0-1. The judge sees the question and the answer without its
images.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the answers, in markdown. Images, as `![caption](images/N.ext)` or
        `<IMAGE_PLACEHOLDER>` tokens, are removed before judging.
    references (`list` of `str`): the questions, one per answer.
""" + m2.JUDGE_ARGS + """
Returns:
    relevance (`float` or `None`): the mean 0-1 score over the scored answers.
    scores (`list`): per answer, the 0-1 score, or None when missing.
    coverage (`float` or `None`): scored answers / answers.
    judge_model (`str` or `None`), cost_usd (`float` or `None`): the judge, and what its calls cost (None if unknown).

Examples:
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> relevance = evaluate.load(m2.path("relevance"))
    >>> results = relevance.compute(predictions=["## Tides\\n\\nThe Moon's gravity pulls the oceans ..."],
    ...                             references=["Why are there two high tides a day?"],
    ...                             judge_model="Qwen/Qwen2.5-VL-7B-Instruct",
    ...                             judge_base_url="http://localhost:8000/v1")
    >>> results["relevance"], results["scores"], results["coverage"]
    (0.7, [0.7], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragRelevance(m2.M2ragMetric):
    metric = "relevance"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
