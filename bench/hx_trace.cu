// hx_trace.cu - where a haloed CTA's time goes: each CTA of the haloed main kernel (_fc3d_hx_main)
// stamps clock64 at its phases (the header's _FC3D_HX_TRACE hooks), and this program sums them per
// SM: the time an SM spends between its CTAs (launch), on its tables, waiting for its first unit,
// in the main loop, waiting for the other warpgroup and staging, and in the epilogue.
//
// Build: nvcc -std=c++17 -O2 -I. -Itests -Iexamples -D_FC3D_HX_TRACE
//          -gencode arch=compute_90a,code=sm_90a bench/hx_trace.cu -o build/hx_trace
// Run:   build/hx_trace [IDS [MATH]]
//          IDS   comma-separated: L2/61,L2/77,L2/34,L1/77 (their convolutions alone, PROBLEMS.md
//                sizes, NCDHW, f32) and L2/61c, L2/34c (their chains: ReLU + GroupNorm; LayerNorm +
//                GELU + scale); default all but L1/77
//          MATH  tf32 (default) or half
// The tables phase is split further: the tile decoded, thread 0's tables, the wait at the barrier
// for the producer; the producer's barrier set-up and its first unit's copies; the producer lane's
// own entry, tile decode and barrier initialisation (its mbarrier.init and fence).
// Each case runs once untraced (warm-up) and once traced; the traced run's wall time is printed
// beside an untraced median of 10 (the stamps' stores cost a little). clock64 is per SM, so only
// differences of stamps taken on one SM are used: phases within a CTA, and the gap from a CTA's
// last warp to the next CTA's entry on the same SM.
#include "examples/example_common.h"

#include <algorithm>
#include <map>

struct ht_case {
    const char* id;
    int n, cin, cout, d, h, w, k, s, p, bias, chain, dil;
};
static const ht_case ht_cases[] = {
    {"L2/61", 16, 64, 128, 32, 32, 32, 3, 1, 0, 0, 0, 1},
    {"L2/77", 16, 64, 128, 16, 32, 32, 5, 1, 0, 1, 0, 1},
    {"L2/34", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 0, 1},
    {"L2/61c", 16, 64, 128, 32, 32, 32, 3, 1, 0, 0, 61, 1},
    {"L2/34c", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 34, 1},
    {"L1/77", 16, 32, 64, 16, 32, 32, 3, 2, 1, 0, 0, 2},
};

int main(int argc, char** argv) {
    const char* ids = argc > 1 ? argv[1] : "L2/61,L2/77,L2/34,L2/61c,L2/34c";
    const bool half = argc > 2 && strcmp(argv[2], "half") == 0;
    const size_t cap = (size_t)1 << 20; /* CTAs */
    unsigned long long* buf = nullptr;
    CUDA_OK(cudaMalloc(&buf, cap * 16 * sizeof(unsigned long long)));
    for (const ht_case& c : ht_cases) {
        if (!ex_listed(ids, c.id)) continue;
        fc3d_plan_desc d;
        memset(&d, 0, sizeof d);
        d.conv = ex_conv(c.n, c.cin, c.cout, c.d, c.h, c.w, c.k, c.s, c.p, c.dil, c.bias);
        d.layout = FC3D_LAYOUT_NCDHW;
        d.math = half ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        if (c.chain == 61) ex_ops_l2_61(&d);
        else if (c.chain == 34) ex_ops_l2_34(&d);
        const fc3d_plan p = ex_plan(d);
        ex_host hst;
        ex_fill(p, 7, &hst);
        ex_device dev = ex_upload(p, hst);
        const fc3d_run_args a = ex_args(p, dev, 0);
        unsigned long long* none = nullptr;
        CUDA_OK(cudaMemcpyToSymbol(_fc3d_hx_trace_buf, &none, sizeof none));
        ex_run(p, a);
        const double med = ex_time_ms(p, a, 10);
        CUDA_OK(cudaMemset(buf, 0, cap * 16 * sizeof(unsigned long long)));
        CUDA_OK(cudaMemcpyToSymbol(_fc3d_hx_trace_buf, &buf, sizeof buf));
        cudaEvent_t e0, e1;
        CUDA_OK(cudaEventCreate(&e0));
        CUDA_OK(cudaEventCreate(&e1));
        CUDA_OK(cudaEventRecord(e0));
        ex_run(p, a);
        CUDA_OK(cudaEventRecord(e1));
        CUDA_OK(cudaEventSynchronize(e1));
        float traced = 0.f;
        CUDA_OK(cudaEventElapsedTime(&traced, e0, e1));
        CUDA_OK(cudaMemcpyToSymbol(_fc3d_hx_trace_buf, &none, sizeof none));
        std::vector<unsigned long long> h(cap * 16);
        CUDA_OK(cudaMemcpy(h.data(), buf, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        /* the CTAs that ran: entry stamped */
        std::map<unsigned long long, std::vector<size_t>> per_sm;
        size_t ctas = 0;
        for (size_t i = 0; i < cap; ++i)
            if (h[i * 16 + 1]) {
                per_sm[h[i * 16]].push_back(i);
                ++ctas;
            }
        if (ctas == cap) printf("%s: more CTAs than the trace holds (%zu)\n", c.id, cap);
        /* phases, cycles summed over all CTAs: gap before (same SM), tables, first unit, main, stage, epilogue */
        double sum[6] = {0, 0, 0, 0, 0, 0}, span = 0.0, prod_lead = 0.0;
        std::vector<double> main_c, epi_c, gap_c, first_c, dec_c, tab_c, bar_c, pbar_c, punit_c, pe_c, pd_c, pi_c;
        for (auto& kv : per_sm) {
            std::vector<size_t>& v = kv.second;
            std::sort(v.begin(), v.end(), [&](size_t x, size_t y) { return h[x * 16 + 1] < h[y * 16 + 1]; });
            span += (double)(h[v.back() * 16 + 6] - h[v.front() * 16 + 1]);
            for (size_t j = 0; j < v.size(); ++j) {
                const unsigned long long* t = &h[v[j] * 16];
                const bool mma = t[3] != 0; /* a tile with units */
                if (j > 0) {
                    const double g = (double)t[1] - (double)h[v[j - 1] * 16 + 6];
                    sum[0] += g;
                    gap_c.push_back(g);
                }
                sum[1] += (double)(t[2] - t[1]);
                dec_c.push_back((double)(t[8] - t[1]));
                tab_c.push_back((double)(t[9] - t[8]));
                bar_c.push_back((double)(t[2] - t[9]));
                if (t[10]) pbar_c.push_back((double)t[10] - (double)t[1]);
                if (t[11]) punit_c.push_back((double)t[11] - (double)t[10]);
                if (t[14]) pe_c.push_back((double)t[14] - (double)t[1]);
                if (t[12]) pd_c.push_back((double)t[12] - (double)t[1]);
                if (t[13]) pi_c.push_back((double)t[13] - (double)t[1]);
                if (mma) {
                    sum[2] += (double)(t[3] - t[2]);
                    sum[3] += (double)(t[4] - t[3]);
                    first_c.push_back((double)(t[3] - t[2]));
                    main_c.push_back((double)(t[4] - t[3]));
                    if (t[7]) prod_lead += (double)t[4] - (double)t[7];
                } else {
                    sum[3] += (double)(t[4] - t[2]);
                }
                sum[4] += (double)(t[5] - t[4]);
                sum[5] += (double)(t[6] - t[5]);
                epi_c.push_back((double)(t[6] - t[5]));
            }
        }
        /* how the CTAs of an SM overlap: the time (cycles, summed over SMs) during which 0, 1, 2 or
           more of its CTAs are past their MMAs (wg 0's last MMA .. the last warp's epilogue: the
           tile's staging and stores), over each SM's span */
        double busy[4] = {0, 0, 0, 0};
        for (auto& kv : per_sm) {
            std::vector<std::pair<unsigned long long, int>> ev;
            for (size_t i : kv.second) {
                const unsigned long long* t = &h[i * 16];
                if (t[4] && t[6] > t[4]) {
                    ev.push_back({t[4], 1});
                    ev.push_back({t[6], -1});
                }
            }
            std::sort(ev.begin(), ev.end());
            /* (the SM's CTAs are sorted by entry above; with two at once the last to end need not
               be the last to enter) */
            unsigned long long last = 0;
            for (size_t i : kv.second) last = std::max(last, h[i * 16 + 6]);
            int depth = 0;
            unsigned long long at = h[kv.second.front() * 16 + 1];
            for (auto& e : ev) {
                if (e.first > at) busy[depth < 3 ? depth : 3] += (double)(e.first - at);
                at = std::max(at, e.first);
                depth += e.second;
            }
            if (last > at) busy[0] += (double)(last - at);
        }
        {
            const double all = busy[0] + busy[1] + busy[2] + busy[3];
            if (all > 0)
                printf("  an SM's time with 0 / 1 / 2 / 3+ CTAs past their MMAs (storing): %.1f / %.1f / %.1f / %.1f %%\n",
                       100 * busy[0] / all, 100 * busy[1] / all, 100 * busy[2] / all, 100 * busy[3] / all);
        }
        auto med_of = [](std::vector<double> v) {
            if (v.empty()) return 0.0;
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        double tot = 0.0;
        for (double s : sum) tot += s;
        printf("%s %s: plan %s, %zu CTAs on %zu SMs, %.1f CTAs an SM; untraced median %.3f ms, traced run %.3f ms\n",
               c.id, half ? "half" : "tf32", fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_HALO ? "halo" : "other", ctas,
               per_sm.size(), per_sm.empty() ? 0.0 : (double)ctas / per_sm.size(), med, traced);
        if (per_sm.empty()) continue;
        const char* names[6] = {"between CTAs", "tables", "first unit", "main loop", "other wg + staging", "epilogue"};
        for (int i = 0; i < 6; ++i) printf("  %-20s %5.1f %%\n", names[i], tot > 0 ? 100.0 * sum[i] / tot : 0.0);
        printf("  per CTA, median cycles: main %.0f, epilogue %.0f, first unit %.0f, gap %.0f; SM span sum / phase sum %.3f;"
               " producer's last copy to wg 0's last MMA, mean %.0f\n",
               med_of(main_c), med_of(epi_c), med_of(first_c), med_of(gap_c), tot > 0 ? span / tot : 0.0,
               main_c.empty() ? 0.0 : prod_lead / main_c.size());
        printf("  tables, median cycles: tile decoded %.0f after entry, thread 0's tables %.0f, then the barrier %.0f;"
               " the producer's barriers made %.0f after entry, its first unit's copies issued %.0f later\n",
               med_of(dec_c), med_of(tab_c), med_of(bar_c), med_of(pbar_c), med_of(punit_c));
        printf("  median cycles after thread 0's entry: the producer's entry %.0f, its tile decoded %.0f, its barriers initialised %.0f\n",
               med_of(pe_c), med_of(pd_c), med_of(pi_c));
        CUDA_OK(cudaEventDestroy(e0));
        CUDA_OK(cudaEventDestroy(e1));
        ex_free(&dev);
    }
    CUDA_OK(cudaFree(buf));
    return 0;
}
