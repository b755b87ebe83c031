// Puzzle 3 (§8.4): the grid-stride accumulation.
// Each thread accumulates its share of the array first, then ONE tree reduction over the block.
__global__ void reduceCoarsened(const float* in, float* out, int n)
{
    __shared__ float s[TILE];

    float sum = 0.0f;
    // Your code here: each thread sums its share of the array into `sum`, starting at its
    // index in the grid and stepping by the number of threads in the grid.

    s[threadIdx.x] = sum;

    for (int stride2 = TILE / 2; stride2 > 0; stride2 >>= 1)
    {
        __syncthreads();
        if (threadIdx.x < stride2)
            s[threadIdx.x] += s[threadIdx.x + stride2];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
