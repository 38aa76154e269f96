"""Print the N-th command of the README's Quickstart (each command is the only line of a ```bash block)."""

import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```bash\n(.*?)\n```", quickstart, flags=re.S)
if len(blocks) != 2 or any("\n" in b.strip() for b in blocks):
    sys.exit("README Quickstart must hold exactly two one-line ```bash blocks")
print(blocks[int(sys.argv[2]) - 1].strip())
