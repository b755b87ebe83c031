// reduceTree written with pointers into shared memory, pointer arithmetic, const float*, a
// reference to an element, auto, a float assigned from memory, and __device__ helpers taking a
// pointer and a reference: the same trace as the chapter's.
__device__ float load(const float* p, int k) { return p[k]; }
__device__ void add(float& into, float v) { into += v; }

__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s_data[TILE];
    float* s = s_data;
    const float* from = in + blockIdx.x * blockDim.x;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? load(from, threadIdx.x) : 0.0f;
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride)
        {
            float& mine = s[threadIdx.x];
            auto other = s + threadIdx.x;
            other += stride;
            auto value = *other;
            float v;
            v = *other;
            add(mine, value == v ? v : value);
        }
    }
    float* total = s_data;
    total++;
    total--;
    if (threadIdx.x == 0) out[blockIdx.x] = *total;
}
