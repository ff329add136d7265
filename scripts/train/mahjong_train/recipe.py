"""Recipes: one JSON file a shipped network (scripts/train/recipes/<network>.json), read,
checked and run. A recipe names its data sets (recipes/datasets.json: the generator command of
each), its training stages in order (mode, initial weights, data, schedule, seed, threads,
options) and its export (kind, stages, file, input size, opset)."""
import json
import os
import shlex
import subprocess
import time

import torch

from .data.sets import DATA, HERE, ROOT, load_classes
from .export.onnx import export_file, stage_file
from .loops.classifier import train_cls
from .loops.common import stage_args
from .loops.detector import train_det
from .loops.verifier import train_verifier
from .models.checkpoints import blend, import_onnx

RECIPES = os.path.join(os.path.dirname(HERE), "recipes")
RUNS = os.path.join(os.path.dirname(HERE), "runs")
NETWORKS = ("detector", "finder", "classifier", "classifier2", "flowers", "flowers2", "verifier")
MODES = ("det", "cls", "flw", "verifier", "blend")
KINDS = ("detector", "classifier", "verifier", "flower-parts", "flower-reader")
STAGE_KEYS = {"name", "mode", "init", "data", "schedule", "seed", "threads", "options", "detector", "of", "weight", "note"}
DATA_KEYS = {"train", "tiles", "val", "sets", "check_set"}
# smoke runs (--smoke): tiny data, one step, small batches, whatever the recipe says
SMOKE = {"det": dict(batch=2, crop=128, limit=3, min_items=1, val_n=2),
         "cls": dict(batch=4, limit=3, min_items=1), "flw": dict(batch=4, min_items=1),
         "verifier": dict(batch=8, per_set=3, check_n=2)}


def datasets():
    with open(os.path.join(RECIPES, "datasets.json")) as f:
        return json.load(f)["sets"]


def load(network):
    """The recipe of `network`, checked: stage names, modes, data sets, init references, export."""
    path = os.path.join(RECIPES, f"{network}.json")
    if not os.path.exists(path):
        raise SystemExit(f"train: no recipe {network} (recipes: {', '.join(NETWORKS)})")
    with open(path) as f:
        r = json.load(f)
    sets, seen = datasets(), []
    for st in r["stages"]:
        where = f"recipe {network}, stage {st.get('name')}"
        if set(st) - STAGE_KEYS or st.get("mode") not in MODES:
            raise SystemExit(f"{where}: unknown keys {sorted(set(st) - STAGE_KEYS)} or mode {st.get('mode')}")
        names = [n for k, v in st.get("data", {}).items() for n in (v if isinstance(v, list) else [v])]
        bad = sorted(set(st.get("data", {})) - DATA_KEYS) + [n for n in names if n not in sets]
        if bad:
            raise SystemExit(f"{where}: unknown data keys or sets {bad} (recipes/datasets.json)")
        ref = st.get("of") or st.get("init", {}).get("stage")
        if ref is not None and ref not in seen:
            raise SystemExit(f"{where}: refers to stage {ref}, which does not come before it")
        shares = st.get("options", {}).get("shares") or {}
        if sorted(set(shares) - set(st.get("data", {}).get("train", []))):
            raise SystemExit(f"{where}: shares name sets that are not its train sets: {sorted(set(shares) - set(st['data'].get('train', [])))}")
        if st["mode"] != "blend":
            stage_args(st["mode"], **st.get("schedule", {}), **st.get("options", {}))  # unknown options refused
        seen.append(st["name"])
    ex = r["export"]
    if ex.get("mean_with") and ex["kind"] != "detector":
        raise SystemExit(f"recipe {network}: mean_with is for a detector export")
    if ex["kind"] not in KINDS or any(s not in seen for s in ex["from"]):
        raise SystemExit(f"recipe {network}: export kind {ex['kind']} or stages {ex['from']} unknown")
    return r


def data_names(recipe):
    return [n for st in recipe["stages"] for v in st.get("data", {}).values() for n in (v if isinstance(v, list) else [v])]


def generate(names, data_dir=DATA, count=None):
    """Make each named set in data_dir that is missing or unfinished (no manifest.json), with
    its generator command from datasets.json; `count` caps the scenes a set (quick trials)."""
    sets = datasets()
    for name in dict.fromkeys(names):
        out = os.path.join(data_dir, name)
        if os.path.exists(os.path.join(out, "manifest.json")):
            continue
        spec = sets[name]
        if spec.get("tool") == "real":
            real_set(name, spec, out)
            continue
        args = shlex.split(spec["args"].replace("training-data/", data_dir.rstrip("/") + "/"))
        if count is not None and "--count" in args:
            args[args.index("--count") + 1] = str(min(count, int(args[args.index("--count") + 1])))
        if spec.get("tool") == "embed":
            src = args[args.index("--from") + 1]
            generate([os.path.basename(src)], data_dir, count)
            cmd = ["npx", "tsx", "scripts/synth/embed.ts", "--out", out] + args
        else:
            cmd = ["npx", "tsx", "scripts/synth/generate.ts", "--out", out, "--workers", "2"] + args
        print("data: " + " ".join(cmd), flush=True)
        subprocess.run(["nice", "-n", "5"] + cmd, cwd=ROOT, check=True)


REAL_ENV = "MAHJONG_REAL_DATA"


def real_set(name, spec, out, smoke=False):
    """A set of real photographs: the converter (tools/real.py) run on a split of the fetched
    "Chinese Mahjong Detection" export, whose data/ folder $MAHJONG_REAL_DATA names."""
    root = os.environ.get(REAL_ENV)
    if not root or not os.path.isdir(os.path.join(root, spec["split"])):
        raise SystemExit(f"data: {name} is made from real photographs: fetch GitHub {spec['source']} (the fetch tool; see DEVELOPERS.md), "
                         f"extract its data/ folder and set {REAL_ENV} to it (it holds train/, valid/, test/ and data.yaml)")
    args = shlex.split(spec["args"])
    args = [resolve_file(a, out, smoke) if a.startswith("git:") else (os.path.join(root, a[len("split:"):]) if a.startswith("split:") else a) for a in args]
    cmd = ["/usr/bin/python3", "-m", "mahjong_train.tools.real", os.path.join(root, spec["split"]), out] + args
    print("data: " + " ".join(cmd), flush=True)
    subprocess.run(["nice", "-n", "5"] + cmd, cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "scripts", "train")})


def resolve_file(ref, work, smoke=False):
    """A file reference: `git:REV:PATH` (PATH as committed at REV, written once into work/init/;
    in a smoke run the working tree's PATH, which a shallow clone has), or a path from the root."""
    if not ref.startswith("git:"):
        return ref if os.path.isabs(ref) else os.path.join(ROOT, ref)
    _, rev, path = ref.split(":", 2)
    if smoke:
        return os.path.join(ROOT, path)
    dest = os.path.join(work, "init", f"{rev}-{os.path.basename(path)}")
    if not os.path.exists(dest):
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        blob = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:{path}"], capture_output=True, check=True).stdout
        with open(dest + ".tmp", "wb") as f:
            f.write(blob)
        os.replace(dest + ".tmp", dest)
    return dest


class Context:
    """Where a recipe runs: out (stage folders and the export), data_dir, and the overrides."""

    def __init__(self, out, export_dir=None, data_dir=DATA, steps=None, threads=None, deadline_min=None, smoke=None, gen_count=None):
        self.out, self.export_dir, self.data_dir, self.steps, self.threads = out, export_dir or out, data_dir, steps, threads
        self.deadline_min, self.smoke, self.gen_count = deadline_min, smoke, gen_count

    def data_path(self, name):
        """A set's folder; in a smoke run the smoke scenes or tiles (smoke = {scenes, tiles})."""
        if self.smoke:
            spec = datasets()[name]
            return self.smoke["tiles" if spec["kind"] == "tiles" else "real" if spec.get("tool") == "real" else "scenes"]
        return os.path.join(self.data_dir, name)

    def ckpt(self, stage):
        return os.path.join(self.out, stage, "ckpt.pt")


def stage_kwargs(st, ctx):
    """A stage's options for its loop: schedule, options, seed, threads, data folders, overrides."""
    kw = {**st.get("schedule", {}), **st.get("options", {}), "seed": st.get("seed", 1), "threads": ctx.threads or st.get("threads")}
    d = st.get("data", {})
    for key in ("train", "tiles", "sets"):
        if key in d:
            kw[key] = list(dict.fromkeys(ctx.data_path(n) for n in d[key]))  # a smoke run's sets are one
    for key in ("val", "check_set"):
        if key in d:
            kw[key] = ctx.data_path(d[key])
    if kw.get("shares"):
        # by the folder each set is read from (a smoke run reads several sets from one folder)
        folders = {}
        for n, v in kw["shares"].items():
            f = os.path.basename(os.path.normpath(ctx.data_path(n)))
            folders[f] = folders.get(f, 0) + v
        kw["shares"] = folders
    if st.get("detector"):
        kw["detector"] = resolve_file(st["detector"], ctx.out, bool(ctx.smoke))
    if ctx.smoke:
        kw.update(SMOKE[st["mode"]], steps=1)
    if ctx.steps is not None:
        kw["steps"] = ctx.steps
    if ctx.deadline_min is not None:
        kw["deadline_min"] = ctx.deadline_min
    return kw


def apply_init(st, ctx, kw):
    """The stage's initial weights: an exported file (`onnx`, BatchNorm frozen), an earlier
    stage's checkpoint or exported `file`, or an ONNX file imported into a checkpoint (`import`)."""
    init = st.get("init")
    if not init:
        return
    if "onnx" in init:
        kw["init_onnx"] = resolve_file(init["onnx"], ctx.out, bool(ctx.smoke))
        # a smoke run reads the working tree's file, which may hold several networks (a mean of
        # detectors): it starts from the first
        kw["init_member"] = init.get("member", 0 if ctx.smoke else None)
    elif "stage" in init and "file" in init:
        kw["init_onnx"] = os.path.join(ctx.out, init["stage"], init["file"])
    elif "stage" in init:
        kw["init"] = ctx.ckpt(init["stage"])
    else:
        src = resolve_file(init["import"], ctx.out, bool(ctx.smoke))
        kw["init"] = import_onnx(src, os.path.join(ctx.out, st["name"] + "-start"), init.get("member"), init.get("width", "m"))


def finished(path, steps):
    return os.path.exists(path) and torch.load(path, map_location="cpu").get("step", 0) >= steps


def run_stage(st, recipe, ctx):
    """One stage into ctx.out/<name>/ (resumed from its checkpoint; skipped once it has run its
    steps); a det/cls/flw stage also exports its own ONNX file there for later stages."""
    run = os.path.join(ctx.out, st["name"])
    os.makedirs(run, exist_ok=True)
    if st["mode"] == "blend":
        of = next(s for s in recipe["stages"] if s["name"] == st["of"])
        kw = {}
        apply_init(of, ctx, kw)
        start = kw.get("init") or import_onnx(kw["init_onnx"], os.path.join(ctx.out, of["name"] + "-start"), kw.get("init_member"), of.get("options", {}).get("cls_width", "m"))
        return blend(start, ctx.ckpt(of["name"]), st.get("weight", 0.5), run)
    kw = stage_kwargs(st, ctx)
    if finished(ctx.ckpt(st["name"]), kw["steps"]):
        print(f"stage {st['name']}: done ({ctx.ckpt(st['name'])})")
    else:
        apply_init(st, ctx, kw)
        a = stage_args(st["mode"], run=run, **kw)
        if a.threads:
            torch.set_num_threads(a.threads)
        {"det": train_det, "cls": train_cls, "flw": train_cls, "verifier": train_verifier}[st["mode"]](a)
    if st["mode"] != "verifier":
        stage_file(st["mode"], ctx.ckpt(st["name"]), run)
    return ctx.ckpt(st["name"])


def build(network, ctx, ship=False):
    """Run a recipe: its missing data sets, its stages in order, its export to ctx.out/<file>
    (and with ship, a copy into model/). Returns the exported file."""
    recipe = load(network)
    load_classes()
    t0 = time.time()
    if not ctx.smoke:
        generate(data_names(recipe), ctx.data_dir, ctx.gen_count)
    for st in recipe["stages"]:
        run_stage(st, recipe, ctx)
    ex = recipe["export"]
    # mean_with: detector files averaged with the exported network (in a smoke run the working
    # tree's file, whose first network stands in)
    mean_with = [(resolve_file(ref, ctx.out, bool(ctx.smoke)), 0 if ctx.smoke else None) for ref in ex.get("mean_with", [])]
    path = export_file(ex["kind"], [ctx.ckpt(s) for s in ex["from"]], os.path.join(ctx.export_dir, ex["file"]), size=ex.get("input"),
                       opset=ex.get("opset", 17), spot_weight=ex.get("spot_weight", 0.4), spot_scales=ex.get("spot_scales", (1.0,)),
                       mean_with=mean_with)
    if ship:
        dest = os.path.join(ROOT, "model", ex["file"])
        with open(path, "rb") as f, open(dest + ".tmp", "wb") as g:
            g.write(f.read())
        os.replace(dest + ".tmp", dest)
        print(f"shipped {path} -> {dest}")
    print(f"{network}: {path} in {time.time() - t0:.0f}s")
    return path
