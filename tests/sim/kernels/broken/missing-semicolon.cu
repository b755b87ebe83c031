// A statement without its ;: the compiler stops on the next line, the message names this one.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x // REFUSED a ; is missing at the end of this line

    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
