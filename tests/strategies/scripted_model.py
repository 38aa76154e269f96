"""A scripted model for strategy tests: it recognises each prompt by its wording and answers in kind."""

from __future__ import annotations

import re


ANSWER = """# The short answer

Air molecules scatter blue light much more than red light.
That scattered blue light reaches your eyes from every part of the sky.

## Sunsets

At sunset the light crosses far more air, so the blue is scattered away and red and orange remain."""


def prompt_text(request: dict) -> str:
    """The prompt as the model reads it: text parts joined as they stand, images left out."""
    out = []
    for message in request.get("messages", []):
        content = message["content"]
        out += [content] if isinstance(content, str) else [p.get("text", "") for p in content]
    return "".join(out)


def reply(request: dict) -> str:
    text = prompt_text(request)
    if "Decide where the image should go" in text:
        number = int(re.search(r"images/(\d+)\.", text).group(1))
        return "A helpful diagram\n-1" if number % 3 == 2 else f"A helpful diagram\n{1 + number % 4}"
    if "will appear directly AFTER the image" in text:
        passage = text.split("## Passage\n```markdown\n", 1)[1].split("\n```", 1)[0]
        return passage.replace("light", "light (see the image above)", 1)
    if "Revise the answer so that it integrates every image" in text:
        return text.split("```markdown\n", 1)[1].rsplit("\n```", 1)[0]
    if "End the answer with a line \"References:\"" in text:
        return ANSWER + "\n\nReferences: 0 1"
    if "do not put any images" in text:
        return ANSWER
    return "```markdown\n" + ANSWER.replace("\n\n## Sunsets", "\n\n![scattering](images/0.png)\n\n## Sunsets") \
        + "\n![again](images/0.png)\n![sunset](images/2.jpeg)\n```"
