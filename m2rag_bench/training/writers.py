"""Writing the distilled pairs: LLaMA-Factory ShareGPT files and the authors' training-release layout.

Layout of the output folder ``DIR`` (LLaMA-Factory's ``dataset_dir``; image paths are relative to it, which is
LLaMA-Factory's default ``media_dir``)::

    DIR/dataset_info.json            M2RAG-LLM / M2RAG-MLLM entries (formatting: sharegpt)
    DIR/m2rag_llm.json               [{"id", "messages": [user, assistant]}]
    DIR/m2rag_mllm.json              [{"id", "messages": [user, assistant], "images": ["images/ELI5/training_set/…"]}]
    DIR/data/{llm,mllm}/raw.jsonl    the authors' layout: {id, model_input, model_response, images}
    DIR/images/ELI5/training_set/query-<id>/…   the image files, shared by both
    DIR/README.md                    how to train on it (the paper's LoRA settings)
    DIR/export_report.json           the rule and the counts at each step

``m2rag-bench dataset build --release DIR --out OUT --config train`` builds the ``train`` config from it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from .rewrite import IMAGE_TOKEN, TrainingPair

SHUFFLE_SEED = 3407  # the authors' prepare_llama_factory_dataset.py
DATASET_NAMES = {"llm": "M2RAG-LLM", "mllm": "M2RAG-MLLM"}
SHAREGPT_FILES = {"llm": "m2rag_llm.json", "mllm": "m2rag_mllm.json"}
IMAGES_DIR = "images"
TAGS = {"role_tag": "role", "content_tag": "content", "user_tag": "user", "assistant_tag": "assistant"}


def assistant_content(response: str, fence: bool = True) -> str:
    """The target as the authors trained it: the answer inside a ```` ```markdown ```` fence (optional)."""
    return f"```markdown\n{response}\n```" if fence else response


def write_images(out: Path, pairs: list[TrainingPair]) -> int:
    written = 0
    for pair in pairs:
        for image in pair.images:
            path = out / IMAGES_DIR / image.release_path
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(image.data)
                written += 1
    return written


def write_raw(out: Path, modality: str, pairs: list[TrainingPair]) -> Path:
    """``DIR/data/<modality>/raw.jsonl`` in the authors' training-release format."""
    path = out / "data" / modality / "raw.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for pair in pairs:
            handle.write(json.dumps({"id": pair.id, "model_input": pair.model_input,
                                     "model_response": pair.model_response,
                                     "images": [i.release_path for i in pair.images]}, ensure_ascii=False) + "\n")
    return path


def sharegpt_record(pair: TrainingPair, fence: bool = True) -> dict[str, Any]:
    record: dict[str, Any] = {"id": pair.id, "messages": [
        {"role": "user", "content": pair.model_input},
        {"role": "assistant", "content": assistant_content(pair.model_response, fence)}]}
    if pair.modality == "mllm":
        record["images"] = [f"{IMAGES_DIR}/{i.release_path}" for i in pair.images]
        tokens = pair.model_input.count(IMAGE_TOKEN) + pair.model_response.count(IMAGE_TOKEN)
        if tokens != len(record["images"]):  # LLaMA-Factory rejects the sample otherwise
            raise ValueError(f"{pair.id}: {tokens} {IMAGE_TOKEN} tokens for {len(record['images'])} images")
    return record


def write_sharegpt(out: Path, modality: str, pairs: list[TrainingPair], fence: bool = True,
                   seed: int = SHUFFLE_SEED) -> Path:
    records = [sharegpt_record(p, fence) for p in pairs]
    random.Random(seed).shuffle(records)
    path = out / SHAREGPT_FILES[modality]
    path.write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def dataset_info_entry(modality: str) -> dict[str, Any]:
    columns = {"messages": "messages"}
    if modality == "mllm":
        columns["images"] = "images"
    return {"file_name": SHAREGPT_FILES[modality], "formatting": "sharegpt", "columns": columns, "tags": dict(TAGS)}


def write_dataset_info(out: Path, modalities: list[str]) -> Path:
    path = out / "dataset_info.json"
    info = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for modality in ("llm", "mllm"):
        info.pop(DATASET_NAMES[modality], None)
    info.update({DATASET_NAMES[m]: dataset_info_entry(m) for m in modalities})
    path.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return path


_README = """# M2RAG distilled training set

Made by `m2rag-bench export-training` from {runs}.

Quality rule: {rule}.

| step | responses |
| --- | ---: |
{table}

Pairs written: {written}. Each pair is single-stage: the input is m2rag-bench's single-stage prompt
(`{template}`) for the sample — candidate images as `![<description>](images/N.ext)` for the LLM set, as
`![<image>](images/N.ext)` with the image file listed in `images` (one per `<image>` token, in order) for the MLLM
set — and the target is the teacher's answer with its images placed as `![caption](images/N.ext)`{fenced}.

## Files

* `dataset_info.json` — LLaMA-Factory registry: {names} (`formatting: sharegpt`, columns `messages`{images_col}).
* {files} — ShareGPT records `{{"id", "messages": [{{"role": "user", ...}}, {{"role": "assistant", ...}}], "images"}}`;
  image paths are relative to this folder (LLaMA-Factory's `dataset_dir`, the default `media_dir`).
* `data/{{llm,mllm}}/raw.jsonl` and `images/ELI5/training_set/…` — the authors' training-release layout;
  `m2rag-bench dataset build --release THIS_DIR --out OUT --config train` turns it into the `train` config.
* `export_report.json` — the rule and the counts above, per run.

## Training with LLaMA-Factory (the paper's settings, reference §6.3, as a starting point)

```yaml
### model
model_name_or_path: Qwen/Qwen2-VL-7B-Instruct   # or meta-llama/Llama-3.1-8B-Instruct, Qwen/Qwen2.5-7B-Instruct
### method
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
lora_rank: 128
lora_alpha: 256
deepspeed: examples/deepspeed/ds_z2_config.json
### dataset
dataset_dir: THIS_DIR
dataset: {first_name}
template: qwen2_vl                     # llama3 for Llama-3.1-8B-Instruct, qwen for Qwen2.5-7B-Instruct
cutoff_len: 32768
preprocessing_num_workers: 16
### train
per_device_train_batch_size: 2
gradient_accumulation_steps: 16        # x 2 GPUs = global batch 64
learning_rate: 1.0e-4
num_train_epochs: 3.0
lr_scheduler_type: cosine
warmup_ratio: 0.1
bf16: true
flash_attn: fa2
enable_liger_kernel: true
logging_steps: 1
save_steps: 100
```

The paper trained on ~1.6K pairs with 2x A100-80GB (about 75 steps), merged the LoRA with `llamafactory-cli export`
(`export_size: 2`, `export_device: cpu`) and served the merged model with vLLM.
"""


def write_readme(out: Path, *, runs: list[str], rule: str, rows: list[tuple[str, int]], written: dict[str, int],
                 template: str, fence: bool) -> Path:
    modalities = [m for m in ("llm", "mllm") if m in written]
    table = "\n".join(f"| {name.strip() if not name.startswith('  ') else '&nbsp;&nbsp;' + name.strip()} | {n} |"
                      for name, n in rows)
    path = out / "README.md"
    path.write_text(_README.format(
        runs=", ".join(f"`{r}`" for r in runs), rule=rule, table=table,
        written=", ".join(f"{n} {m}" for m, n in written.items()) or "none", template=template,
        fenced=" (inside a ```` ```markdown ```` fence, as the authors trained)" if fence else "",
        names=", ".join(f"`{DATASET_NAMES[m]}`" for m in modalities),
        images_col=" and `images`" if "mllm" in modalities else "",
        files=", ".join(f"`{SHAREGPT_FILES[m]}`" for m in modalities),
        first_name=DATASET_NAMES[modalities[-1]] if modalities else "M2RAG-MLLM"), encoding="utf-8")
    return path
