// reduceTree whose thread 0 also checks CUDA's atomics on __device__ variables, each against
// the value CUDA's definitions give (CUDA C++ Programming Guide, "Atomic Functions"): a block
// total is written only if every one held, so out[] is the chapter's only then.
__device__ unsigned int wraps[64];
__device__ unsigned int bits[64];
__device__ unsigned long long words[64];
__device__ int signed_bits[64];

__device__ bool atomicsHold(int b)
{
    if (b >= 64) return true; // the first 64 blocks check, each its own slots
    bool ok = true;
    wraps[b] = 3;
    ok = ok && atomicInc(&wraps[b], 3u) == 3u && wraps[b] == 0u;        // past 3: back to 0
    ok = ok && atomicInc(&wraps[b], 3u) == 0u && wraps[b] == 1u;
    ok = ok && atomicDec(&wraps[b], 5u) == 1u && wraps[b] == 0u;
    ok = ok && atomicDec(&wraps[b], 5u) == 0u && wraps[b] == 5u;        // from 0: to 5
    wraps[b] = 9;
    ok = ok && atomicDec(&wraps[b], 5u) == 9u && wraps[b] == 5u;        // above 5: to 5
    bits[b] = 0xf0u;
    ok = ok && atomicOr(&bits[b], 0x0fu) == 0xf0u && bits[b] == 0xffu;
    ok = ok && atomicAnd(&bits[b], 0x3cu) == 0xffu && bits[b] == 0x3cu;
    ok = ok && atomicXor(&bits[b], 0xffu) == 0x3cu && bits[b] == 0xc3u;
    signed_bits[b] = -1;
    ok = ok && atomicAnd(&signed_bits[b], 6) == -1 && signed_bits[b] == 6;
    words[b] = 0;
    ok = ok && atomicCAS(&words[b], 0ull, 1ull << 40) == 0ull && words[b] == 1ull << 40;
    ok = ok && atomicCAS(&words[b], 0ull, 7ull) == 1ull << 40 && words[b] == 1ull << 40;
    ok = ok && atomicAdd(&words[b], 5ull) == 1ull << 40 && words[b] == (1ull << 40) + 5;
    ok = ok && atomicExch(&words[b], 2ull) == (1ull << 40) + 5 && words[b] == 2ull;
    ok = ok && atomicOr(&words[b], 1ull << 63) == 2ull && words[b] == (1ull << 63) + 2;
    ok = ok && atomicMax(&words[b], 3ull) == (1ull << 63) + 2 && words[b] == (1ull << 63) + 2;
    return ok;
}

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0 && atomicsHold(blockIdx.x)) out[blockIdx.x] = s[0];
}
