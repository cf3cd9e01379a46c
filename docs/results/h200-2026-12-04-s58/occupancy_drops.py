#!/usr/bin/env python3
# Lines of the output of audits.cpp weights (rows >= 512) where the fp32-weight default allows fewer CTAs an SM
# (of at most 4) than the own-weight default; "same" where both take the same layout.
import re,sys
pat=re.compile(r'^(..) (\S+)\s+(\S+)\s+h\s+(\d+) rows\s+(\d+) \| own (\S+)\s+r\s*(-?\d+) s\s*(-?\d+) c\s*(\d+) \| f32w (\S+)\s+r\s*(-?\d+) s\s*(-?\d+) c\s*(\d+)')
for l in open(sys.argv[1]):
    m=pat.match(l)
    if not m: continue
    flag,op,dt,h,r,so,ro,sto,co,sf,rf,stf,cf=m.groups()
    same = sf.replace('-wf32','')==so
    co,cf=int(co),int(cf)
    if int(r)>=512 and cf<co and co<=4:
        print(f"{'same' if same else 'diff'} {op:24s} {dt} {h:>6} {r:>6} own r{ro:>3} s{sto:>3} c{co}  f32w r{rf:>3} s{stf:>3} c{cf}  own {so[len(op)+1:]}  f32w {sf[len(op)+1:]}")
