"""M2RAG image recall as an `evaluate` module.

The share of the positive candidate images that an answer used (no judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Image recall, the last metric of M2RAG (Ma et al., 2024): of the positive candidate images (those the image
scorer gave a final score of at least 8, among the candidates the generator was shown), the share that the
answer used. It needs no judge. An answer with no positive candidate scores 1.0, as in the paper; the mean is
over answers.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `list` of `str`): per answer, the ids of the images it used.
    references (`list` of `list` of `str`): per answer, the ids of the positive candidate images.

Returns:
    image_recall (`float` or `None`): the mean 0-1 recall over the answers (None when there are none).
    scores (`list`): per answer, the 0-1 recall.
    coverage (`float` or `None`): answers with a recall / answers (1.0).
    judge_model, cost_usd: None (no judge).

Examples:
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> image_recall = evaluate.load(m2.path("image_recall"))
    >>> results = image_recall.compute(predictions=[["0/1", "aux-3"], [], ["2/4"]],
    ...                                references=[["0/1", "1/2"], ["0/1"], []])
    >>> results["image_recall"], results["scores"], results["coverage"]
    (0.5, [0.5, 0.0, 1.0], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragImageRecall(m2.M2ragMetric):
    metric = "image_recall"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
