# ncu_top.py - the hottest SASS instructions of one kernel's ncu source page, by warp samples.
# Usage: ncu -k regex:hx_main -c 1 --section SourceCounters --section WarpStateStats -o /tmp/r PROGRAM ARGS
#        ncu -i /tmp/r.ncu-rep --page source --csv --print-source sass > /tmp/r.csv
#        python3 bench/ncu_top.py /tmp/r.csv
# Prints the total samples, the share per opcode, and the 45 instructions with the most samples
# (index in the listing, share, SASS, times executed). bench/RESULTS.md, eighteenth entry.
import csv, sys, re
rows = list(csv.reader(open(sys.argv[1], errors='replace')))
# the header row
hi = next(i for i, r in enumerate(rows) if any('Source' == c.strip() for c in r))
h = rows[hi]
src = h.index('Source')
samp = next(i for i, c in enumerate(h) if c.startswith('Warp Stall Sampling (All'))
execi = next((i for i, c in enumerate(h) if c.startswith('Instructions Executed')), None)
data = []
for r in rows[hi + 1:]:
    if len(r) <= samp: continue
    try: v = float(r[samp].replace(',', '') or 0)
    except ValueError: continue
    data.append((v, r))
tot = sum(v for v, _ in data)
print('total samples', tot, 'instructions', len(data))
# per-opcode totals
op = {}
for v, r in data:
    m = re.match(r'\s*(@!?U?P\w+\s+)?([A-Z0-9_.]+)', r[src])
    k = m.group(2).split('.')[0] if m else '?'
    op[k] = op.get(k, 0) + v
for k, v in sorted(op.items(), key=lambda t: -t[1])[:25]:
    print('%-12s %6.2f %%' % (k, 100 * v / tot))
print('--- top instructions (index, samples %, source)')
idx = {id(r): i for i, (_, r) in enumerate(data)}
for v, r in sorted(data, key=lambda t: -t[0])[:45]:
    print('%5d %5.2f %% %s | exec %s' % (idx[id(r)], 100 * v / tot, r[src].strip()[:90], r[execi] if execi is not None else ''))
