"""The benchmark's query topics: the ten Yahoo Answers Topics classes (reference §5.1)."""

from __future__ import annotations

#: The ten topics of M2RAG-Bench, in the paper's order (100 benchmark queries each).
TOPICS: tuple[str, ...] = (
    "Society & Culture",
    "Science & Mathematics",
    "Health",
    "Education & Reference",
    "Computers & Internet",
    "Sports",
    "Business & Finance",
    "Entertainment & Music",
    "Family & Relationships",
    "Politics & Government",
)

#: Label used by the query classifier for questions outside the ten topics; never part of the benchmark.
OTHER_TOPIC = "Others"
