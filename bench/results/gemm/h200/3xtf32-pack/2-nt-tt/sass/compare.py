#!/usr/bin/env python3
"""Compares the instructions of gemm_3xtf32 in two `cuobjdump -sass` listings (gzipped):
nvcc's TN warp-specialized kernel and the packing kernel hone compiled with NVRTC.
    python3 compare.py nvcc_tn_ws.sass.gz hone_pack_ws.sass.gz"""
import difflib, gzip, re, sys


def entry(path):
    text = gzip.open(path, "rt").read()
    body = text[text.index("Function : gemm_3xtf32"):]
    end = body.find("Function :", 10)
    body = body if end < 0 else body[:end]
    return [m.group(1).strip() for m in re.finditer(r"/\*[0-9a-f]+\*/\s+(.*?);", body)]


a, b = entry(sys.argv[1]), entry(sys.argv[2])
diff = list(difflib.unified_diff(a, b, lineterm="", n=0))
print(f"{len(a)} and {len(b)} instructions; {'identical' if not diff else 'differ'}")
print("\n".join(diff[:40]))
