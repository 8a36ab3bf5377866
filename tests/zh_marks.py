"""Half-width punctuation in Traditional Chinese text: what a zh-TW reader sees as a typo.

Chinese text takes full-width marks (，：；（）？！); a half-width `,` or `(` beside Chinese words is the mark of an
English sentence translated word for word. Not counted: commands and notation in quotes ('moves', 'H normal'),
`{placeholders}`, numbers (1,000 and 3:2, Cacao's coordinates 3,-1 and notation 2101r1@3,-1), a legend's symbol
being defined ("?：必須補上的叢林格"), a face-down card ("[? 綠色]"), and lines without a Chinese character (an
ASCII board, notation alone).
"""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff]")
MARKS = re.compile(r"[(),:;?!]")
EXEMPT = re.compile(
    r"\{x\},\{y\}"               # Cacao's coordinates in a template
    r"|'[^'\n]*'"               # a command or notation quoted
    r"|\{[^{}\n]*\}"            # a placeholder of a template
    r"|https?://\S+"
    r"|-?\d+,-?\d+"             # a coordinate pair or a number with a thousands comma
    r"|\d+:\d+"                 # a time or a ratio
    r"|\S*@\S*"                 # Cacao's notation (2101r1@3,-1)
    r"|(?:^|(?<=[\s、，。；]))[?!](?=[：=])"  # a legend's symbol being defined
    r"|\[\?"                   # a face-down card, [? green]
)


def stray_marks(text: str) -> list[str]:
    """Each line of `text` that has a Chinese character and a half-width mark outside the exempt spans,
    with the mark shown in brackets, e.g. '玩家 1[:] 勝利點數 0'."""
    found = []
    for line in text.splitlines():
        if not CJK.search(line):
            continue
        kept = EXEMPT.sub(lambda m: "\0" * len(m.group(0)), line)
        hits = [m.start() for m in MARKS.finditer(kept)]
        if hits:
            marked = "".join(f"[{c}]" if i in hits else c for i, c in enumerate(line))
            found.append(marked.strip())
    return found
