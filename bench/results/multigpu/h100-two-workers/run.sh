#!/usr/bin/env bash
# Two workers on one GPU (hone tune --devices 0,0), the GPU half of crates/cli/tests/devices_cli.rs's
# two_workers_share_one_gpu, run by hand with a release hone (hone.gz) beside job.toml from ../
# Two workers on one GPU (--devices 0,0): both get work, a second run measures nothing new.
set -u
for d in /usr/local/cuda/lib64 /usr/local/cuda-13.0/lib64; do
    [ -e "$d/libnvrtc.so" ] || ls "$d"/libnvrtc.so* >/dev/null 2>&1 && export LD_LIBRARY_PATH="$d" && break
done
gzip -dc hone.gz > hone && chmod +x hone
export HONE_CACHE_DIR=/tmp/hc
./hone tune job.toml --db "$OUT/t.sqlite" --devices 0,0 --reps 10 --warmup 2 --json > "$OUT/first.json" 2> "$OUT/first.err"; echo "first rc=$?"
./hone tune job.toml --db "$OUT/t.sqlite" --devices 0,0 --reps 10 --warmup 2 --json > "$OUT/again.json" 2> "$OUT/again.err"; echo "again rc=$?"
python3 - "$OUT" <<'PY'
import json, sys
o = sys.argv[1]
a = json.load(open(o + "/first.json")); b = json.load(open(o + "/again.json"))
lanes = a["devices"]
print("complete", a["complete"], "measured", a["measured"], "lanes", [(l["ordinal"], l["measured"], l["retired"]) for l in lanes])
assert a["complete"] and len(lanes) == 2 and all(l["ordinal"] == 0 and l["measured"] > 0 and l["retired"] is None for l in lanes)
assert sum(l["measured"] for l in lanes) == a["measured"]
print("again measured", b.get("measured"), "rules equal", a["rule"] == b["rule"])
print("OK")
PY
