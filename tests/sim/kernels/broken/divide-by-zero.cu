// reduceTree that divides by a number that is 0 for thread 0: the simulator stops there (a GPU
// would give an undefined number and go on), and the run says so with the line last seen.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    const int share = n / (int)threadIdx.x;
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + share;
}
