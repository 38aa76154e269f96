"""M2RAG image helpfulness as an `evaluate` module.

How much each image inserted in an answer helps the reader understand the text (multimodal LLM judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Image helpfulness, the second image-precision metric of M2RAG (Ma et al., 2024): for each image placed in an
answer, does it help a reader understand the text around it? Helping the text just before or just after it is
enough. A multimodal LLM judge sees the image (a thumbnail of at most 512 px) between the answer text just before
and just after it (256 tokens each) and grades it on the paper's 0-10 rubric (0-3: barely or not helpful; 4-6:
some useful context with extraneous detail; 7-9: highly helpful; 10: perfectly clarifies), at temperature 0,
normalised to 0-1. The mean pools all images of all answers, as in the paper.
"""

_KWARGS_DESCRIPTION = m2.IMAGE_INPUTS.replace("{metric}", "image_helpfulness") + """
Examples:
    >>> import PIL.Image
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> image_helpfulness = evaluate.load(m2.path("image_helpfulness"))
    >>> results = image_helpfulness.compute(
    ...     predictions=["## Tides\\n\\n<IMAGE_PLACEHOLDER>\\nThe diagram shows the two bulges of water ..."],
    ...     references=["Why are there two high tides a day?"],
    ...     images=[[PIL.Image.open("bulges.png")]],
    ...     judge_model="Qwen/Qwen2.5-VL-7B-Instruct", judge_base_url="http://localhost:8000/v1")
    >>> results["image_helpfulness"], results["scores"], results["coverage"]
    (0.9, [[0.9]], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragImageHelpfulness(m2.M2ragMetric):
    metric = "image_helpfulness"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
