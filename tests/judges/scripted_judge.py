"""A scripted judge for evaluation tests: fixed rubric scores, ragas JSON, and chosen unparsable replies."""

from __future__ import annotations

import json

RUBRIC_SCORES = {"grading the writing": ("fluency", 8), "addresses the question": ("relevance", 7),
                 "how coherent the image": ("image_coherence", 9), "how much the image helps": ("image_helpfulness", 6),
                 "how well the text refers to the image": ("image_reference", 4)}


def _text(request: dict) -> str:
    out = []
    for m in request["messages"]:
        out += [m["content"]] if isinstance(m["content"], str) else [p.get("text", "") for p in m["content"]]
    return "".join(out)


def make_judge(unparsable_for: str | None = None):  # noqa: ANN201 - a responder
    """Rubric verdicts as JSON; relevance replies for questions containing ``unparsable_for`` are prose only."""

    def reply(request: dict) -> str:
        system = request["messages"][0]["content"] if request["messages"][0]["role"] == "system" else ""
        if isinstance(system, str) and "json_schema" in system or "StatementGeneratorOutput" in str(system):
            title = json.loads(system[system.index("{"):system.rindex("}") + 1])["title"]
            if title == "StatementGeneratorOutput":
                return json.dumps({"statements": ["First claim.", "Second claim."]})
            if title == "NLIStatementOutput":
                return json.dumps({"statements": [{"statement": "First claim.", "reason": "ok", "verdict": 1},
                                                  {"statement": "Second claim.", "reason": "no", "verdict": 0}]})
            return json.dumps({"reason": "useful", "verdict": 1})
        text = _text(request)
        for cue, (metric, score) in RUBRIC_SCORES.items():
            if cue in text:
                if metric == "relevance" and unparsable_for and unparsable_for in text:
                    return "This answer reads quite well overall, I would say."
                return json.dumps({"reason": f"scripted {metric}", "score": score})
        raise AssertionError("unexpected judge prompt: " + text[:200])

    return reply
