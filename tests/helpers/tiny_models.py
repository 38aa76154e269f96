"""Tiny random transformers models for tests: a Llama causal LM and a LLaVA image-text model.

Both are built offline in a few seconds from a fixed seed: a ~300-token byte-level BPE tokenizer trained on a built-in
corpus, a 2-layer 32-dim Llama and (for LLaVA) a 2-layer 32-dim CLIP vision tower. Their outputs are gibberish; they
only exercise the plumbing (chat templates, batching, padding, image tokens, usage counting).

Use `get_tiny_llm()` / `get_tiny_vlm()` to build once per process into a temp folder, or `tiny_llm(dir)` /
`tiny_vlm(dir)` to build into a folder of your choice. Needs torch, transformers and tokenizers (the ``[hf]`` extra).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

SEED = 0
VOCAB_SIZE = 300
IMAGE_SIZE = 32
PATCH_SIZE = 8

_CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Retrieval-augmented generation answers questions with documents and images.",
    "A paper airplane flies because its wings push air downward and produce lift.",
    "Question: what does the image show? Answer: a diagram with four arrows.",
    "system user assistant image text answer question context page figure",
    "<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\nHi!<|im_end|>\n",
    "0123456789 .,;:!?()[]{}'\"-_/\\ +=*&^%$#@~`|<>",
]

# ChatML-style; content is a string (text LLM) or a list of {"type": "text"|"image"} parts (VLM processor).
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

_SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<|im_start|>", "<|im_end|>", "<image>"]


def _tokenizer(extra_image_token: bool):  # -> PreTrainedTokenizerFast
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    specials = _SPECIALS if extra_image_token else _SPECIALS[:-1]
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE, special_tokens=specials, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(_CORPUS * 4, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="<|im_end|>",
                                   unk_token="<unk>", pad_token="<pad>")
    if extra_image_token:
        fast.add_special_tokens({"additional_special_tokens": ["<image>"]})
    fast.chat_template = CHAT_TEMPLATE
    return fast


def _llama_config(tokenizer):  # -> LlamaConfig
    from transformers import LlamaConfig

    return LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=32768,
                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)


def tiny_llm(directory: str | Path) -> Path:
    """Build a tiny random `LlamaForCausalLM` with a ChatML tokenizer into ``directory``; returns its path."""
    import torch
    from transformers import GenerationConfig, LlamaForCausalLM

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = _tokenizer(extra_image_token=False)
    config = _llama_config(tokenizer)
    torch.manual_seed(SEED)
    model = LlamaForCausalLM(config).eval()
    model.generation_config = GenerationConfig(bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id,
                                               pad_token_id=config.pad_token_id)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def tiny_vlm(directory: str | Path) -> Path:
    """Build a tiny random `LlavaForConditionalGeneration` (CLIP tower + tiny Llama) with its processor."""
    import torch
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, GenerationConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor)

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = _tokenizer(extra_image_token=True)
    text_config = _llama_config(tokenizer)
    vision_config = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                                     image_size=IMAGE_SIZE, patch_size=PATCH_SIZE, projection_dim=32)
    image_token_id = tokenizer.convert_tokens_to_ids("<image>")
    config = LlavaConfig(vision_config=vision_config, text_config=text_config, image_token_id=image_token_id,
                         vision_feature_layer=-1, vision_feature_select_strategy="default",
                         projector_hidden_act="gelu", tie_word_embeddings=False)
    torch.manual_seed(SEED)
    model = LlavaForConditionalGeneration(config).eval()
    model.generation_config = GenerationConfig(bos_token_id=text_config.bos_token_id,
                                               eos_token_id=text_config.eos_token_id,
                                               pad_token_id=text_config.pad_token_id)
    image_processor = CLIPImageProcessor(size={"shortest_edge": IMAGE_SIZE},
                                         crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    # "default" feature selection drops the CLS token, so one image = (32/8)^2 = 16 <image> tokens;
    # num_additional_image_tokens=1 tells the processor that the tower emits that one extra (CLS) token.
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH_SIZE,
                               vision_feature_select_strategy="default", num_additional_image_tokens=1,
                               image_token="<image>", chat_template=CHAT_TEMPLATE)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    return out


_CACHE: dict[str, Path] = {}


def _cached(kind: str) -> Path:
    if kind not in _CACHE:
        root = Path(tempfile.mkdtemp(prefix=f"m2rag-tiny-{kind}-"))
        atexit.register(shutil.rmtree, root, True)
        _CACHE[kind] = (tiny_llm if kind == "llm" else tiny_vlm)(root / kind)
    return _CACHE[kind]


def get_tiny_llm() -> Path:
    """The tiny LLM, built once per process into a temp folder removed at exit."""
    return _cached("llm")


def get_tiny_vlm() -> Path:
    """The tiny LLaVA, built once per process into a temp folder removed at exit."""
    return _cached("vlm")
