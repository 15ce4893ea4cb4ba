#!/bin/bash
# bench/ncu_bytes.sh - DRAM bytes that ncu measures for each workload's full-size plan (the kernels
# of its last run: as many as describe lists steps), against the plan's own plan.exec_bytes.
# Needs the examples built (make) and ncu; GPU. Writes <example>.plan.txt / .ncu.csv under $OUT
# (default: build/ncu). EXS="l2_15_bn_submean ..." picks examples. Also the tensor-core MMA
# instructions (TF32: 2048 FLOP each) against plan.exec_flops. Results: bench/RESULTS.md.
OUT=${OUT:-build/ncu}
mkdir -p "$OUT"
for ex in ${EXS:-l2_15_bn_submean l2_77_scale_bn_pool l2_34_layernorm_gelu l2_61_relu_groupnorm l1_77_convt}; do
  build/$ex --tf32 --runs 1 > $OUT/$ex.plan.txt 2>&1
  ncu --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_hmma.sum build/$ex --tf32 --runs 1 > $OUT/$ex.ncu.csv 2>/dev/null
  python3 - $ex $OUT <<'PY'
import csv,sys,re
ex,out=sys.argv[1],sys.argv[2]
txt=open(f"{out}/{ex}.plan.txt").read()
nsteps=len(re.findall(r"^\s+step \d+:",txt,re.M))
mb=re.search(r"([\d.e+]+) MB moved",txt).group(1)
gf=re.search(r"([\d.e+]+) GFLOP executed",txt).group(1)
rows=[r for r in csv.reader(open(f"{out}/{ex}.ncu.csv")) if len(r)>10]
hdr=rows[0]; data=rows[1:]
iid=hdr.index("ID"); iname=hdr.index("Kernel Name"); imet=hdr.index("Metric Name"); ival=hdr.index("Metric Value"); iu=hdr.index("Metric Unit")
k={}
for r in data:
    key=int(r[iid]); k.setdefault(key,{"name":r[iname]})
    v=float(r[ival].replace(",",""))
    u=r[iu]
    mult={"byte":1,"Kbyte":1e3,"Mbyte":1e6,"Gbyte":1e9,"nsecond":1e-6,"usecond":1e-3,"msecond":1,"second":1e3}.get(u,1)
    k[key][r[imet]]=v*mult
ids=sorted(k)[-nsteps:]
rd=sum(k[i]["dram__bytes_read.sum"] for i in ids); wr=sum(k[i]["dram__bytes_write.sum"] for i in ids)
t=sum(k[i]["gpu__time_duration.sum"] for i in ids)
mma=sum(k[i].get("sm__inst_executed_pipe_tensor_op_hmma.sum",0.0) for i in ids)
print(f"{ex}: tensor-core MMAs {mma:.4g} x 2048 FLOP (TF32 m16n8k8) = {mma*2048/1e9:.4g} GFLOP; plan.exec_flops {gf} GFLOP; ratio {mma*2048/1e9/float(gf):.3f}")
print(f"{ex}: {nsteps} steps, ncu DRAM read {rd/1e6:.1f} MB + written {wr/1e6:.1f} MB = {(rd+wr)/1e6:.1f} MB; plan.exec_bytes {mb} MB; ratio {(rd+wr)/1e6/float(mb):.3f}; kernels {t/1e6:.3f} ms (ncu clocks)")
for i in ids: print("   ", k[i]["name"][:60], f'{k[i]["dram__bytes_read.sum"]/1e6:.1f} {k[i]["dram__bytes_write.sum"]/1e6:.1f} MB {k[i]["gpu__time_duration.sum"]/1e6:.3f} ms')
PY
done
