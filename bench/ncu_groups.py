# ncu_groups.py - one kernel's SASS grouped by how often each instruction ran, which tells its loops
# apart (per CTA, per block, per unit, per tap ...), with each group's share of the instructions and
# of the warp stall samples and its top stall reasons.
# Usage: ncu -k regex:bk_main -c 1 --section SourceCounters --section WarpStateStats -o /tmp/r PROGRAM ARGS
#        ncu -i /tmp/r.ncu-rep --page source --csv --print-source sass | gzip > /tmp/r.csv.gz
#        python3 bench/ncu_groups.py /tmp/r.csv.gz [FIRST-LAST]
# FIRST-LAST (indices in the listing) also prints those instructions one a line: index, times
# executed, samples, SASS, top two stall reasons. bench/RESULTS.md, forty-second entry.
import collections
import csv
import gzip
import sys

opener = gzip.open if sys.argv[1].endswith('.gz') else open
rows = list(csv.reader(opener(sys.argv[1], 'rt', errors='replace')))
hi = next(i for i, r in enumerate(rows) if 'Source' in [c.strip() for c in r])
h = rows[hi]
src = h.index('Source')
ex = h.index('Instructions Executed')
samp = h.index('Warp Stall Sampling (All Samples)')
stall_cols = [(i, c) for i, c in enumerate(h) if c.startswith('stall_') and 'Not Issued' not in c]
data = []
for r in rows[hi + 1:]:
    if len(r) <= samp:
        continue
    try:
        e = int(r[ex].replace(',', '') or 0)
        s = float(r[samp].replace(',', '') or 0)
    except ValueError:
        continue
    st = collections.Counter({c: float(r[i] or 0) for i, c in stall_cols})
    data.append((r[src].strip(), e, s, st))
tot_e = sum(d[1] for d in data) or 1
tot_s = sum(d[2] for d in data) or 1
print('instructions', len(data), 'warp instructions executed', tot_e, 'samples', tot_s)
groups = collections.OrderedDict()
for i, (s, e, smp, st) in enumerate(data):
    g = groups.setdefault(e, [0, 0, 0.0, collections.Counter(), i, i])
    g[0] += 1
    g[1] += e
    g[2] += smp
    g[3].update(st)
    g[5] = i
print('  executed  instr  %instr  %samples  first-last   top stall reasons (% of all samples)')
for k, (n, e, smp, st, a, b) in sorted(groups.items(), key=lambda t: -t[1][1])[:40]:
    top = ', '.join('%s %.1f' % (c[6:], 100 * v / tot_s) for c, v in st.most_common(4) if v > 0)
    print('%10d %6d %7.2f %8.2f  %5d-%5d  %s' % (k, n, 100 * e / tot_e, 100 * smp / tot_s, a, b, top))
if len(sys.argv) > 2:
    a, b = map(int, sys.argv[2].split('-'))
    for i in range(a, min(b, len(data) - 1) + 1):
        s, e, smp, st = data[i]
        top = ', '.join('%s %d' % (c[6:], v) for c, v in st.most_common(2) if v > 0)
        print('%5d %9d %6d  %-60s %s' % (i, e, smp, s[:60], top))
