#!/usr/bin/env python3
"""reference_over_peak.py FILE...: per results file, the host reference loop's median rate in the
rounds over the same run's calibrated peak of its pattern, one figure per problem (min, median, max
over the problems). A lab reading for issue #33 item 4 (does memory contention show?)."""
import json
import statistics
import sys

for f in sys.argv[1:]:
    d=json.load(open(f))
    peaks={}
    for p in d['context']['peaks']:
        if p['memory_space']!='host': continue
        name=p.get('pattern') or ('copy' if 'streaming stores' in p['measured_by'] else 'read')
        peaks[name]=p['gbps']
    ratios=[]; seen=set()
    for c in d['results']:
        r=c.get('rounds') or {}
        ref=r.get('reference')
        if not ref or c.get('memory_space')!='host': continue
        key=(c['workload'],c['distribution'],c['size'])
        if key in seen: continue
        seen.add(key)
        rate=ref['bytes_moved']/1e9/(statistics.median(ref['samples_ms'])/1e3)
        pk=peaks.get(ref['pattern'])
        if pk: ratios.append(rate/pk)
    ratios.sort()
    print(f.split('/')[-1], 'peaks', {k:round(v,1) for k,v in peaks.items()}, 'problems', len(ratios), 'ref/peak min %.2f median %.2f max %.2f' % (ratios[0], statistics.median(ratios), ratios[-1]))
