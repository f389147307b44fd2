#!/usr/bin/env bash
# Packs the sources that the listed launches read into one small tarball for
# the GPU machine: for every launch file, the program folder of its source
# (the folder below Rodinia's cuda/ or below the samples' Samples/CATEGORY/,
# whole, as relative includes such as ../inc/x.h reach across it) and each
# include folder, keeping only C/C++/CUDA sources and headers. The tarball
# holds yuhc+gpu-rodinia/ and NVIDIA+cuda-samples/ as EXT does, to be
# unpacked into a folder that run_device.sh is given.
#
# Usage: bench/results/analyze/real/pack.sh [OUT.tar.gz] [KERNELS.txt]
#   OUT      default ext.tar.gz in the current folder
#   KERNELS  default bench/results/analyze/real/kernels.txt
# Environment: EXT, the folder holding the two checkouts (default /work/ext).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-ext.tar.gz}
list=${2:-$here/kernels.txt}
ext=${EXT:-/work/ext}
for d in yuhc+gpu-rodinia NVIDIA+cuda-samples; do
    [ -d "$ext/$d" ] || { echo "pack.sh: no $ext/$d (set EXT to the folder holding it)" >&2; exit 2; }
done
files=$(mktemp)
trap 'rm -f "$files"' EXIT
python3 - "$ext" "$list" > "$files" <<'EOF'
import json, os, sys
ext, listing = sys.argv[1], sys.argv[2]
roots = {"RODINIA": "yuhc+gpu-rodinia", "SAMPLES": "NVIDIA+cuda-samples"}
kinds = (".cu", ".cuh", ".h", ".hpp", ".hh", ".c", ".cpp", ".cc", ".cxx", ".inc", ".inl")

def program_folder(rel):
    """The program's folder holding `rel` (a path below EXT), or `rel`."""
    parts = rel.split("/")
    if parts[0] == roots["RODINIA"] and len(parts) > 2 and parts[1] == "cuda":
        return "/".join(parts[:3])
    if parts[0] == roots["SAMPLES"] and len(parts) > 3 and parts[1] == "Samples":
        return "/".join(parts[:4])
    return rel

def below_ext(path, launch):
    for var, folder in roots.items():
        path = path.replace("${%s}" % var, folder)
    if path.startswith("${") or os.path.isabs(path):
        sys.exit(f"pack.sh: {launch}: {path} is not below ${{RODINIA}} or ${{SAMPLES}}")
    return os.path.normpath(path)

folders = set()
with open(listing) as f:
    for n, line in enumerate(f, 1):
        launch = line.split("#", 1)[0].strip()
        if not launch:
            continue
        try:
            with open(launch) as g:
                spec = json.load(g)
        except (OSError, ValueError) as e:
            sys.exit(f"pack.sh: {listing}:{n}: {launch}: {e}")
        source = below_ext(spec["source"], launch)
        folders.add(program_folder(os.path.dirname(source)))
        for inc in spec.get("include", []):
            folders.add(below_ext(inc, launch))

picked = set()
for folder in sorted(folders):
    top = os.path.join(ext, folder)
    if not os.path.isdir(top):
        sys.exit(f"pack.sh: no folder {top}")
    for dirpath, _, names in os.walk(top):
        for name in names:
            if name.endswith(kinds):
                picked.add(os.path.relpath(os.path.join(dirpath, name), ext))
print("\n".join(sorted(picked)))
EOF
tar czf "$out" -C "$ext" --files-from "$files"
echo "$out: $(wc -l < "$files") files, $(du -k "$out" | cut -f1) KiB"
