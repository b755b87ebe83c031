// The last warp's steps unrolled on a volatile pointer, without __syncwarp(): the threads of a
// warp do not run in lockstep (since Volta), so each step races with the next.
__device__ void warpReduce(volatile float* s, int tid)
{
    s[tid] += s[tid + 32]; // HAZARD race
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x < 32) warpReduce(s, threadIdx.x);
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
