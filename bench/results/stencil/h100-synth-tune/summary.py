# Best configurations per size and variant from tuning databases of the synthesized stencil templates.
# usage: python3 summary.py DB...
import sqlite3, json, sys, collections
for f in sys.argv[1:]:
    c = sqlite3.connect(f)
    cfg = {i: json.loads(p) for i, p in c.execute('select id, params_json from configs')} if 'params_json' in [r[1] for r in c.execute('pragma table_info(configs)')] else None
    if cfg is None:
        cols = [r[1] for r in c.execute('pragma table_info(configs)')]
        print(cols); break
    rows = list(c.execute('select config_id, size, status, median_s, gbps, reason from measurements'))
    st = collections.Counter((r[1], r[2]) for r in rows)
    print(f, dict(st))
    reasons = collections.Counter((r[5] or '')[:90] for r in rows if r[2] != 'ok')
    for k, v in reasons.most_common(4): print('   ', v, k)
    for size in sorted({r[1] for r in rows}):
        ok = sorted([r for r in rows if r[1] == size and r[2] == 'ok'], key=lambda r: r[3])
        # The naive kernel unchanged is the last variant when its chunked form is in the race.
        last = max(cfg[r[0]]['HONE_VARIANT'] for r in ok)
        naive = [r for r in ok if cfg[r[0]].get('HONE_VARIANT') == last and cfg[r[0]].get('ZCHUNK', 0) == 0 and cfg[r[0]]['BX'] == 32 and cfg[r[0]]['BY'] == 8]
        print(' size', size, 'valid', len(ok))
        for r in ok[:6]: print('   %.4f ms %6.0f GB/s %s' % (r[3]*1e3, r[4], cfg[r[0]]))
        for r in naive: print('   naive unchanged, 32x8: %.4f ms %6.0f GB/s' % (r[3]*1e3, r[4]))
        best_v = {}
        for r in ok:
            v = cfg[r[0]]['HONE_VARIANT']
            if v not in best_v: best_v[v] = r
        for v, r in sorted(best_v.items()): print('   best variant %d: %.4f ms %s' % (v, r[3]*1e3, cfg[r[0]]))
        wz = [r for r in ok if cfg[r[0]].get('ZCHUNK') == 0]
        if wz: print('   best whole-column: %.4f ms %s' % (wz[0][3]*1e3, cfg[wz[0][0]]))
