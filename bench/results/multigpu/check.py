"""Compares the one-GPU and all-GPU runs of the job: work per GPU, the
rules, and the speedup. Usage: check.py one.json all.json one.sqlite t_one t_all"""
import json
import sqlite3
import sys

def load(path, name):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"FAIL: run {name} gave no JSON ({e}); see {path[:-5]}.err")
        sys.exit(1)


one = load(sys.argv[1], "(a)")
every = load(sys.argv[2], "(b)")
db = sys.argv[3]
t_one, t_all = float(sys.argv[4]), float(sys.argv[5])
ok = True

print(f"(a) --devices 0:   {t_one:6.1f} s, {one['measured']} measurements")
print(f"(b) --devices all: {t_all:6.1f} s, {every['measured']} measurements")
lanes = every.get("devices", [])
for lane in lanes:
    print(f"    GPU {lane['ordinal']} {lane['name']} {lane['uuid']}: "
          f"{lane['tasks']} tasks, {lane['measured']} measurements, "
          f"{lane['worker_restarts']} restarts, retired: {lane['retired']}")
ordinals = {lane["ordinal"] for lane in lanes}
if len(lanes) < 2 or len(ordinals) < 2:
    print("FAIL: the run on every GPU had fewer than two GPUs")
    ok = False
if any(lane["measured"] == 0 for lane in lanes):
    print("FAIL: a GPU got no work")
    ok = False
if sum(lane["measured"] for lane in lanes) != every["measured"]:
    print("FAIL: the GPUs' measurements do not add up to the run's")
    ok = False


def picks(rule, sizes):
    out = []
    for n in sizes:
        k = None
        for iv in rule["intervals"]:
            if iv["start"] <= n and (iv.get("end") is None or n < iv["end"]):
                k = iv["kernel"]
        cfg = rule["kernels"][k]["config"] if k is not None else None
        out.append(",".join(f"{a}={b}" for a, b in sorted(cfg.items())) if cfg else None)
    return out


sizes = one["sampling"]["sizes"]
a, b = picks(one["rule"], sizes), picks(every["rule"], sizes)
same = sum(x == y for x, y in zip(a, b))
print(f"rules: the same kernel at {same} of {len(sizes)} sampled sizes")
# Where they differ, compare the two picks in run (a)'s own measurements.
con = sqlite3.connect(db)
rows = con.execute(
    "SELECT c.params_json, m.size, m.median_s FROM measurements m "
    "JOIN configs c ON c.id = m.config_id WHERE m.status = 'ok'").fetchall()
times = {}
for params, size, t in rows:
    cfg = ",".join(f"{k}={v}" for k, v in sorted(json.loads(params).items()))
    times[(cfg, size)] = t
worst = 0.0
for n, x, y in zip(sizes, a, b):
    if x != y and (x, n) in times and (y, n) in times:
        worst = max(worst, times[(y, n)] / times[(x, n)] - 1.0)
print(f"where the rules differ, (b)'s pick is at most {100 * worst:.1f}% slower in (a)'s measurements")
if worst > 0.05:
    print("FAIL: the rules disagree by more than 5%")
    ok = False
print(f"speedup of --devices all over --devices 0: {t_one / t_all:.2f}x on {len(ordinals)} GPUs")
json.dump({"t_one_s": t_one, "t_all_s": t_all, "speedup": t_one / t_all,
           "gpus": len(ordinals), "lanes": lanes, "same_pick_sizes": same,
           "sampled_sizes": len(sizes), "worst_disagreement": worst, "ok": ok},
          open(sys.argv[6], "w"), indent=2)
print("OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
