"""Protocols: the correct default, and ``m2rag-2025-02``, which reproduces the published code where it changes numbers.

Every response and score records the protocol that made it. The quirks reproduced (reference §8.1):

* multi-stage stage 2 reads the placement index as the last digit run of the last line, so "−1" (reject) becomes
  line 1 — rejected images are placed anyway;
* multi-stage stage 3 refines empty passages (two images on one line) and appends refusals ("I can't …") verbatim;
* the separate (MuRAR) strategy numbers every image placeholder ``images/0``, so at most one image survives; its
  image score filters and caps are not applied and pieces are kept from score 0.1 (i.e. all but score 0);
* image references are matched with the published lazy pattern (first digit run of the URL; foreign images kept);
* kept pieces of a page are joined without a separator.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Protocol:
    name: str
    signed_placement: bool = True
    skip_empty_refinement: bool = True
    drop_refusals: bool = True
    murar_numbering: bool = True
    murar_filters: bool = True
    strict_image_refs: bool = True
    piece_separator: str = "\n\n"


PROTOCOLS: dict[str, Protocol] = {
    "default": Protocol("default"),
    "m2rag-2025-02": Protocol("m2rag-2025-02", signed_placement=False, skip_empty_refinement=False,
                              drop_refusals=False, murar_numbering=False, murar_filters=False,
                              strict_image_refs=False, piece_separator=""),
}


def get_protocol(name: str) -> Protocol:
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol {name!r}; choose one of: {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]
