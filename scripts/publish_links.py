"""Write the course's own public address into the notebooks and READMEs, or take it out.

    python scripts/publish_links.py            # write what pyproject.toml says
    python scripts/publish_links.py --check    # exit 1 if a file is not as written

The course has no public home of its own: an instructor who publishes a copy sets
its address once, in pyproject.toml,

    [project.urls]
    Repository = "https://github.com/<you>/tinyagent-memory"

and runs this script. It writes, for that copy: the Colab and Binder badges under
each notebook's title and at the top of each README, the `git clone` command of the
instructor notes, and the Colab setup line that installs the package from the
repository. Without an address there is no badge and no clone command, and the
Colab setup line installs the folder the learner uploaded (the READMEs say how).
Left out: checking that the address exists (it is the instructor's own), and any
other host than a public git repository that Colab and Binder can read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
UPLOADED = "/content/tinyagent-memory"  # where the Colab setup expects the folder
BADGE = "[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]"
BINDER = "[![Binder](https://mybinder.org/badge_logo.svg)]"
# The setup cell's two lines, for each language and each case.
SETUP = {
    ("en", False): ('if "google.colab" in sys.modules:  # Colab: install the uploaded '
                    'course folder first',
                    f'    %pip install -q {UPLOADED}  # README, "Colab": how to '
                    'upload it'),
    ("zh", False): ('if "google.colab" in sys.modules:  '
                    '# Colab：先安装上传的课程文件夹',
                    f'    %pip install -q {UPLOADED}  '
                    '# 上传方法见 README 的“Colab”一节'),
    ("en", True): ('if "google.colab" in sys.modules:  # Colab: install the course '
                   'package first',
                   '    %pip install -q "tinyagent-memory @ git+{url}"'),
    ("zh", True): ('if "google.colab" in sys.modules:  # Colab：先安装课程的包',
                   '    %pip install -q "tinyagent-memory @ git+{url}"'),
}
CLONE = {"en": "`git clone {url}`, or download its zip, and open a terminal in the "
               "folder.",
         "zh": "`git clone {url}`，或下载它的 zip 包，在解压出的文件夹里打开终端。"}


def address(pyproject: Path = ROOT / "pyproject.toml") -> str | None:
    """The published copy's address: [project.urls] Repository, or None."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    url = project.get("urls", {}).get("Repository", "").strip().rstrip("/")
    if url and not re.fullmatch(r"https://[^\s\"'<>]+", url):
        raise ValueError(f"[project.urls] Repository must be an https address, got "
                         f"{url!r}: e.g. https://github.com/<you>/tinyagent-memory")
    return url or None


def badges(url: str, path: str) -> str:
    """The two badges of one notebook (`path` from the repository's root)."""
    repo = url.removeprefix("https://github.com/")
    return (f"{BADGE}(https://colab.research.google.com/github/{repo}/blob/main/"
            f"{path}) {BINDER}(https://mybinder.org/v2/gh/{repo}/main?labpath={path})")


def notebook(text: str, path: str, url: str | None) -> str:
    """A notebook's JSON with its badges and its Colab setup line for `url`."""
    nb = json.loads(text)
    lang = "zh" if "zh" in path.split("/")[:-1] else "en"  # notebooks/zh/, drafts/zh/
    title = "".join(nb["cells"][0]["source"]).split("\n")
    title = [line for line in title if not line.startswith(BADGE)]
    if title[1:3] == ["", ""]:
        del title[1]
    if url and nb["cells"][0]["cell_type"] == "markdown" and \
            not path.startswith("notebooks/solutions/"):
        title[1:1] = ["", badges(url, path)]
    nb["cells"][0]["source"] = _lines("\n".join(title))
    block = "\n".join(SETUP[lang, bool(url)]).replace("{url}", url or "")
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and 'if "google.colab" in' in source:
            source = re.sub(r'if "google\.colab" in sys\.modules:.*\n    %pip[^\n]*',
                            lambda _: block, source)
            cell["source"] = _lines(source)
    return json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def readme(text: str, lang: str, url: str | None) -> str:
    """A README with its badges and clone command between their markers."""
    first = "notebooks/zh/00_setup_and_tour.ipynb" if lang == "zh" else \
        "notebooks/00_setup_and_tour.ipynb"
    parts = {"badges": badges(url, first) if url else "",
             "clone": CLONE[lang].format(url=url) if url else ""}
    for name, body in parts.items():
        text = re.sub(rf"<!-- {name} -->.*?<!-- /{name} -->",
                      lambda _, name=name, body=body: f"<!-- {name} -->{body}"
                      f"<!-- /{name} -->", text, flags=re.S)
    return text


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def targets() -> list[Path]:
    return [*sorted((ROOT / "notebooks").glob("**/*.ipynb")),
            ROOT / "README.md", ROOT / "README.zh-CN.md"]


def written(path: Path, url: str | None) -> str:
    """What `path` holds once the links for `url` are written."""
    text = path.read_text(encoding="utf-8")
    relative = path.relative_to(ROOT).as_posix()
    if path.suffix == ".ipynb":
        return notebook(text, relative, url)
    return readme(text, "zh" if path.name == "README.zh-CN.md" else "en", url)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/publish_links.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a file is not as written")
    check = parser.parse_args(argv).check  # --help prints this and exits: no writing
    url = address()
    stale = []
    for path in targets():
        new = written(path, url)
        if new != path.read_text(encoding="utf-8"):
            stale.append(path.relative_to(ROOT).as_posix())
            if not check:
                path.write_text(new, encoding="utf-8")
    verb = "not as written" if check else "written"
    where = url or "no address (no badge; Colab installs the uploaded folder)"
    print(f"{where}: {len(stale)} file(s) {verb}" + "".join(f"\n  {s}" for s in stale))
    return 1 if stale and check else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
