#!/bin/bash
# bench/ncu_bytes.sh - DRAM bytes that ncu measures for each workload's full-size plan, against the
# plan's own plan.exec_bytes, and the tensor-core instructions against plan.exec_flops.
# Needs the examples built (make) and ncu; GPU. Writes <example>.plan.txt / .ncu.csv under $OUT
# (default: build/ncu). EXS="l2_15_bn_submean ..." picks examples, MATH=--half another math mode.
#
# Which kernels: the example runs its full-size plan twice in a row (a warm-up and one timed run,
# `--runs 1`), so the last run's kernels are the longest tail of the kernel list that repeats just
# before itself. A zero fill (cudaMemsetAsync of y, where describe says "zero-filled") is not a
# kernel and ncu does not profile it: its bytes, y's size written, are added and printed apart.
# MMAs, of the GEMM kernels: mma.sync m16n8k8 (TF32) is 2,048 FLOP an instruction, the block loop's
# m16n8k16 on f16 operands (_fc3d_bk_main<..., F16 = 1>) 4,096; a warp's share of a wgmma
# m64nNk8 (TF32 on the tiled wgmma loop) or m64nNk16 (half, and every math mode on the haloed loop)
# is 64 N K 2 / 4 FLOP, so exec_flops / (instructions x 32 K) is the N the plan's count implies (256,
# or 240 on the haloed loop's plane-row and row tiles).
OUT=${OUT:-build/ncu}
MATH=${MATH:---tf32}
mkdir -p "$OUT"
for ex in ${EXS:-l2_15_bn_submean l2_77_scale_bn_pool l2_34_layernorm_gelu l2_61_relu_groupnorm l1_77_convt}; do
  build/$ex $MATH --runs 1 > $OUT/$ex.plan.txt 2>&1
  ncu --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum \
    build/$ex $MATH --runs 1 > $OUT/$ex.ncu.csv 2>/dev/null
  python3 - $ex $OUT $MATH <<'PY'
import csv,sys,re
ex,out,math=sys.argv[1],sys.argv[2],sys.argv[3]
txt=open(f"{out}/{ex}.plan.txt").read()
full=txt[txt.index("full size plan:"):]
mb=float(re.search(r"([\d.e+]+) MB moved",full).group(1))
gf=float(re.search(r"([\d.e+]+) GFLOP executed",full).group(1))
ye=re.search(r"; y (\d+)x(\d+)x(\d+)x(\d+)x(\d+)",full)
ybytes=4.0
for g in ye.groups(): ybytes*=int(g)
fills=len(re.findall(r"zero-filled",full))
rows=[r for r in csv.reader(open(f"{out}/{ex}.ncu.csv")) if len(r)>10]
hdr=rows[0]; data=rows[1:]
iid=hdr.index("ID"); iname=hdr.index("Kernel Name"); imet=hdr.index("Metric Name"); ival=hdr.index("Metric Value"); iu=hdr.index("Metric Unit")
k={}
for r in data:
    key=int(r[iid]); k.setdefault(key,{"name":r[iname]})
    v=float(r[ival].replace(",",""))
    mult={"byte":1,"Kbyte":1e3,"Mbyte":1e6,"Gbyte":1e9,"B":1,"KB":1e3,"MB":1e6,"GB":1e9,
          "nsecond":1e-6,"usecond":1e-3,"msecond":1,"second":1e3,"ns":1e-6,"us":1e-3,"ms":1,"s":1e3}.get(r[iu],1)
    k[key][r[imet]]=v*mult
order=[i for i in sorted(k) if not k[i]["name"].startswith("ex_")] # (the example's own kernels)
names=[k[i]["name"] for i in order]
n=0
for m in range(len(names)//2,0,-1):
    if names[-m:]==names[-2*m:-m]: n=m; break
if n==0: print(f"{ex}: the last run's kernels not found (no repeated tail)"); sys.exit(1)
ids=order[-n:]
rd=sum(k[i]["dram__bytes_read.sum"] for i in ids); wr=sum(k[i]["dram__bytes_write.sum"] for i in ids)
t=sum(k[i]["gpu__time_duration.sum"] for i in ids)
# MMAs of the GEMM kernels (names with "_main", and the haloed loop's row kernel "_rows_ws"): the
# hmma counter also counts wgmmas, and counts something in kernels with no MMA at all (the copies,
# the passes), so those are left out. The haloed loop's wgmmas are k16 in every math mode (TF32 and
# FP32's parts are held as f16 there); the tiled wgmma loop's are k8 but in half math.
mk=[i for i in ids if "_main" in k[i]["name"] or "_rows_ws" in k[i]["name"]]
gm=sum(k[i].get("sm__inst_executed_pipe_tensor_op_gmma.sum",0.0) for i in mk)
hm=sum(k[i].get("sm__inst_executed_pipe_tensor_op_hmma.sum",0.0) for i in mk)-gm
# mma.sync FLOP an instruction: m16n8k8 (TF32) 2,048; the block loop's f16 operands (its kernel's
# last template argument, F16, 1) m16n8k16, 4,096
def mflop(i):
    m=re.match(r".*_fc3d_bk_main<([^>]*)>",k[i]["name"])
    return 4096 if m and m.group(1).replace(" ","").split(",")[-1]=="1" else 2048
hf=sum((k[i].get("sm__inst_executed_pipe_tensor_op_hmma.sum",0.0)-k[i].get("sm__inst_executed_pipe_tensor_op_gmma.sum",0.0))*mflop(i) for i in mk)
def kof(i): return 16 if math=="--half" or "_fc3d_hx_" in k[i]["name"] else 8
gk=sum(k[i].get("sm__inst_executed_pipe_tensor_op_gmma.sum",0.0)*kof(i) for i in mk)
print(f"{ex} ({math}): {n} kernels a run")
for i in ids:
    mm=k[i].get("sm__inst_executed_pipe_tensor_op_hmma.sum",0.0); wg=k[i].get("sm__inst_executed_pipe_tensor_op_gmma.sum",0.0)
    print("   ", k[i]["name"][:60], f'read {k[i]["dram__bytes_read.sum"]/1e6:.1f} MB, written {k[i]["dram__bytes_write.sum"]/1e6:.1f} MB, '
          f'{k[i]["gpu__time_duration.sum"]*1e3:.1f} us' + (f', mma.sync {mm:.6g}' if mm else '') + (f', wgmma {wg:.6g}' if wg else ''))
fb=fills*ybytes
if fills: print(f"    zero fill (cudaMemsetAsync, not profiled): {fb/1e6:.1f} MB written")
tot=rd+wr+fb
print(f"{ex}: DRAM read {rd/1e6:.1f} MB + written {(wr+fb)/1e6:.1f} MB = {tot/1e6:.1f} MB; plan.exec_bytes {mb:.1f} MB; ratio {tot/1e6/mb:.3f}; kernels {t:.3f} ms (ncu clocks)")
if hm: print(f"{ex}: mma.sync {hm:.5g} instructions, {hf/1e9:.4g} GFLOP (m16n8k8 2,048 FLOP, the block loop's f16 m16n8k16 4,096); plan.exec_flops {gf:.4g}; ratio {hf/1e9/gf:.4f}")
if gm: print(f"{ex}: wgmma {gm:.5g} warp instructions; plan.exec_flops {gf:.4g} GFLOP implies N = {gf*1e9/(gk*64*2/4):.2f}")
PY
done
