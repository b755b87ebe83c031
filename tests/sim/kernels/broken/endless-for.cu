// k steps over 0 (odd, by 2, wrapping round): a loop on registers only that never ends.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    s[threadIdx.x] = in[0];
    unsigned k;
    for (k = 1; k != 0; k += 2) ; // HAZARD timeout
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + k;
}
