// tf32x3_accuracy.cu - how the 3xTF32 (FP32-accurate) accumulation schemes compare on random dot
// products against float64, on one GPU (sm_80+). Build and run from the repo root:
//   nvcc -std=c++17 -O3 -arch=sm_90 bench/tf32x3_accuracy.cu -o build/tf32x3_accuracy && build/tf32x3_accuracy
// One warp per 16x8 output tile of A[16][K] x B[K][8], split big = rna(v), small = rna(v - big):
//   S0 each 32-deep chunk's small*big + big*small + big*big in one tensor-core accumulator, added
//      into an FP32 accumulator per chunk
//   S1 big*big per 8-deep step in a fresh accumulator, added with FADD; small terms per chunk
//   S2 S1 plus small*small
//   S3 everything in one tensor-core accumulator for the whole K
//   S4 per step: small*big, big*small, big*big in a fresh accumulator, added with FADD
//   S5 FP32 FMAs in sequence (what the direct engine does)
//   S6 S4's per-step sums added per chunk, each chunk's sum added into the FP32 accumulator (the
//      engine's scheme; with at most 8 chunks per tile it also adds small*small first)
// Prints rel-L2 against float64 and the mean signed error relative to sum |products|.
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <vector>
#include <random>
__device__ __forceinline__ uint32_t rna(float v){uint32_t r;asm("cvt.rna.tf32.f32 %0, %1;":"=r"(r):"f"(v));return r;}
__device__ __forceinline__ void mma(float* c,const uint32_t* a,const uint32_t* b){
 asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
 :"+f"(c[0]),"+f"(c[1]),"+f"(c[2]),"+f"(c[3]):"r"(a[0]),"r"(a[1]),"r"(a[2]),"r"(a[3]),"r"(b[0]),"r"(b[1]));}
__device__ __forceinline__ void mma0(float* d,const uint32_t* a,const uint32_t* b){
 asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\n"
 :"=f"(d[0]),"=f"(d[1]),"=f"(d[2]),"=f"(d[3]):"r"(a[0]),"r"(a[1]),"r"(a[2]),"r"(a[3]),"r"(b[0]),"r"(b[1]),"f"(0.f));}
// one warp per tile: A [16][K] row-major, B [K][8]; out [16][8]
template<int S> __global__ void k3(const float* A,const float* B,float* out,int K){
 int tile=blockIdx.x; const float* a=A+(size_t)tile*16*K; const float* b=B+(size_t)tile*K*8; float* o=out+tile*128;
 int lane=threadIdx.x,g=lane>>2,t=lane&3;
 float acc[4]={0,0,0,0}, tmp[4]={0,0,0,0}, ts[4]={0,0,0,0};
 for(int k0=0;k0<K;k0+=8){
  float av[4]={a[g*K+k0+t],a[(g+8)*K+k0+t],a[g*K+k0+t+4],a[(g+8)*K+k0+t+4]};
  float bv[2]={b[(k0+t)*8+g],b[(k0+t+4)*8+g]};
  uint32_t ab[4],as[4],bb[2],bs[2];
  for(int q=0;q<4;q++){ab[q]=rna(av[q]);as[q]=rna(av[q]-__uint_as_float(ab[q]));}
  for(int q=0;q<2;q++){bb[q]=rna(bv[q]);bs[q]=rna(bv[q]-__uint_as_float(bb[q]));}
  if(S==0){ // per-chunk (32) tmp, small first
    mma(tmp,as,bb);mma(tmp,ab,bs);mma(tmp,ab,bb);
    if(((k0+8)%32)==0||k0+8>=K){for(int q=0;q<4;q++){acc[q]+=tmp[q];tmp[q]=0;}}
  } else if(S==1){ // per-kstep big*big fresh + FADD; small per chunk
    float d[4]; mma0(d,ab,bb); for(int q=0;q<4;q++) acc[q]+=d[q];
    mma(ts,as,bb);mma(ts,ab,bs);
    if(((k0+8)%32)==0||k0+8>=K){for(int q=0;q<4;q++){acc[q]+=ts[q];ts[q]=0;}}
  } else if(S==2){ // S1 + small*small
    float d[4]; mma0(d,ab,bb); for(int q=0;q<4;q++) acc[q]+=d[q];
    mma(ts,as,bb);mma(ts,ab,bs);mma(ts,as,bs);
    if(((k0+8)%32)==0||k0+8>=K){for(int q=0;q<4;q++){acc[q]+=ts[q];ts[q]=0;}}
  } else if(S==3){ // all in one accumulator (naive CUTLASS-like)
    mma(acc,as,bb);mma(acc,ab,bs);mma(acc,ab,bb);
  } else if(S==4){ // per-kstep all three fresh: small terms into d then big
    float d[4]; mma0(d,as,bb); mma(d,ab,bs); mma(d,ab,bb); for(int q=0;q<4;q++) acc[q]+=d[q];
  } else if(S==6){ // per-kstep fresh d (small then big), FADD into chunk tmp, chunk into acc
    float d[4]; mma0(d,as,bb); mma(d,ab,bs); mma(d,ab,bb); for(int q=0;q<4;q++) tmp[q]+=d[q];
    if(((k0+8)%32)==0||k0+8>=K){for(int q=0;q<4;q++){acc[q]+=tmp[q];tmp[q]=0;}}
  } else if(S==5){ // fp32 fma sequential (reference behaviour of direct engine)
    // per thread compute its 4 outputs fully
    if(k0==0){
      int rows[4]={g,g+8,g,g+8}; int cols[4]={2*t,2*t+1,2*t,2*t+1};
      // c fragment: c0 (g,2t) c1 (g,2t+1) c2 (g+8,2t) c3(g+8,2t+1)
      int rr[4]={g,g,g+8,g+8}; int cc[4]={2*t,2*t+1,2*t,2*t+1};
      for(int q=0;q<4;q++){float s=0;for(int k=0;k<K;k++) s=fmaf(a[rr[q]*K+k],b[k*8+cc[q]],s); acc[q]=s;}
      (void)rows;(void)cols;
    }
  }
 }
 if(S==0){for(int q=0;q<4;q++)acc[q]+=tmp[q];}
 if(S==1||S==2){for(int q=0;q<4;q++)acc[q]+=ts[q];}
 o[g*8+2*t]=acc[0];o[g*8+2*t+1]=acc[1];o[(g+8)*8+2*t]=acc[2];o[(g+8)*8+2*t+1]=acc[3];
}
int main(){
 const int T=2048; int Ks[4]={32,256,1024,8000};
 for(int kk=0;kk<4;kk++){int K=Ks[kk];
  for(int dist=0;dist<2;dist++){
  std::mt19937 rng(123+K); std::uniform_real_distribution<float> u(0,1),w(-0.05f,0.05f);
  std::vector<float> A((size_t)T*16*K),B((size_t)T*K*8);
  for(auto&v:A) v= dist? u(rng)*2-1 : u(rng); for(auto&v:B) v=w(rng);
  std::vector<double> ref((size_t)T*128), mag((size_t)T*128);
  for(int tl=0;tl<T;tl++)for(int r=0;r<16;r++)for(int c=0;c<8;c++){double s=0,m=0;for(int k=0;k<K;k++){double p=(double)A[((size_t)tl*16+r)*K+k]*B[((size_t)tl*K+k)*8+c];s+=p;m+=fabs(p);}ref[tl*128+r*8+c]=s;mag[tl*128+r*8+c]=m;}
  float *dA,*dB,*dO; cudaMalloc(&dA,A.size()*4);cudaMalloc(&dB,B.size()*4);cudaMalloc(&dO,T*128*4);
  cudaMemcpy(dA,A.data(),A.size()*4,cudaMemcpyHostToDevice);cudaMemcpy(dB,B.data(),B.size()*4,cudaMemcpyHostToDevice);
  std::vector<float> O(T*128);
  printf("K=%5d %s:",K,dist?"x~U(-1,1)":"x~U(0,1) ");
  for(int S=0;S<7;S++){
   if(S==0)k3<0><<<T,32>>>(dA,dB,dO,K);if(S==1)k3<1><<<T,32>>>(dA,dB,dO,K);if(S==2)k3<2><<<T,32>>>(dA,dB,dO,K);
   if(S==3)k3<3><<<T,32>>>(dA,dB,dO,K);if(S==4)k3<4><<<T,32>>>(dA,dB,dO,K);if(S==5)k3<5><<<T,32>>>(dA,dB,dO,K);if(S==6)k3<6><<<T,32>>>(dA,dB,dO,K);
   cudaMemcpy(O.data(),dO,T*128*4,cudaMemcpyDeviceToHost);
   double e2=0,r2=0,bias=0,em=0; for(int i=0;i<T*128;i++){double e=O[i]-ref[i];e2+=e*e;r2+=ref[i]*ref[i];bias+=e/mag[i];em+=fabs(e)/mag[i];}
   printf("  S%d relL2 %.2e bias/mag %+.1e", S, sqrt(e2/r2), bias/(T*128));
  }
  printf("\n"); cudaFree(dA);cudaFree(dB);cudaFree(dO);}
 }
}
