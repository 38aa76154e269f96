"""A scripted curation judge for an OpenAI-compatible stub: it recognises each curation prompt and answers in kind.

Questions mentioning arithmetic are rejected; pieces are scored by how many of the question's words they share;
pictures get 7 (or 1 when their alt text says logo/icon/advert); descriptions repeat the alt text.
"""

from __future__ import annotations

import json
import re

STOP = {"how", "do", "does", "why", "what", "the", "a", "an", "in", "into", "of", "to", "make", "is", "and", "turn"}


def _text(request: dict) -> str:
    out = []
    for message in request.get("messages", []):
        content = message["content"]
        out += [content] if isinstance(content, str) else [p.get("text", "") for p in content if p.get("type") == "text"]
    return "".join(out)


def _images(request: dict) -> int:
    return sum(1 for m in request.get("messages", []) if isinstance(m["content"], list)
               for p in m["content"] if p.get("type") == "image_url")


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 2}


def reply(request: dict) -> str:
    text = _text(request)
    if "You are choosing questions" in text:
        question = text.split("## Question\n", 1)[1].split("\n", 1)[0]
        keep = 0 if re.search(r"\d\s*\+\s*\d", question) else 1
        return json.dumps({"reason": "scripted", "needs_references": keep, "images_help": keep, "topics": [2]})
    if "You are rating passages" in text:
        question = text.split("## Question\n", 1)[1].split("\n", 1)[0]
        passage = text.split("## Passage\n```\n", 1)[1].rsplit("\n```", 1)[0]
        shared = len(_words(question) & _words(passage))
        return json.dumps({"reason": f"{shared} shared words", "score": min(10, 2 * shared)})
    if "You are rating pictures" in text:
        alt = re.search(r"Alternative text: (.*)", text)  # only when the judge cannot see the picture
        low = alt and re.search(r"logo|icon|advert", alt.group(1), re.I)
        return json.dumps({"reason": "scripted", "score": 1 if low else 7})
    if "Describe the picture" in text:
        alt = re.search(r"Alternative text: (.*)", text)
        seen = f"{_images(request)} image(s) seen"
        return f"A detailed scripted description ({seen}) of {alt.group(1) if alt else 'the picture'}."
    return "I do not know this prompt."
