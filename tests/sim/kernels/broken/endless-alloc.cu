// Scratch memory taken with `new` each time round a loop and never given back: the run ends on
// the memory limit, at the loop.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    float sum = 0.0f;
    for (int k = 0; k < (1 << 30); k++) // HAZARD memory
    {
        auto scratch = new float[1 << 16];
        scratch[k % (1 << 16)] = 1.0f;
        sum += scratch[k % (1 << 16)];
    }
    s[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
