"""What every training loop shares: stage options, logging, EMA weights, the learning-rate
schedule, the wall-clock budget, checkpoints (resume), and the loop of a network with a new head."""
import argparse
import copy
import math
import os
import time

import torch
import torch.nn.functional as F

from ..models.onnx_weights import freeze_bn

# The options of a training stage (a recipe stage's keys), with their defaults.
STAGE_DEFAULTS = dict(
    mode=None, run=None, train=[], tiles=None, val=None, val_n=100,
    init=None, init_onnx=None, init_member=None,
    steps=3000, deadline_min=None, extend_min=None, batch=None, lr=None, seed=1, threads=None,
    crop=320, limit=None, min_items=200, ckpt_min=3.0,
    # the detector: each set's share of the scenes drawn ({set name: share}); None: uniform over scenes
    shares=None,
    cls_width="s", large=False, spot_input_scale=None,
    grey=None, shuffle=None, shape=0.0, ink=0.0, blur=0.0, sharpen=0.0, cut=0.0, lowres=0.0,
    # the verifier
    detector=None, sets=[], per_set=500, check_set=None, check_n=100, plain_share=0.0,
)


def stage_args(mode, **kw):
    """A stage's options as a Namespace: STAGE_DEFAULTS, then kw (unknown keys refused); batch and
    lr default by mode (detector 16 and 3e-3, crops 128 and 2e-3, the verifier 5e-4)."""
    bad = sorted(set(kw) - set(STAGE_DEFAULTS))
    if bad:
        raise SystemExit(f"stage options: unknown {', '.join(bad)}")
    a = argparse.Namespace(**{**copy.deepcopy(STAGE_DEFAULTS), **kw, "mode": mode})
    if a.batch is None:
        a.batch = 16 if mode == "det" else 128
    if a.lr is None:
        a.lr = {"det": 3e-3, "verifier": 5e-4}.get(mode, 2e-3)
    return a


def log(run_dir, msg):
    line = time.strftime("%H:%M:%S ") + msg
    print(line, flush=True)
    with open(os.path.join(run_dir, "log.txt"), "a") as f:
        f.write(line + "\n")


class EMA:
    def __init__(self, model, decay=0.998):
        self.m = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.m.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model, step):
        d = min(self.decay, (1 + step) / (10 + step))
        msd = model.state_dict()
        for k, v in self.m.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(d).add_(msd[k].detach(), alpha=1 - d)
            else:
                v.copy_(msd[k])


def lr_at(step, total, base, warm=150):
    if step < warm:
        return base * (step + 1) / warm
    p = (step - warm) / max(1, total - warm)
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))


class Budget:
    """Optional wall-clock budget: the cosine schedule is stretched over the number of steps
    that fit before the deadline (re-estimated every 50 steps from the measured step time).
    Without a deadline, the schedule runs over exactly --steps."""

    def __init__(self, a, extra):
        self.max_steps = a.steps
        self.deadline = extra.get("deadline")
        if self.deadline is None and a.deadline_min:
            self.deadline = time.time() + a.deadline_min * 60
        # --extend-min: a later wall-clock budget for a resumed run (applied once, however often it resumes)
        self.extended = extra.get("extended_min", 0.0)
        ext = getattr(a, "extend_min", None) or 0.0
        # without a deadline the schedule runs over exactly --steps (a resumed run may be given more)
        self.total = extra.get("total", a.steps) if self.deadline is not None else a.steps
        if self.deadline is not None and ext > self.extended:
            self.deadline += (ext - self.extended) * 60
            self.extended = ext
            # the saved total was fitted to the old deadline (a run that reached it would stop at
            # once): run on until update() has measured the step time against the new one
            self.total = a.steps
        self.t = time.time()
        self.s = None

    def update(self, step):
        if self.deadline is None:
            self.total = self.max_steps
            return
        now = time.time()
        if self.s is not None and step > self.s:
            rate = (now - self.t) / (step - self.s)
            est = step + max(0.0, self.deadline - now) / rate
            self.total = int(min(self.max_steps, max(step + 1, est)))
        self.t, self.s = now, step

    def done(self, step):
        return step >= self.total or step >= self.max_steps

    def state(self):
        return {"deadline": self.deadline, "total": self.total, "extended_min": self.extended}


def ce_step(model, ema, opt, step, logits, y, agg):
    """One optimiser step on the cross-entropy (label smoothing 0.05) of `logits`, the EMA
    update, and the running loss / right / seen counts in `agg` (the crop trainers' step)."""
    loss = F.cross_entropy(logits, y, label_smoothing=0.05)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    ema.update(model, step)
    agg[0] += loss.item()
    agg[1] += (logits.argmax(1) == y).sum().item()
    agg[2] += len(y)


def save_ckpt(path, model, ema, opt, step, gen, extra=None):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "ema": ema.m.state_dict(), "opt": opt.state_dict(),
                "step": step, "gen": gen.get_state(), "extra": extra or {}}, tmp)
    os.replace(tmp, path)


def load_ckpt(path, model, ema, opt, gen):
    if not os.path.exists(path):
        return 0, {}
    ck = torch.load(path, map_location="cpu")
    model.load_state_dict(ck["model"])
    ema.m.load_state_dict(ck["ema"])
    opt.load_state_dict(ck["opt"])
    gen.set_state(ck["gen"])
    return ck["step"], ck.get("extra", {})


# ----------------------------------------------------------------------------
# detector

def wait_for_items(ds, n, what, run):
    ds.refresh()
    while len(ds) < n and not ds.complete:
        log(run, f"waiting for data: {len(ds)} {what} so far")
        time.sleep(30)
        ds.refresh()
    if len(ds) == 0:
        raise SystemExit(f"no {what} found in {ds.folders}")




def start_head_run(a, make_net):
    """The common start of a run whose network is `make_net(init)` (the verifier): seed
    and threads, the network from a.init or its own checkpoint (resumed: weights, EMA, optimiser,
    step, RNG and budget), BatchNorm frozen when the start was an imported network.
    Returns (net, ema, opt, gen, step, bud, frozen, ckpt path)."""
    torch.manual_seed(a.seed)
    if a.threads:
        torch.set_num_threads(a.threads)
    os.makedirs(a.run, exist_ok=True)
    ck = os.path.join(a.run, "ckpt.pt")
    net, frozen = make_net(None if os.path.exists(ck) else a.init)
    if os.path.exists(ck):
        frozen = bool(torch.load(ck, map_location="cpu").get("extra", {}).get("frozen_bn"))
    ema = EMA(net)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(a.seed)
    step, extra = load_ckpt(ck, net, ema, opt, gen)
    bud = Budget(a, extra)
    net.train()
    if frozen:
        freeze_bn(net)
    return net, ema, opt, gen, step, bud, frozen, ck


def run_head_steps(a, run, batches, tag, check=None):
    """The training loop of a head run (start_head_run's tuple `run`): AdamW steps on the
    cross-entropy of the batches (`batches` yields (input, labels)) until the budget is spent, a
    log line every 50 steps, a checkpoint (extra[tag] set) every --ckpt-min minutes and at the end,
    and then check(EMA network) in the log when given."""
    net, ema, opt, gen, step, bud, frozen, ck = run
    extra = lambda: {**bud.state(), "frozen_bn": frozen, tag: True}
    t0, last_ck, agg = time.time(), time.time(), [0.0, 0, 0]
    while not bud.done(step):
        if step % 50 == 0:
            bud.update(step)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, bud.total, a.lr, warm=100)
        x, y = next(batches)
        ce_step(net, ema, opt, step, net(x), y, agg)
        step += 1
        if step % 50 == 0:
            log(a.run, f"step {step} loss {agg[0] / max(1, agg[2] / a.batch):.4f} acc {agg[1] / max(1, agg[2]):.4f} lr {opt.param_groups[0]['lr']:.5f} {(time.time() - t0) / max(1, agg[2] / a.batch):.2f}s/step (of {bud.total})")
            t0, agg = time.time(), [0.0, 0, 0]
        if time.time() - last_ck > a.ckpt_min * 60 or bud.done(step):
            save_ckpt(ck, net, ema, opt, step, gen, extra())
            last_ck = time.time()
            if check is not None:
                log(a.run, f"ckpt step {step}: {check(ema.m)}")
    save_ckpt(ck, net, ema, opt, step, gen, extra())
    log(a.run, f"finished at step {step}")

