// A whole program pasted in, its host code with it.
__global__ void reduceTree(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main() // REFUSED main is host code: pplab launches your kernel itself
{
    float* d_in = nullptr;
    cudaMalloc(&d_in, 1024 * sizeof(float));
    return 0;
}
