"""M2RAG image coherence as an `evaluate` module.

How coherent each image inserted in an answer is with the text around it (multimodal LLM judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Image coherence, the first image-precision metric of M2RAG (Ma et al., 2024): for each image placed in an
answer, does what it shows match what the text is talking about at that point? Fitting the text just before or
just after it is enough. A multimodal LLM judge sees the image (a thumbnail of at most 512 px) between the answer
text just before and just after it (256 tokens each) and grades it on the paper's 0-10 rubric (0-3: little or no
connection; 4-6: partly connected; 7-9: clearly matches; 10: corresponds exactly and strengthens the text), at
temperature 0, normalised to 0-1. The mean pools all images of all answers, as in the paper.
"""

_KWARGS_DESCRIPTION = m2.IMAGE_INPUTS.replace("{metric}", "image_coherence") + """
Examples:
    >>> import PIL.Image
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> image_coherence = evaluate.load(m2.path("image_coherence"))
    >>> results = image_coherence.compute(
    ...     predictions=["## Tides\\n\\n<IMAGE_PLACEHOLDER>\\nThe diagram shows the two bulges of water ..."],
    ...     references=["Why are there two high tides a day?"],
    ...     images=[[PIL.Image.open("bulges.png")]],
    ...     judge_model="Qwen/Qwen2.5-VL-7B-Instruct", judge_base_url="http://localhost:8000/v1")
    >>> results["image_coherence"], results["scores"], results["coverage"]
    (0.9, [[0.9]], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragImageCoherence(m2.M2ragMetric):
    metric = "image_coherence"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
