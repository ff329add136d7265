"""The one command: `npm run train -- NETWORK... [options]` (= PYTHONPATH=scripts/train
/usr/bin/python3 -m mahjong_train ...). Top of the package: reads the recipes and runs them."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from .checks import check_export, self_checks
from .recipe import NETWORKS, RUNS, Context, build, data_names, datasets, generate, load
from .data.sets import DATA, ROOT
from .models.checkpoints import import_onnx
from .export.onnx import export_file

USAGE = """npm run train -- NETWORK... [options]     rebuild shipped networks from their recipes
npm run train -- data [SET...|all]         generate missing data sets (recipes/datasets.json)
npm run train -- show NETWORK              the recipe: stages, data sets and their generator commands
npm run train -- import FILE RUN [--member N] [--width m|spot]   a checkpoint from a shipped network
npm run train -- export KIND CKPT FILE     one checkpoint to ONNX as a recipe's export of KIND does
NETWORK: """ + " ".join(NETWORKS) + " | all"


def smoke_data(tmp):
    """3 generated scenes and one tile of each flower: every set of every recipe in a smoke run."""
    sets = {"scenes": os.path.join(tmp, "scenes"), "tiles": os.path.join(tmp, "tiles")}
    gen = ["npx", "tsx", "scripts/synth/generate.ts", "--seed", "7", "--quiet"]
    subprocess.run(gen + ["--out", sets["scenes"], "--count", "3"], cwd=ROOT, check=True)
    subprocess.run(gen + ["--out", sets["tiles"], "--count", "1", "--tiles", "--codes", "f1,f2,f3,f4,f5,f6,f7,f8"], cwd=ROOT, check=True)
    sets["real"] = smoke_real(tmp)
    return sets


def smoke_real(tmp):
    """The real-photo converter on the YOLO fixture (test/fixtures/real-yolo) and on a mirrored copy
    of its first photo: the stretched photo comes back at 4:3, the mirrored one is flipped back."""
    src, mirrored, out = os.path.join(ROOT, "test", "fixtures", "real-yolo"), os.path.join(tmp, "real-mirrored"), os.path.join(tmp, "real")
    for sub in ("images", "labels"):
        os.makedirs(os.path.join(mirrored, sub))
    shutil.copy(os.path.join(src, "data.yaml"), mirrored)
    from PIL import Image
    Image.open(os.path.join(src, "images", "holdout-0.jpg")).transpose(Image.FLIP_LEFT_RIGHT).save(os.path.join(mirrored, "images", "m.jpg"))
    with open(os.path.join(src, "labels", "holdout-0.txt")) as f, open(os.path.join(mirrored, "labels", "m.txt"), "w") as g:
        for line in f:
            c, x, y, w, h = line.split()
            g.write(f"{c} {1 - float(x):.6f} {y} {w} {h}\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "scripts", "train")}
    real = ["/usr/bin/python3", "-m", "mahjong_train.tools.real"]
    onnx = os.path.join(ROOT, "model", "classifier.onnx")
    r = subprocess.run(real + [mirrored, os.path.join(tmp, "real-m"), "--unmirror", onnx], cwd=ROOT, check=True, env=env, capture_output=True, text=True)
    assert json.loads(r.stdout)["flipped_back"] == 1, f"real: a mirrored photo was not flipped back: {r.stdout}"
    r = subprocess.run(real + [src, out, "--unmirror", onnx, "--unsquash"], cwd=ROOT, check=True, env=env, capture_output=True, text=True)
    assert json.loads(r.stdout) == {"scenes": 2, "flipped_back": 0, "left_out_as_held_out": 0, "source": src}, r.stdout
    with open(os.path.join(out, "labels", "000001.json")) as f:
        lab = json.load(f)
    assert (lab["width"], lab["height"]) == (853, 640), f"real: the stretched fixture photo read at {lab['width']}x{lab['height']}"
    print("checks: real-photo converter (unmirror, unsquash) ok", flush=True)
    return out


def show(network):
    r, sets = load(network), datasets()
    print(json.dumps(r, indent=1))
    for name in dict.fromkeys(data_names(r)):
        print(f"  {name}: {sets[name]['args']}")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="npm run train --", usage=USAGE)
    ap.add_argument("networks", nargs="+")
    ap.add_argument("--out", help="scratch folder: each network's stages in OUT/<network>/, its export in OUT/ (default scripts/train/runs/; a smoke run: a temporary folder)")
    ap.add_argument("--ship", action="store_true", help="copy each export into model/ as well")
    ap.add_argument("--steps", type=int, help="every stage runs this many steps instead of the recipe's")
    ap.add_argument("--deadline-min", type=float, help="every stage fits its cosine schedule to this wall-clock budget (kept across resumes)")
    ap.add_argument("--threads", type=int, help="torch threads (default: the recipe's)")
    ap.add_argument("--smoke", action="store_true", help="CI: the self-checks, then each recipe on 3 generated scenes and 8 flower tiles, one step a stage")
    ap.add_argument("--data-dir", default=DATA, help="where the data sets are (and missing ones are generated)")
    ap.add_argument("--member", type=int, help="import: the network of a file of several (0 first, -1 last: the spotter of flowers.onnx)")
    ap.add_argument("--width", default="m", choices=["s", "m", "spot"], help="import: the network's width preset")
    ap.add_argument("--gen-count", type=int, help="generate missing sets with at most this many items each (quick trials)")
    a = ap.parse_args(argv)
    cmd, rest = a.networks[0], a.networks[1:]
    if cmd == "data":
        names = list(datasets()) if rest in ([], ["all"]) else rest
        return generate(names, a.data_dir, a.gen_count)
    if cmd == "show":
        return [show(n) for n in rest]
    if cmd == "import":
        if len(rest) != 2:
            raise SystemExit("usage: npm run train -- import FILE RUN [--member N] [--width m|spot]")
        return import_onnx(rest[0], rest[1], a.member, a.width) and None
    if cmd == "export":
        if len(rest) != 3:
            raise SystemExit("usage: npm run train -- export KIND CKPT FILE")
        path = export_file(rest[0], [rest[1]], rest[2])
        check_export(rest[0], [rest[1]], path)
        return None
    networks = list(NETWORKS) if a.networks == ["all"] else a.networks
    for n in networks:
        load(n)  # every recipe checked before anything runs
    if a.ship and (a.smoke or a.steps is not None):
        raise SystemExit("train: --ship takes a full recipe run (not --smoke or --steps)")
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="train-smoke-") if a.smoke else None
    try:
        smoke = None
        if a.smoke:
            self_checks()
            smoke = smoke_data(tmp)
        root = a.out or (os.path.join(tmp, "runs") if a.smoke else RUNS)
        for n in networks:
            ctx = Context(os.path.join(root, n), export_dir=root, data_dir=a.data_dir, steps=a.steps, threads=a.threads,
                          deadline_min=a.deadline_min, smoke=smoke, gen_count=a.gen_count)
            path = build(n, ctx, ship=a.ship)
            if a.smoke:
                ex = load(n)["export"]
                check_export(ex["kind"], [ctx.ckpt(s) for s in ex["from"]], path)
        print(f"train: {' '.join(networks)} {'smoke ' if a.smoke else ''}ok in {time.time() - t0:.0f}s")
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
