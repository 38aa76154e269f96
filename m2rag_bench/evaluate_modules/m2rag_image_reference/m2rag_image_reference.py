"""M2RAG image reference as an `evaluate` module.

Whether the text explicitly and correctly refers to each image it shows (multimodal LLM judge, 0-1).
"""

import evaluate

import m2rag_bench.evaluate_modules as m2

_DESCRIPTION = """\
Image reference, the third image-precision metric of M2RAG (Ma et al., 2024): for each image placed in an answer,
is it explicitly and correctly referred to or explained by the text around it? A reference just before or just
after it is enough. A multimodal LLM judge sees the image (a thumbnail of at most 512 px) between the answer text
just before and just after it (256 tokens each) and grades it on the paper's 0-10 rubric (0: never mentioned;
1-3: implicit and unclear or wrong; 4-6: improper or partly relevant; 7-9: explicit and generally correct; 10:
explicit, accurate and well placed), at temperature 0, normalised to 0-1. The mean pools all images of all
answers, as in the paper.
"""

_KWARGS_DESCRIPTION = m2.IMAGE_INPUTS.replace("{metric}", "image_reference") + """
Examples:
    >>> import PIL.Image
    >>> import evaluate, m2rag_bench.evaluate_modules as m2
    >>> image_reference = evaluate.load(m2.path("image_reference"))
    >>> results = image_reference.compute(
    ...     predictions=["## Tides\\n\\n<IMAGE_PLACEHOLDER>\\nThe diagram shows the two bulges of water ..."],
    ...     references=["Why are there two high tides a day?"],
    ...     images=[[PIL.Image.open("bulges.png")]],
    ...     judge_model="Qwen/Qwen2.5-VL-7B-Instruct", judge_base_url="http://localhost:8000/v1")
    >>> results["image_reference"], results["scores"], results["coverage"]
    (0.9, [[0.9]], 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class M2ragImageReference(m2.M2ragMetric):
    metric = "image_reference"
    description = _DESCRIPTION
    inputs_description = _KWARGS_DESCRIPTION
