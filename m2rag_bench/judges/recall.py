"""Image recall: no judge. The share of the candidate images scored ≥ 8 that the answer used (reference §4.5).

The candidates are those the generator was shown (recorded in each response's ``stages.selection``), so recall is
measured against what the model could choose from; with no positive candidate, recall is 1.0.
"""

from __future__ import annotations

from ..schema import Judgment, Response
from .metrics import POSITIVE_SCORE, RECALL


def image_recall(response: Response, topic: str | None = None, protocol: str = "default") -> Judgment:
    candidates = response.stages.get("selection", {}).get("candidates", [])
    positives = {c["image_id"] for c in candidates if (c.get("final_score") or 0) >= POSITIVE_SCORE}
    used = {o.image_id for o in response.output_images}
    recall = len(positives & used) / len(positives) if positives else 1.0
    return Judgment(query_id=response.query_id, metric=RECALL, score=recall, raw_score=recall,
                    reason=f"{len(positives & used)} of {len(positives)} positive candidates used",
                    judge_model=None, template_version="rule", topic=topic, protocol=protocol,
                    smoke_test=response.smoke_test)
