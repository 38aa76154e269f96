"""Records reject bad values with the path of the bad field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from m2rag_bench import ImageRef, Sample, TextPiece, WebPage


def test_piece_score_out_of_range_names_the_field() -> None:
    with pytest.raises(ValidationError) as err:
        Sample(query_id="q", query="why?", webpages=[WebPage(webpage_id=0, pieces=[TextPiece(split_id=0, text="t", score=11)])])
    assert "score" in str(err.value)


def test_unknown_topic_and_level_are_rejected() -> None:
    with pytest.raises(ValidationError, match="unknown topic"):
        Sample(query_id="q", query="why?", topic="Cooking")
    with pytest.raises(ValidationError, match="level"):
        Sample(query_id="q", query="why?", level=4)


def test_unknown_fields_are_rejected() -> None:
    with pytest.raises(ValidationError, match="colour"):
        ImageRef(image_id="1", kind="page", colour="red")


def test_marker_ids_and_image_order() -> None:
    piece = TextPiece(split_id=0, text="a <IMAGE_PLACEHOLDER>[3] b <IMAGE_PLACEHOLDER>[1]")
    assert piece.marker_ids() == [3, 1]
    page = WebPage(webpage_id=0, images=[ImageRef(image_id="1", kind="page", cached_path="x/1.WEBP")])
    sample = Sample(query_id="q", query="why?", webpages=[page], aux_images=[ImageRef(image_id="aux-0", kind="aux")])
    assert [i.image_id for i in sample.all_images()] == ["1", "aux-0"]
    assert page.images[0].extension == "webp" and sample.aux_images[0].extension == "png"
