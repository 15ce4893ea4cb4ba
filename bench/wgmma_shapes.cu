/* wgmma_shapes.cu - which mixes of wgmma N beside an m64n256 ptxas keeps asynchronous.

   A tile's tap whose rows read the input only in part of the tile could issue a smaller wgmma over
   those rows (the haloed loop's skip, bench/RESULTS.md seventy-eighth entry). This kernel has the
   haloed loop's shape of main loop (a tap: fence, four K steps, commit, wait for the previous tap)
   with one m64n256k16 accumulator of 128 floats a thread, and a switch a tap among the smaller
   wgmmas of set SHAPES, each on the accumulators of its rows as the n256 holds them (rows r0 ..:
   registers r0 / 2 ..). Nothing runs it: compile it and read ptxas's report.

     for s in 0 1 2 3 4 5 6 7; do printf "SHAPES %d: " $s; nvcc -std=c++17 -O2 -DSHAPES=$s \
       -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c bench/wgmma_shapes.cu -o /dev/null 2>&1 \
       | grep -c C7511; done

   A count of 1 is C7511, "wgmma.mma_async instructions are serialized due to insufficient register
   resources for the wgmma pipeline" (every wgmma of the kernel then waits for the one before).
   Measured with nvcc 13.0 (the sets, n256 always in):
     0: n192 from rows 0 and 64, n128 from 0, 64 and 128    serialized
     1: n128 from rows 0 and 128 (the halves)                serialized
     2: n192 from row 0, the halves                          serialized
     3: n192, n128, n64, all from row 0                      kept
     4: set 3 and n128 from row 128                          serialized
     5: n128 from row 128 alone                              serialized
     6: n64 from row 128 alone                               serialized
     7: the halves and n64 from row 0                        serialized
   Only wgmmas from the tile's first row were kept in every form tried: in a first form of this
   probe (each shape's K steps in a generic lambda, the scale-d flag a predicate) sets 1 and 7
   were kept, set 0, 2, 4, 5 and 6 serialized; the haloed loop with the skip's shapes from row 0
   kept its wgmmas asynchronous, with shapes from rows 64 and 128 it did not. */

#define WS_COMMA ,
#define WS_L32 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define WS_L64 WS_L32 ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define WS_L96 WS_L64 ",%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"
#define WS_L128 WS_L96 ",%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
#define WS_O4(b) "+f"(d[(b)]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
#define WS_O16(b) WS_O4(b), WS_O4((b) + 4), WS_O4((b) + 8), WS_O4((b) + 12)
#define WS_O32(b) WS_O16(b), WS_O16((b) + 16)
#define WS_FN(N, LIST, OUTS, AB)                                                                              \
    static __device__ __forceinline__ void mma##N(float* d, unsigned long long da, unsigned long long db)       \
    {                                                                                                        \
        asm volatile("wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.f16.f16 {" LIST "}, " AB ", 1, 1, 1, 0, 0;\n" \
                     : OUTS                                                                                  \
                     : "l"(da), "l"(db));                                                                    \
    }
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
WS_FN(64, WS_L32, WS_O32(0), "%32, %33")
WS_FN(128, WS_L64, WS_O32(0) WS_COMMA WS_O32(32), "%64, %65")
WS_FN(192, WS_L96, WS_O32(0) WS_COMMA WS_O32(32) WS_COMMA WS_O32(64), "%96, %97")
WS_FN(256, WS_L128, WS_O32(0) WS_COMMA WS_O32(32) WS_COMMA WS_O32(64) WS_COMMA WS_O32(96), "%128, %129")
#endif

#ifndef SHAPES
#define SHAPES 0
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* one K step of tap shape S (1: n256; 2-6 the set's others; the B descriptor 64 rows of 16 bytes,
   the accumulators 32 registers, further a quarter of the tile's rows) */
template <int S> static __device__ __forceinline__ void step(float* acc, unsigned long long dw, unsigned long long dx)
{
    if constexpr (S == 1) mma256(acc, dw, dx);
#if SHAPES == 0
    else if constexpr (S == 2) mma192(acc, dw, dx);
    else if constexpr (S == 3) mma192(acc + 32, dw, dx + 64);
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 5) mma128(acc + 32, dw, dx + 64);
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#elif SHAPES == 1
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#elif SHAPES == 2
    else if constexpr (S == 2) mma192(acc, dw, dx);
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#elif SHAPES == 3
    else if constexpr (S == 2) mma192(acc, dw, dx);
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 5) mma64(acc, dw, dx);
#elif SHAPES == 4
    else if constexpr (S == 2) mma192(acc, dw, dx);
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 5) mma64(acc, dw, dx);
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#elif SHAPES == 5
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#elif SHAPES == 6
    else if constexpr (S == 6) mma64(acc + 64, dw, dx + 128);
#elif SHAPES == 7
    else if constexpr (S == 4) mma128(acc, dw, dx);
    else if constexpr (S == 5) mma64(acc, dw, dx);
    else if constexpr (S == 6) mma128(acc + 64, dw, dx + 128);
#endif
}
template <int S> static __device__ __forceinline__ void tap(float* acc, unsigned long long dw, unsigned long long dx)
{
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) step<S>(acc, dw + kk * 16, dx + kk * 32);
}
#endif

__global__ void __launch_bounds__(384, 1) shapes_kernel(const int* __restrict__ tab, float* out, int taps,
                                                        unsigned long long dw0, unsigned long long dx0)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    float acc[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) acc[i] = 0.f;
    for (int i = 0; i < taps; ++i) {
        const unsigned long long dw = dw0 + (unsigned long long)i * 1024u;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        switch (tab[i] & 7) {
        case 1: tap<1>(acc, dw, dx0); break;
        case 2: tap<2>(acc, dw, dx0); break;
        case 3: tap<3>(acc, dw, dx0); break;
        case 4: tap<4>(acc, dw, dx0); break;
        case 5: tap<5>(acc, dw, dx0); break;
        case 6: tap<6>(acc, dw, dx0); break;
        default: break;
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
    for (int i = 0; i < 128; ++i) out[threadIdx.x * 128 + i] = acc[i];
#else
    (void)tab; (void)out; (void)taps; (void)dw0; (void)dx0;
#endif
}
